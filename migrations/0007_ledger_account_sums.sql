-- Each ledger account carries the sum of its entries, kept in the same batch as
-- every posting (functions/data/ledger.ts), so a balance is one row to read, not
-- a sum over every entry the account ever had (a busy merchant has hundreds of
-- thousands). The entries stay the truth: a test compares the two.
ALTER TABLE ledger_accounts ADD COLUMN entry_sum INTEGER NOT NULL DEFAULT 0;
UPDATE ledger_accounts SET entry_sum = coalesce(
  (SELECT SUM(e.amount) FROM ledger_entries e WHERE e.business_id = ledger_accounts.business_id AND e.account_id = ledger_accounts.id), 0);
