-- Poison isolation (issue 24, decision 028): a Partner API queue message the consumer could not apply, kept here
-- instead of holding back or dead-lettering the rest of its batch. One row per queue message; the business reads it
-- on the Developers tab and at GET /api/v1/rejections, an operator replays it with `npm run ingest:replay`.
-- The message body is kept as queued: the door refuses card numbers, so bodies hold none.
-- No foreign key on business_id: a message for a business no database knows is parked in the core database.
CREATE TABLE ingest_parked (
  business_id   TEXT NOT NULL,
  id            TEXT NOT NULL,
  -- The queue's message id: a message parked twice (its ack lost) is one row.
  message_id    TEXT NOT NULL,
  -- 'consumer': refused by the consumer after isolation; 'dead_letter': arrived on the dead-letter queue.
  source        TEXT NOT NULL CHECK (source IN ('consumer', 'dead_letter')),
  body          TEXT NOT NULL CHECK (json_valid(body)),
  -- The references the message carried (JSON array of text), for the business to find its payments.
  refs          TEXT NOT NULL CHECK (json_valid(refs)),
  error         TEXT NOT NULL,
  attempts      INTEGER NOT NULL,
  received_at   INTEGER,
  parked_at     INTEGER NOT NULL,
  PRIMARY KEY (business_id, id),
  UNIQUE (business_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX ingest_parked_by_time ON ingest_parked (business_id, parked_at, id);
CREATE UNIQUE INDEX ingest_parked_by_id ON ingest_parked (id);

-- Waiting reversals listed newest first (the Developers tab, GET /api/v1/reversals/waiting).
CREATE INDEX pending_reversals_by_time ON pending_reversals (business_id, received_at, reference);

-- The shard fences of migration 0013 (decision 021): a business being moved parks nothing meanwhile (its consumer retries).
CREATE TRIGGER ingest_parked_fence_insert BEFORE INSERT ON ingest_parked WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ingest_parked_fence_update BEFORE UPDATE ON ingest_parked WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
