-- The cold archive (issue 13, docs/decisions/019-cold-archive.md): payments and
-- their ledger entries older than ARCHIVE_RETENTION_MONTHS go to R2 (ARCHIVE),
-- one gzipped NDJSON object per business per month. D1 remembers which months
-- are there, with the manifest's numbers, and how to find a payment in them.

-- One archived month of one business. A row is written only after the object was
-- read back and matched what D1 held; the month's rows are deleted after it
-- ('deleting'), and it becomes 'archived' when none is left. Rows of the month
-- with an id above max_id were not in the object and are never deleted.
CREATE TABLE archive_months (
  id               INTEGER PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  month            TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
  object_key       TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('deleting', 'archived')),
  payments         INTEGER NOT NULL CHECK (payments > 0),
  -- Successful payments only, as the transactions screen's totals.
  successful       INTEGER NOT NULL CHECK (successful >= 0),
  gross            INTEGER NOT NULL CHECK (gross >= 0),
  fees             INTEGER NOT NULL CHECK (fees >= 0),
  -- Every payment's amount and fee, whatever its status (the verification's sums).
  amount_sum       INTEGER NOT NULL,
  fee_sum          INTEGER NOT NULL,
  entries          INTEGER NOT NULL CHECK (entries >= 0),
  -- The sum of the entries' debits (the credits are the same, negated).
  entry_debits     INTEGER NOT NULL CHECK (entry_debits >= 0),
  settlement_items INTEGER NOT NULL CHECK (settlement_items >= 0),
  max_id           INTEGER NOT NULL,
  bytes            INTEGER NOT NULL CHECK (bytes > 0),
  sha256           TEXT NOT NULL CHECK (length(sha256) = 64),
  archived_at      INTEGER NOT NULL,
  UNIQUE (business_id, month)
) STRICT;

-- Find-by-reference without opening every month: the first 48 bits of
-- SHA-256(reference), and the month it is in (about 20 bytes a payment; a
-- collision only opens a month that does not hold it).
CREATE TABLE archive_references (
  ref_hash INTEGER NOT NULL,
  month_id INTEGER NOT NULL REFERENCES archive_months (id),
  PRIMARY KEY (ref_hash, month_id)
) STRICT, WITHOUT ROWID;

-- The archived entries' sum per ledger account: ledger_accounts.entry_sum stays
-- the balance, and equals the entries in D1 plus these (tests/support/ledger.ts).
CREATE TABLE archive_account_sums (
  month_id   INTEGER NOT NULL REFERENCES archive_months (id),
  account_id TEXT NOT NULL,
  entries    INTEGER NOT NULL CHECK (entries > 0),
  amount     INTEGER NOT NULL,
  PRIMARY KEY (month_id, account_id)
) STRICT, WITHOUT ROWID;
