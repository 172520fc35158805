-- Refunds (issue 14; docs/decisions/022-refunds.md): money going back to a payer, asked for by one person and approved
-- by an administrator who is not the maker, posted merchant_available -> refund_payable on approval, then sent to the
-- processor through a port; refund_payable -> scheme_receivable when it succeeds, back to merchant_available when the
-- last attempt failed.
CREATE TABLE refunds (
  id               TEXT PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  transaction_id   INTEGER NOT NULL REFERENCES transactions (id),
  merchant_id      TEXT NOT NULL REFERENCES merchants (id),
  amount           INTEGER NOT NULL CHECK (amount > 0),
  reason           TEXT NOT NULL CHECK (length(trim(reason)) > 0),
  -- pending_approval -> rejected | sending -> succeeded | failed (money returned to available)
  status           TEXT NOT NULL CHECK (status IN ('pending_approval', 'rejected', 'sending', 'succeeded', 'failed')),
  -- From the form that asked: the same key twice is the same request.
  idempotency_key  TEXT NOT NULL,
  requested_by     TEXT NOT NULL REFERENCES users (id),
  approved_by      TEXT REFERENCES users (id),
  created_at       TEXT NOT NULL,
  decided_at       TEXT,
  -- Sending: how many times it went to the processor, who holds it now (a lease), when it may be tried again.
  attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  send_lease_until TEXT,
  next_attempt_at  TEXT,
  completed_at     TEXT,
  failure_reason   TEXT,
  CHECK (approved_by IS NULL OR approved_by <> requested_by),
  CHECK ((status IN ('pending_approval')) = (decided_at IS NULL)),
  CHECK (status <> 'failed' OR failure_reason IS NOT NULL),
  UNIQUE (business_id, idempotency_key)
) STRICT;
CREATE INDEX refunds_by_transaction ON refunds (business_id, transaction_id, status);
CREATE INDEX refunds_to_send ON refunds (business_id, status, next_attempt_at) WHERE status = 'sending';
CREATE INDEX refunds_by_time ON refunds (business_id, decided_at) WHERE decided_at IS NOT NULL;

-- Every attempt to send a refund: failures visible, retries traceable, and an attempt number never used twice.
CREATE TABLE refund_attempts (
  id          INTEGER PRIMARY KEY,
  business_id TEXT NOT NULL REFERENCES businesses (id),
  refund_id   TEXT NOT NULL REFERENCES refunds (id),
  attempt     INTEGER NOT NULL CHECK (attempt >= 1),
  outcome     TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
  error       TEXT,
  at          TEXT NOT NULL,
  UNIQUE (refund_id, attempt)
) STRICT;
CREATE INDEX refund_attempts_by_refund ON refund_attempts (business_id, refund_id, attempt);

-- The shard fences (decision 021) for both.
CREATE TRIGGER refunds_fence_insert BEFORE INSERT ON refunds WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER refunds_fence_update BEFORE UPDATE ON refunds WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER refund_attempts_fence_insert BEFORE INSERT ON refund_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER refund_attempts_fence_update BEFORE UPDATE ON refund_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;

-- A refund is the sixth kind of approval request. A CHECK cannot be altered in SQLite, so approval_requests is rebuilt
-- with the same rows, and its indexes and fences made again.
PRAGMA defer_foreign_keys = true;
CREATE TABLE approval_requests_rebuilt (
  id             TEXT PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  kind           TEXT NOT NULL CHECK (kind IN ('employee', 'merchant', 'point_of_sale', 'settlement_account', 'transfer', 'refund')),
  action         TEXT NOT NULL CHECK (action IN ('create', 'update', 'deactivate')),
  -- For a create, the id the new row will have.
  target_id      TEXT NOT NULL,
  -- The target's version when the request was made (null for a create).
  target_version INTEGER CHECK (target_version IS NULL OR target_version >= 1),
  before_json    TEXT CHECK (before_json IS NULL OR json_valid(before_json)),
  after_json     TEXT NOT NULL CHECK (json_valid(after_json)),
  maker_id       TEXT NOT NULL REFERENCES users (id),
  made_at        TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'stale')),
  checker_id     TEXT REFERENCES users (id),
  decided_at     TEXT,
  reason         TEXT,
  CHECK ((action = 'create') = (target_version IS NULL)),
  CHECK ((action = 'create') = (before_json IS NULL)),
  -- Nobody decides their own request.
  CHECK (checker_id IS NULL OR checker_id <> maker_id),
  CHECK ((status IN ('approved', 'rejected')) = (checker_id IS NOT NULL AND decided_at IS NOT NULL)),
  CHECK (status <> 'rejected' OR length(trim(coalesce(reason, ''))) > 0)
) STRICT;
INSERT INTO approval_requests_rebuilt SELECT id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at, status,
  checker_id, decided_at, reason FROM approval_requests;
DROP TABLE approval_requests;
ALTER TABLE approval_requests_rebuilt RENAME TO approval_requests;
CREATE INDEX approval_requests_queue ON approval_requests (business_id, status, made_at, id);
CREATE INDEX approval_requests_by_kind ON approval_requests (business_id, kind, status, made_at, id);
CREATE INDEX approval_requests_by_maker ON approval_requests (business_id, maker_id, status, made_at);
CREATE INDEX approval_requests_by_target ON approval_requests (business_id, kind, target_id, status);
-- One pending request per target at a time.
CREATE UNIQUE INDEX approval_requests_one_pending ON approval_requests (kind, target_id) WHERE status = 'pending';
CREATE TRIGGER approval_requests_fence_insert BEFORE INSERT ON approval_requests WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER approval_requests_fence_update BEFORE UPDATE ON approval_requests WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
