-- Assigning a terminal to a point of sale decides whose money its payments become: it is a change request another
-- person approves, like a point of sale change (docs/decisions/011-terminal-changes.md, amended). The eighth kind of
-- approval request, 'terminal'. A CHECK cannot be altered in SQLite, so approval_requests is rebuilt with the same rows,
-- and its indexes and fences made again (as in 0018 and 0023).
PRAGMA defer_foreign_keys = true;
CREATE TABLE approval_requests_rebuilt (
  id             TEXT PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  kind           TEXT NOT NULL CHECK (kind IN ('employee', 'merchant', 'point_of_sale', 'settlement_account', 'transfer', 'refund', 'security_policy', 'terminal')),
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
