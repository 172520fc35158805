-- Businesses over several D1 databases (issue 13, decision 021). Every database (the core DB and each shard)
-- gets every migration, so the schema is one; what a database holds differs:
--   core (DB): sign-in (users, user_phones, sessions, one-time codes), every business with a copy of its
--     memberships (the business choice reads them), the directory below, the API key directory, analytics.
--   a shard (SHARD_*): the operational rows of the businesses the directory places on it, with a copy of
--     each business's row and of its members' users and phones (the shard's own queries join them).

-- Which database holds each business's rows. Read with the session (one query) and by every job.
CREATE TABLE business_shards (
  business_id TEXT PRIMARY KEY,
  shard       TEXT NOT NULL CHECK (shard GLOB '[A-Z]*' AND shard NOT GLOB '*[^A-Z0-9_]*'),
  -- While a move runs: the database being filled (the business is read-only meanwhile).
  moving_to   TEXT CHECK (moving_to IS NULL OR (moving_to GLOB '[A-Z]*' AND moving_to NOT GLOB '*[^A-Z0-9_]*')),
  updated_at  TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX business_shards_by_shard ON business_shards (shard, business_id);

-- A database that existed before shards holds every business itself: the directory says so, and
-- `npm run shard:move` moves them out one at a time. (On a shard, businesses is empty when this runs.)
INSERT INTO business_shards (business_id, shard, updated_at) SELECT id, 'DB', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM businesses;

-- The Partner API finds a key's business before it knows the database: hash to business. The key
-- itself (revoked, expiry) stays with the business; an entry whose key is gone reads as no key.
CREATE TABLE api_key_directory (
  secret_hash TEXT PRIMARY KEY,
  business_id TEXT NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO api_key_directory (secret_hash, business_id) SELECT secret_hash, business_id FROM api_keys;

-- On a shard: a business being moved away ('moving') or gone ('moved'). Every write of its rows fails
-- here, in the database itself, whatever code sends it: nothing can land on a copy that is being taken
-- or was left behind. The message is how the Worker knows to say "try again shortly".
CREATE TABLE shard_fences (
  business_id TEXT PRIMARY KEY,
  state       TEXT NOT NULL CHECK (state IN ('moving', 'moved')),
  since       TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TRIGGER memberships_fence_insert BEFORE INSERT ON memberships WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER memberships_fence_update BEFORE UPDATE ON memberships WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER merchants_fence_insert BEFORE INSERT ON merchants WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER merchants_fence_update BEFORE UPDATE ON merchants WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER points_of_sale_fence_insert BEFORE INSERT ON points_of_sale WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER points_of_sale_fence_update BEFORE UPDATE ON points_of_sale WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER terminals_fence_insert BEFORE INSERT ON terminals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER terminals_fence_update BEFORE UPDATE ON terminals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER terminal_assignments_fence_insert BEFORE INSERT ON terminal_assignments WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER terminal_assignments_fence_update BEFORE UPDATE ON terminal_assignments WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER settlement_accounts_fence_insert BEFORE INSERT ON settlement_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER settlement_accounts_fence_update BEFORE UPDATE ON settlement_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER approval_requests_fence_insert BEFORE INSERT ON approval_requests WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER approval_requests_fence_update BEFORE UPDATE ON approval_requests WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ledger_accounts_fence_insert BEFORE INSERT ON ledger_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ledger_accounts_fence_update BEFORE UPDATE ON ledger_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ledger_postings_fence_insert BEFORE INSERT ON ledger_postings WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ledger_postings_fence_update BEFORE UPDATE ON ledger_postings WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER transfers_fence_insert BEFORE INSERT ON transfers WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER transfers_fence_update BEFORE UPDATE ON transfers WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER settlements_fence_insert BEFORE INSERT ON settlements WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER settlements_fence_update BEFORE UPDATE ON settlements WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER daily_rollups_fence_insert BEFORE INSERT ON daily_rollups WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER daily_rollups_fence_update BEFORE UPDATE ON daily_rollups WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER audit_log_fence_insert BEFORE INSERT ON audit_log WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER audit_log_fence_update BEFORE UPDATE ON audit_log WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER payout_attempts_fence_insert BEFORE INSERT ON payout_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER payout_attempts_fence_update BEFORE UPDATE ON payout_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER daily_merchant_totals_fence_insert BEFORE INSERT ON daily_merchant_totals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER daily_merchant_totals_fence_update BEFORE UPDATE ON daily_merchant_totals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER transactions_fence_insert BEFORE INSERT ON transactions WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER transactions_fence_update BEFORE UPDATE ON transactions WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER api_keys_fence_insert BEFORE INSERT ON api_keys WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER api_keys_fence_update BEFORE UPDATE ON api_keys WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER api_idempotency_fence_insert BEFORE INSERT ON api_idempotency WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER api_idempotency_fence_update BEFORE UPDATE ON api_idempotency WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER payment_conflicts_fence_insert BEFORE INSERT ON payment_conflicts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER payment_conflicts_fence_update BEFORE UPDATE ON payment_conflicts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER pending_reversals_fence_insert BEFORE INSERT ON pending_reversals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER pending_reversals_fence_update BEFORE UPDATE ON pending_reversals WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_endpoints_fence_insert BEFORE INSERT ON webhook_endpoints WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_endpoints_fence_update BEFORE UPDATE ON webhook_endpoints WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_events_fence_insert BEFORE INSERT ON webhook_events WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_events_fence_update BEFORE UPDATE ON webhook_events WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_deliveries_fence_insert BEFORE INSERT ON webhook_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_deliveries_fence_update BEFORE UPDATE ON webhook_deliveries WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_attempts_fence_insert BEFORE INSERT ON webhook_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER webhook_attempts_fence_update BEFORE UPDATE ON webhook_attempts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;

-- The audit log stays append-only, but a business's copy left behind on a shard it moved away from is removed.
DROP TRIGGER audit_log_no_delete;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN NOT EXISTS (SELECT 1 FROM shard_fences WHERE business_id = OLD.business_id AND state = 'moved')
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
