-- Notifications (docs/decisions/053-notifications.md): what a person must act on or know reaches them in the portal's
-- inbox (the bell) and, as they choose, by email. The business's own records are the events: a request that waits, a
-- request decided. The fan-out reads them after each change and on the 5-minute cron, so no code path that makes or
-- decides a request can forget to notify, and a notice is written once per (event, person) by its key.

-- One notice for one person: the in-app channel, and what every other channel's delivery is made from.
CREATE TABLE notifications (
  id          TEXT PRIMARY KEY,
  business_id TEXT NOT NULL REFERENCES businesses (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  -- What it is about (functions/notifications/kinds.ts): no CHECK, so a new kind is no table rebuild.
  kind        TEXT NOT NULL,
  -- The event it comes from, the same for everyone it reaches ('request.waiting:apr_…'): one notice a person an event.
  event_key   TEXT NOT NULL,
  -- The record it is about (a request's id), so a waiting notice is settled when the request is decided.
  subject_id  TEXT NOT NULL,
  -- Written when it is made, in the words the bell and the email show (no code, key, phone, account or card number).
  title       TEXT NOT NULL,
  body        TEXT NOT NULL,
  -- What kind of record the subject is (a request's kind: merchant, transfer, …): with subject_id, the page the notice
  -- leads to, built where every link is (app/lib/paths.ts).
  subject_kind TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  read_at     TEXT,
  -- Nothing is left to act on (the request was decided by someone): off the bell's count, kept in the list.
  settled_at  TEXT,
  UNIQUE (business_id, user_id, event_key)
) STRICT;
CREATE INDEX notifications_inbox ON notifications (business_id, user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications (business_id, user_id) WHERE read_at IS NULL AND settled_at IS NULL;
CREATE INDEX notifications_unsettled ON notifications (business_id, kind, subject_id) WHERE settled_at IS NULL;

-- What a person chose per kind and channel (Settings → Profile); no row: the kind's default (functions/notifications/kinds.ts).
CREATE TABLE notification_preferences (
  business_id TEXT NOT NULL REFERENCES businesses (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  kind        TEXT NOT NULL,
  channel     TEXT NOT NULL,
  wanted      INTEGER NOT NULL CHECK (wanted IN (0, 1)),
  updated_at  TEXT NOT NULL,
  PRIMARY KEY (business_id, user_id, kind, channel)
) STRICT, WITHOUT ROWID;

-- A notice sent on another channel than the bell: one a notice and channel, tried until sent or given up.
CREATE TABLE notification_deliveries (
  id              TEXT PRIMARY KEY,
  business_id     TEXT NOT NULL REFERENCES businesses (id),
  notification_id TEXT NOT NULL REFERENCES notifications (id),
  -- 'email' (functions/notifications/kinds.ts): no CHECK, so SMS is no table rebuild.
  channel         TEXT NOT NULL,
  -- The address as it was when the delivery was made.
  address         TEXT NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL,
  -- While one sender has it, nobody else sends it (a crashed sender's lease runs out).
  lease_until     TEXT,
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  sent_at         TEXT,
  UNIQUE (notification_id, channel)
) STRICT;
CREATE INDEX notification_deliveries_due ON notification_deliveries (business_id, status, next_attempt_at);

-- The decided requests the fan-out reads: by when they were decided.
CREATE INDEX approval_requests_decided ON approval_requests (business_id, decided_at) WHERE decided_at IS NOT NULL;

-- Development only: the emails the dev outbox "sent", shown at /__dev/outbox as they would be read.
CREATE TABLE dev_email_outbox (
  id         INTEGER PRIMARY KEY,
  to_address TEXT NOT NULL,
  subject    TEXT NOT NULL,
  html       TEXT NOT NULL,
  text       TEXT NOT NULL,
  headers    TEXT NOT NULL CHECK (json_valid(headers)),
  created_at TEXT NOT NULL
) STRICT;

CREATE TRIGGER notifications_fence_insert BEFORE INSERT ON notifications WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notifications_fence_update BEFORE UPDATE ON notifications WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notification_deliveries_fence_insert BEFORE INSERT ON notification_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notification_deliveries_fence_update BEFORE UPDATE ON notification_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notification_preferences_fence_insert BEFORE INSERT ON notification_preferences WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER notification_preferences_fence_update BEFORE UPDATE ON notification_preferences WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
