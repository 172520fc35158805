-- Disputes (issue 14, docs/decisions/023-disputes.md): a card scheme or mobile-money operator, through the processor,
-- disputes a payment (POST /api/v1/disputes). The disputed amount is held on the ledger (merchant_available ->
-- merchant_held, migration 0017) until the processor closes it as won (back to available) or lost (the money leaves).
-- Staff write a response and attach evidence (the files in the EVIDENCE bucket, R2) and submit it before the deadline.
CREATE TABLE disputes (
  id               TEXT PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  merchant_id      TEXT NOT NULL REFERENCES merchants (id),
  transaction_id   INTEGER NOT NULL REFERENCES transactions (id),
  reason_code      TEXT NOT NULL,
  amount           INTEGER NOT NULL CHECK (amount > 0),
  -- The end of the evidence due date in Africa/Accra (UTC+0), epoch ms: a response is taken before it.
  evidence_due_at  INTEGER NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('open', 'submitted', 'won', 'lost')),
  response_text    TEXT NOT NULL DEFAULT '',
  response_by      TEXT REFERENCES users (id),
  response_at      INTEGER,
  submitted_by     TEXT REFERENCES users (id),
  submitted_at     INTEGER,
  opened_at        INTEGER NOT NULL,
  closed_at        INTEGER,
  CHECK ((status = 'submitted') <= (submitted_at IS NOT NULL)),
  CHECK ((status IN ('won', 'lost')) = (closed_at IS NOT NULL))
) STRICT;
-- The list: open ones first, nearest deadline first (functions/data/disputes.ts); the dashboard's count.
CREATE INDEX disputes_by_status ON disputes (business_id, status, evidence_due_at, id);
-- What is already disputed of a payment.
CREATE INDEX disputes_by_transaction ON disputes (business_id, transaction_id);

-- Evidence files: the bytes are in R2 under r2_key (written before this row; decision 023 says what becomes of an
-- object whose row was never written).
CREATE TABLE dispute_evidence (
  id            TEXT PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  dispute_id    TEXT NOT NULL REFERENCES disputes (id),
  r2_key        TEXT NOT NULL UNIQUE,
  file_name     TEXT NOT NULL,
  content_type  TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/webp')),
  size          INTEGER NOT NULL CHECK (size > 0 AND size <= 10485760),
  uploaded_by   TEXT NOT NULL REFERENCES users (id),
  uploaded_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX dispute_evidence_by_dispute ON dispute_evidence (business_id, dispute_id, uploaded_at);

-- The shard fences of migration 0013 (decision 021): a business being moved takes no write of these either.
CREATE TRIGGER disputes_fence_insert BEFORE INSERT ON disputes WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER disputes_fence_update BEFORE UPDATE ON disputes WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER dispute_evidence_fence_insert BEFORE INSERT ON dispute_evidence WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER dispute_evidence_fence_update BEFORE UPDATE ON dispute_evidence WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
