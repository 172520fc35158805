-- Two ledger accounts for money going back (issue 14; docs/decisions/006-ledger.md):
--   merchant_held   a merchant's money held while a dispute is open: neither transferable nor settled
--   refund_payable  refunds approved and sent to the processor, not yet confirmed back to the payer
-- A CHECK cannot be altered in SQLite, so the accounts table is rebuilt with the same rows and numbers
-- (the lines point at the numbers), and the view, trigger and fences that name it are made again.
PRAGMA defer_foreign_keys = true;

DROP TRIGGER ledger_entries_insert;
DROP VIEW ledger_entries;

CREATE TABLE ledger_accounts_rebuilt (
  number      INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  business_id TEXT NOT NULL REFERENCES businesses (id),
  merchant_id TEXT REFERENCES merchants (id),
  kind        TEXT NOT NULL CHECK (kind IN (
    'merchant_pending',     -- a merchant's money not yet cleared
    'merchant_available',   -- a merchant's cleared money, ready to settle or transfer
    'merchant_held',        -- a merchant's money held by an open dispute
    'fee_revenue',          -- the business's fees
    'scheme_receivable',    -- owed by the card schemes and mobile-money networks
    'settlement_payable',   -- paid out, in flight to settlement accounts
    'refund_payable')),     -- refunds sent to the processor, not yet confirmed to the payer
  entry_sum   INTEGER NOT NULL DEFAULT 0,
  CHECK ((kind IN ('merchant_pending', 'merchant_available', 'merchant_held')) = (merchant_id IS NOT NULL)),
  UNIQUE (business_id, kind, merchant_id)
) STRICT;
INSERT INTO ledger_accounts_rebuilt (number, id, business_id, merchant_id, kind, entry_sum)
  SELECT number, id, business_id, merchant_id, kind, entry_sum FROM ledger_accounts ORDER BY number;
DROP TABLE ledger_accounts;
ALTER TABLE ledger_accounts_rebuilt RENAME TO ledger_accounts;
CREATE UNIQUE INDEX ledger_accounts_business_level ON ledger_accounts (business_id, kind) WHERE merchant_id IS NULL;

CREATE TRIGGER ledger_accounts_fence_insert BEFORE INSERT ON ledger_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;
CREATE TRIGGER ledger_accounts_fence_update BEFORE UPDATE ON ledger_accounts WHEN EXISTS (SELECT 1 FROM shard_fences WHERE business_id = NEW.business_id) BEGIN SELECT RAISE(ABORT, 'business_moving'); END;

-- As migration 0012 made them.
CREATE VIEW ledger_entries AS
  SELECT ledger_lines.id AS id, ledger_postings.business_id AS business_id, ledger_postings.posting_key AS posting_id,
    ledger_accounts.id AS account_id, ledger_lines.amount AS amount, ledger_postings.transaction_id AS transaction_id,
    ledger_postings.transfer_id AS transfer_id, ledger_postings.settlement_id AS settlement_id, ledger_postings.memo AS memo,
    ledger_postings.posted_at AS posted_at
  FROM ledger_lines
  JOIN ledger_postings ON ledger_postings.id = ledger_lines.posting
  JOIN ledger_accounts ON ledger_accounts.number = ledger_lines.account;

CREATE TRIGGER ledger_entries_insert INSTEAD OF INSERT ON ledger_entries BEGIN
  INSERT INTO ledger_postings (business_id, posting_key, transaction_id, transfer_id, settlement_id, memo, posted_at)
    SELECT NEW.business_id, NEW.posting_id, NEW.transaction_id, NEW.transfer_id, NEW.settlement_id, NEW.memo, NEW.posted_at
    WHERE NOT EXISTS (
      SELECT 1 FROM ledger_postings p
      WHERE p.id = (SELECT max(id) FROM ledger_postings) AND p.business_id = NEW.business_id AND p.posting_key = NEW.posting_id);
  INSERT INTO ledger_lines (posting, id, account, amount)
    VALUES ((SELECT max(id) FROM ledger_postings),
      coalesce(NEW.id, (SELECT coalesce(max(l.id), 0) + 1 FROM ledger_lines l WHERE l.posting = (SELECT max(posting) FROM ledger_lines))),
      (SELECT a.number FROM ledger_accounts a WHERE a.id = NEW.account_id AND a.business_id = NEW.business_id), NEW.amount);
END;
