-- The audit chain (decision 025): each entry carries the hash of the one before it of its business in this database.
-- D1 has no SHA-256 in SQL, so entries are written as before (hash NULL, in the batch of their change) and sealed
-- afterwards by the Worker (functions/audit-chain.ts); the genesis entry's prev_hash is 64 zeros.
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT CHECK (prev_hash IS NULL OR (length(prev_hash) = 64 AND prev_hash NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE audit_log ADD COLUMN hash TEXT CHECK (hash IS NULL OR (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'));
-- What the sealer looks for: cheap when nothing waits (one index probe).
CREATE INDEX audit_log_unsealed ON audit_log (business_id, id) WHERE hash IS NULL;

-- Still append-only, with one exception: sealing, once, from no hash to both hashes, every other column as it was.
DROP TRIGGER audit_log_no_update;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
WHEN NOT (
  OLD.hash IS NULL AND OLD.prev_hash IS NULL AND NEW.hash IS NOT NULL AND NEW.prev_hash IS NOT NULL
  AND NEW.id IS OLD.id AND NEW.business_id IS OLD.business_id AND NEW.actor_id IS OLD.actor_id AND NEW.action IS OLD.action
  AND NEW.entity IS OLD.entity AND NEW.entity_id IS OLD.entity_id AND NEW.before_json IS OLD.before_json AND NEW.after_json IS OLD.after_json
  AND NEW.ip IS OLD.ip AND NEW.user_agent IS OLD.user_agent AND NEW.request_id IS OLD.request_id AND NEW.created_at IS OLD.created_at
)
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- The Audit tab lists by time, newest first, across the business database and the core one (created_at, then id).
CREATE INDEX audit_log_by_created ON audit_log (business_id, created_at, id);
-- Its filter choices: the actions the business's log holds.
CREATE INDEX audit_log_by_action ON audit_log (business_id, action, id);
