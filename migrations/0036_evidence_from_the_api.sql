-- Dispute evidence sent through the Partner API (issue 29 point 7): the switch's platform key has no person of the
-- business, so uploaded_by may be null (the audit entry's request id ties the file to the API request). A column's
-- NOT NULL cannot be dropped in SQLite, so dispute_evidence is rebuilt with the same rows, its index and fences made
-- again (as 0023 did for approval_requests).
PRAGMA defer_foreign_keys = true;
CREATE TABLE dispute_evidence_rebuilt (
  id            TEXT PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  dispute_id    TEXT NOT NULL REFERENCES disputes (id),
  r2_key        TEXT NOT NULL UNIQUE,
  file_name     TEXT NOT NULL,
  content_type  TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/webp')),
  size          INTEGER NOT NULL CHECK (size > 0 AND size <= 10485760),
  -- The person who attached it on the dispute's page; null when it came through the Partner API.
  uploaded_by   TEXT REFERENCES users (id),
  uploaded_at   INTEGER NOT NULL
) STRICT;
INSERT INTO dispute_evidence_rebuilt SELECT id, business_id, dispute_id, r2_key, file_name, content_type, size, uploaded_by, uploaded_at FROM dispute_evidence;
DROP TABLE dispute_evidence;
ALTER TABLE dispute_evidence_rebuilt RENAME TO dispute_evidence;
CREATE INDEX dispute_evidence_by_dispute ON dispute_evidence (business_id, dispute_id, uploaded_at);
CREATE TRIGGER dispute_evidence_fence_insert BEFORE INSERT ON dispute_evidence WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER dispute_evidence_fence_update BEFORE UPDATE ON dispute_evidence WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
