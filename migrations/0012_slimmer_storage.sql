-- Bytes per payment (issue 13, point 1; docs/decisions/018-bytes-per-payment.md).
-- On the large seed the ledger's lines and their indexes were more than half the
-- file: every line repeated its posting's business id, posting id, memo, time and
-- payment, and named its account by a 30-odd character text id, in the row and
-- again in two indexes no query reads.
--
-- The ledger is now two tables: one row per posting (what its lines share) and one
-- narrow row per line (posting, account and amount, as integers). ledger_entries
-- becomes a view with the old columns, so every reader is unchanged, and its
-- INSTEAD OF INSERT trigger turns an inserted line into a posting (when it is the
-- first line of that posting) and a line: writers are unchanged too. A posting's
-- lines are always inserted one after another in one batch (functions/data/ledger.ts,
-- the seed), so "the same posting" is "the newest posting, with the same id".
--
-- Also gone: indexes no query uses (ledger_entries_by_account: balances read the
-- accounts' running sums since migration 0007; ledger_entries_by_posting; the
-- rollups' by-merchant index: reports by merchant read daily_merchant_totals),
-- the payments' index by channel and network (too unselective to pay for itself),
-- and the id repeated at the end of the transactions indexes (SQLite already ends
-- every index of a rowid table with the rowid, and orders by it).
PRAGMA defer_foreign_keys = true;

-- The accounts get an integer key for the lines to point at; the text id stays their name.
CREATE TABLE ledger_accounts_rebuilt (
  number      INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  business_id TEXT NOT NULL REFERENCES businesses (id),
  merchant_id TEXT REFERENCES merchants (id),
  kind        TEXT NOT NULL CHECK (kind IN (
    'merchant_pending',     -- a merchant's money not yet cleared
    'merchant_available',   -- a merchant's cleared money, ready to settle or transfer
    'fee_revenue',          -- the business's fees
    'scheme_receivable',    -- owed by the card schemes and mobile-money networks
    'settlement_payable')), -- paid out, in flight to settlement accounts
  entry_sum   INTEGER NOT NULL DEFAULT 0,
  CHECK ((kind IN ('merchant_pending', 'merchant_available')) = (merchant_id IS NOT NULL)),
  UNIQUE (business_id, kind, merchant_id)
) STRICT;
INSERT INTO ledger_accounts_rebuilt (id, business_id, merchant_id, kind, entry_sum)
  SELECT id, business_id, merchant_id, kind, entry_sum FROM ledger_accounts ORDER BY rowid;

-- What the lines of one posting share. posting_key is the posting id writers give (txn_<id>_payment, …).
CREATE TABLE ledger_postings (
  id             INTEGER PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  posting_key    TEXT NOT NULL,
  transaction_id INTEGER REFERENCES transactions (id),
  transfer_id    TEXT,
  settlement_id  TEXT,
  memo           TEXT NOT NULL,
  posted_at      INTEGER NOT NULL
) STRICT;

-- One line: which posting, which account, how much. The lines of a posting sum to zero. Keyed by posting, so
-- a posting's lines are read without an index of their own; id numbers the lines in the order they were written
-- (it grows with the posting, see the trigger). The account's reference follows the rename of ledger_accounts_rebuilt, below.
CREATE TABLE ledger_lines (
  posting INTEGER NOT NULL REFERENCES ledger_postings (id),
  id      INTEGER NOT NULL,
  account INTEGER NOT NULL REFERENCES ledger_accounts_rebuilt (number),
  amount  INTEGER NOT NULL CHECK (amount <> 0),
  PRIMARY KEY (posting, id)
) STRICT, WITHOUT ROWID;

-- The copy: postings in the order their first line was written, then the lines (same ids).
-- The key index is only for the copy's join; nothing reads postings by key afterwards.
INSERT INTO ledger_postings (business_id, posting_key, transaction_id, transfer_id, settlement_id, memo, posted_at)
  SELECT business_id, posting_id, transaction_id, transfer_id, settlement_id, memo, posted_at
  FROM ledger_entries GROUP BY business_id, posting_id ORDER BY min(id);
CREATE INDEX ledger_postings_copy_by_key ON ledger_postings (business_id, posting_key);
INSERT INTO ledger_lines (posting, id, account, amount)
  SELECT p.id, e.id, a.number, e.amount
  FROM ledger_entries e
  JOIN ledger_postings p ON p.business_id = e.business_id AND p.posting_key = e.posting_id
  JOIN ledger_accounts_rebuilt a ON a.id = e.account_id
  ORDER BY e.id;
DROP INDEX ledger_postings_copy_by_key;

DROP TABLE ledger_entries;
DROP TABLE ledger_accounts;
ALTER TABLE ledger_accounts_rebuilt RENAME TO ledger_accounts;
-- UNIQUE treats NULLs as distinct: one business-level account of each kind.
CREATE UNIQUE INDEX ledger_accounts_business_level ON ledger_accounts (business_id, kind) WHERE merchant_id IS NULL;

-- A payment's postings (its detail screen).
CREATE INDEX ledger_postings_by_transaction ON ledger_postings (transaction_id) WHERE transaction_id IS NOT NULL;

-- The lines as they always read. No aliases: a query plan names the real tables.
CREATE VIEW ledger_entries AS
  SELECT ledger_lines.id AS id, ledger_postings.business_id AS business_id, ledger_postings.posting_key AS posting_id,
    ledger_accounts.id AS account_id, ledger_lines.amount AS amount, ledger_postings.transaction_id AS transaction_id,
    ledger_postings.transfer_id AS transfer_id, ledger_postings.settlement_id AS settlement_id, ledger_postings.memo AS memo,
    ledger_postings.posted_at AS posted_at
  FROM ledger_lines
  JOIN ledger_postings ON ledger_postings.id = ledger_lines.posting
  JOIN ledger_accounts ON ledger_accounts.number = ledger_lines.account;

-- Writing a line: its posting first, unless the newest posting is this one (its earlier lines), then the line.
-- An account of another business is no account (NULL: the line is refused). A line without an id gets the next
-- one: ids grow with postings, so the largest is among the lines of the newest posting that has lines.
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

-- Reports by day and by merchant read daily_merchant_totals; the other dimensions read the rollups by day (their key).
DROP INDEX daily_rollups_by_merchant;

-- The same orders without the repeated id (the rowid ends every index of a rowid table).
DROP INDEX transactions_by_time;
DROP INDEX transactions_by_merchant;
DROP INDEX transactions_by_point_of_sale;
DROP INDEX transactions_by_terminal;
DROP INDEX transactions_by_status;
-- By channel and network: two channels and six networks, so newest first by time finds a page of any of them within
-- a few pages' rows; this index was the largest of the table's for the least selective filter.
DROP INDEX transactions_by_channel;
CREATE INDEX transactions_by_time ON transactions (business_id, created_at);
CREATE INDEX transactions_by_merchant ON transactions (business_id, merchant_id, created_at);
CREATE INDEX transactions_by_point_of_sale ON transactions (business_id, point_of_sale_id, created_at);
CREATE INDEX transactions_by_terminal ON transactions (business_id, terminal_id, created_at);
CREATE INDEX transactions_by_status ON transactions (business_id, status, created_at);
