-- Notifications by SMS, paced, and the daily digest (docs/decisions/053-notifications.md, "Channels and pacing").
-- A delivery now knows whose it is (the hourly cap counts a person's sends per channel without a join), and may be
-- folded: held back by the cap and told in the person's next digest instead of on its own.
PRAGMA defer_foreign_keys = true;

CREATE TABLE notification_deliveries_rebuilt (
  id              TEXT PRIMARY KEY,
  business_id     TEXT NOT NULL REFERENCES businesses (id),
  notification_id TEXT NOT NULL REFERENCES notifications (id),
  user_id         TEXT NOT NULL REFERENCES users (id),
  -- 'email' or 'sms' (functions/notifications/kinds.ts).
  channel         TEXT NOT NULL,
  -- The address as it was when the delivery was made: an email address, or a phone number 233XXXXXXXXX.
  address         TEXT NOT NULL,
  -- folded: over the person's hourly cap, told in their next digest (folded_at) instead.
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead', 'folded')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL,
  lease_until     TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  sent_at         TEXT,
  folded_at       TEXT,
  CHECK ((status = 'folded') = (folded_at IS NOT NULL)),
  UNIQUE (notification_id, channel)
) STRICT;

INSERT INTO notification_deliveries_rebuilt (id, business_id, notification_id, user_id, channel, address, status, attempts, next_attempt_at,
    lease_until, last_error, created_at, sent_at)
  SELECT d.id, d.business_id, d.notification_id, n.user_id, d.channel, d.address, d.status, d.attempts, d.next_attempt_at,
    d.lease_until, d.last_error, d.created_at, d.sent_at
  FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id;
DROP TABLE notification_deliveries;
ALTER TABLE notification_deliveries_rebuilt RENAME TO notification_deliveries;

CREATE INDEX notification_deliveries_due ON notification_deliveries (business_id, status, next_attempt_at);
-- The hourly cap: what a person was sent lately on a channel.
CREATE INDEX notification_deliveries_sent ON notification_deliveries (business_id, user_id, channel, sent_at) WHERE sent_at IS NOT NULL;
-- The digest: what was folded for a person and not told yet.
CREATE INDEX notification_deliveries_folded ON notification_deliveries (business_id, user_id, folded_at) WHERE status = 'folded';

CREATE TRIGGER notification_deliveries_fence_insert BEFORE INSERT ON notification_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notification_deliveries_fence_update BEFORE UPDATE ON notification_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;

-- The fan-out asks which of an event's people were told already: by the event, whoever the person.
CREATE INDEX notifications_by_event ON notifications (business_id, event_key);
-- The digest reads a business's notices of the last day.
CREATE INDEX notifications_by_time ON notifications (business_id, created_at);
