-- A transfer to a merchant's own settlement account is paid out as a settlement (docs/decisions/052-transfer-payouts.md):
-- its approval writes a settlements row with the transfer's id, so the one payout engine (claim, rail, callback, poll,
-- retry, settlement.paid / settlement.failed) sends it, and the Settlement History lists it with the day's payouts.
-- Before, the approval moved the money to settlement_payable and nothing ever paid it out.
--
-- Such a settlement covers no period of payments: its period starts and ends at the approval, its fees are 0. The table
-- is rebuilt because SQLite cannot change a CHECK or drop a table's UNIQUE: "one settlement per merchant and day"
-- becomes a unique index over the daily run's settlements only, so two transfers of one merchant approved in the same
-- millisecond (a bulk decision) are two payouts.
--
-- D1 keeps foreign keys on (defer_foreign_keys only moves the check to the commit), and dropping a table whose rows
-- others point at (payout_attempts, settlement_items) counts each of those as a violation that a row copied into the
-- new table before the drop does not clear: the rows are kept aside, the old table dropped, the new one renamed in
-- its place, and only then are the rows put back, each clearing the violations it had caused
-- (tests/integration/transfer-payouts-migration.test.ts runs this on a database with settlements and attempts).
PRAGMA defer_foreign_keys = true;

CREATE TABLE settlements_kept AS SELECT * FROM settlements;

CREATE TABLE settlements_rebuilt (
  id                    TEXT PRIMARY KEY,
  business_id           TEXT NOT NULL REFERENCES businesses (id),
  merchant_id           TEXT NOT NULL REFERENCES merchants (id),
  settlement_account_id TEXT NOT NULL REFERENCES settlement_accounts (id),
  -- The transfer this pays out; null for the daily run's settlements.
  transfer_id           TEXT UNIQUE REFERENCES transfers (id),
  period_start          INTEGER NOT NULL,
  period_end            INTEGER NOT NULL,
  gross                 INTEGER NOT NULL CHECK (gross >= 0),
  fees                  INTEGER NOT NULL CHECK (fees >= 0 AND fees <= gross),
  net                   INTEGER NOT NULL CHECK (net = gross - fees),
  status                TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
  reference             TEXT NOT NULL UNIQUE,
  attempts              INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at            TEXT NOT NULL,
  paid_at               TEXT,
  payout_lease_until    TEXT,
  rail                  TEXT,
  rail_reference        TEXT,
  rail_status           TEXT,
  rail_waiting_since    TEXT,
  CHECK ((status = 'paid') = (paid_at IS NOT NULL)),
  CHECK (CASE WHEN transfer_id IS NULL THEN period_end > period_start ELSE period_end = period_start AND fees = 0 AND net > 0 END)
) STRICT;

DROP TABLE settlements;
ALTER TABLE settlements_rebuilt RENAME TO settlements;

INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, transfer_id, period_start, period_end, gross, fees, net,
    status, reference, attempts, created_at, paid_at, payout_lease_until, rail, rail_reference, rail_status, rail_waiting_since)
  SELECT id, business_id, merchant_id, settlement_account_id, NULL, period_start, period_end, gross, fees, net,
    status, reference, attempts, created_at, paid_at, payout_lease_until, rail, rail_reference, rail_status, rail_waiting_since
  FROM settlements_kept;
DROP TABLE settlements_kept;

CREATE UNIQUE INDEX settlements_one_a_day ON settlements (merchant_id, period_start) WHERE transfer_id IS NULL;
CREATE INDEX settlements_by_time ON settlements (business_id, period_start, id);
CREATE INDEX settlements_by_merchant ON settlements (business_id, merchant_id, period_start);
CREATE INDEX settlements_by_status ON settlements (business_id, status, period_start);
CREATE INDEX settlements_waiting_on_rail ON settlements (business_id, rail_waiting_since) WHERE rail_waiting_since IS NOT NULL;
CREATE INDEX settlements_by_created ON settlements (business_id, created_at, id);
CREATE INDEX settlements_by_status_created ON settlements (business_id, status, created_at, id);
CREATE TRIGGER settlements_fence_insert BEFORE INSERT ON settlements WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER settlements_fence_update BEFORE UPDATE ON settlements WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;

-- Transfers approved before this migration, whose money waits in settlement_payable: each gets its payout, pending, so
-- the next payout run sends it. The reference is the one functions/settlement/transfer-payouts.ts gives.
INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, transfer_id, period_start, period_end, gross, fees, net,
    status, reference, attempts, created_at)
  SELECT 'stl_' || substr(t.id, 5), t.business_id, t.from_merchant_id, t.to_settlement_account_id, t.id,
    CAST(round((julianday(t.decided_at) - 2440587.5) * 86400000) AS INTEGER), CAST(round((julianday(t.decided_at) - 2440587.5) * 86400000) AS INTEGER),
    t.amount, 0, t.amount, 'pending', 'TRF-' || m.code || '-' || upper(substr(replace(substr(t.id, 5), '-', ''), 1, 16)), 0, t.decided_at
  FROM transfers t JOIN merchants m ON m.id = t.from_merchant_id AND m.business_id = t.business_id
  WHERE t.status = 'completed' AND t.to_settlement_account_id IS NOT NULL AND t.decided_at IS NOT NULL;
