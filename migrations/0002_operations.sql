-- The whole operational model of DESIGN.md section 6. Money is integer pesewas;
-- instants are UTC (ISO-8601 text for low-volume rows, epoch ms for the
-- million-row tables); every business row carries business_id, and every list
-- the screens use has an index that starts with it.

-- Rows the approvals engine changes carry a version, bumped on every change, so
-- a request made against an older version is detected as stale.
ALTER TABLE memberships ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
ALTER TABLE memberships ADD COLUMN updated_at TEXT;
CREATE INDEX memberships_by_business ON memberships (business_id, status, role);

CREATE TABLE merchants (
  id            TEXT PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  code          TEXT NOT NULL,
  name          TEXT NOT NULL CHECK (length(trim(name)) > 0),
  trading_name  TEXT NOT NULL CHECK (length(trim(trading_name)) > 0),
  -- Ghana TIN: a letter (P individual, C company, G government, Q other) and 10 digits.
  -- (D1 limits GLOB patterns to 50 characters, hence substr.)
  tin           TEXT NOT NULL CHECK (length(tin) = 11 AND substr(tin, 1, 1) IN ('P', 'C', 'G', 'Q') AND substr(tin, 2) NOT GLOB '*[^0-9]*'),
  sector        TEXT NOT NULL,
  town          TEXT NOT NULL,
  region        TEXT NOT NULL,
  address       TEXT NOT NULL,
  contact_name  TEXT NOT NULL,
  contact_phone TEXT NOT NULL CHECK (contact_phone GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  contact_email TEXT NOT NULL CHECK (contact_email LIKE '%_@_%._%'),
  status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  version       INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  UNIQUE (business_id, code),
  UNIQUE (business_id, tin)
) STRICT;
CREATE INDEX merchants_by_name ON merchants (business_id, name COLLATE NOCASE, id);
CREATE INDEX merchants_by_status ON merchants (business_id, status, name COLLATE NOCASE, id);
CREATE INDEX merchants_by_sector ON merchants (business_id, sector, name COLLATE NOCASE, id);
CREATE INDEX merchants_by_place ON merchants (business_id, region, town, name COLLATE NOCASE, id);
CREATE INDEX merchants_by_created ON merchants (business_id, created_at, id);
CREATE INDEX merchants_by_trading_name ON merchants (business_id, trading_name COLLATE NOCASE);
CREATE INDEX merchants_by_phone ON merchants (business_id, contact_phone);

-- A point of sale (branch) of a merchant.
CREATE TABLE points_of_sale (
  id            TEXT PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  merchant_id   TEXT NOT NULL REFERENCES merchants (id),
  name          TEXT NOT NULL CHECK (length(trim(name)) > 0),
  town          TEXT NOT NULL,
  region        TEXT NOT NULL,
  address       TEXT NOT NULL,
  contact_phone TEXT NOT NULL CHECK (contact_phone GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  version       INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  UNIQUE (merchant_id, name)
) STRICT;
CREATE INDEX points_of_sale_by_merchant ON points_of_sale (business_id, merchant_id, name COLLATE NOCASE, id);
CREATE INDEX points_of_sale_by_status ON points_of_sale (business_id, status, name COLLATE NOCASE, id);

CREATE TABLE terminals (
  id               TEXT PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  serial           TEXT NOT NULL UNIQUE CHECK (length(serial) BETWEEN 6 AND 32),
  model            TEXT NOT NULL,
  software_version TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('in_stock', 'assigned', 'active', 'blocked', 'faulty', 'retired')),
  merchant_id      TEXT REFERENCES merchants (id),
  point_of_sale_id TEXT REFERENCES points_of_sale (id),
  last_seen_at     INTEGER,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  version          INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  -- Assigned and active terminals stand at a point of sale; stock and retired ones do not.
  CHECK ((status IN ('assigned', 'active')) = (point_of_sale_id IS NOT NULL) OR status IN ('blocked', 'faulty')),
  CHECK ((merchant_id IS NULL) = (point_of_sale_id IS NULL))
) STRICT;
CREATE INDEX terminals_by_status ON terminals (business_id, status, serial);
CREATE INDEX terminals_by_serial ON terminals (business_id, serial);
CREATE INDEX terminals_by_merchant ON terminals (business_id, merchant_id, serial);
CREATE INDEX terminals_by_point_of_sale ON terminals (business_id, point_of_sale_id, serial);
CREATE INDEX terminals_by_last_seen ON terminals (business_id, last_seen_at);

CREATE TABLE terminal_assignments (
  id               INTEGER PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  terminal_id      TEXT NOT NULL REFERENCES terminals (id),
  point_of_sale_id TEXT NOT NULL REFERENCES points_of_sale (id),
  assigned_by      TEXT NOT NULL REFERENCES users (id),
  assigned_at      TEXT NOT NULL,
  unassigned_at    TEXT,
  CHECK (unassigned_at IS NULL OR unassigned_at >= assigned_at)
) STRICT;
CREATE INDEX terminal_assignments_by_terminal ON terminal_assignments (business_id, terminal_id, assigned_at);
-- At most one open assignment per terminal.
CREATE UNIQUE INDEX terminal_assignments_open ON terminal_assignments (terminal_id) WHERE unassigned_at IS NULL;

CREATE TABLE settlement_accounts (
  id             TEXT PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  merchant_id    TEXT NOT NULL REFERENCES merchants (id),
  kind           TEXT NOT NULL CHECK (kind IN ('bank', 'mobile_money')),
  -- The bank's name, or the mobile-money network.
  provider       TEXT NOT NULL CHECK (kind = 'bank' OR provider IN ('MTN', 'Telecel', 'AirtelTigo')),
  -- SPEC section 5: digits, optionally a hyphen and digits, 9 to 12 characters.
  account_number TEXT NOT NULL CHECK (length(account_number) BETWEEN 9 AND 12 AND account_number NOT GLOB '*[^0-9-]*' AND account_number NOT GLOB '-*' AND account_number NOT GLOB '*-' AND account_number NOT GLOB '*-*-*'),
  account_name   TEXT NOT NULL CHECK (length(trim(account_name)) > 0),
  is_primary     INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
  status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  version        INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
  UNIQUE (merchant_id, kind, provider, account_number)
) STRICT;
CREATE INDEX settlement_accounts_by_merchant ON settlement_accounts (business_id, merchant_id, status);
-- One primary active payout account per merchant.
CREATE UNIQUE INDEX settlement_accounts_one_primary ON settlement_accounts (merchant_id) WHERE is_primary = 1 AND status = 'active';

-- Maker-checker: a requested change, applied only when a second person approves it.
CREATE TABLE approval_requests (
  id             TEXT PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  kind           TEXT NOT NULL CHECK (kind IN ('employee', 'merchant', 'point_of_sale', 'settlement_account', 'transfer')),
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
CREATE INDEX approval_requests_queue ON approval_requests (business_id, status, made_at, id);
CREATE INDEX approval_requests_by_kind ON approval_requests (business_id, kind, status, made_at, id);
CREATE INDEX approval_requests_by_maker ON approval_requests (business_id, maker_id, status, made_at);
CREATE INDEX approval_requests_by_target ON approval_requests (business_id, kind, target_id, status);
-- One pending request per target at a time.
CREATE UNIQUE INDEX approval_requests_one_pending ON approval_requests (kind, target_id) WHERE status = 'pending';

-- Card and mobile-money payments. A million rows: integer keys, epoch ms.
CREATE TABLE transactions (
  id               INTEGER PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  reference        TEXT NOT NULL UNIQUE,
  merchant_id      TEXT NOT NULL REFERENCES merchants (id),
  point_of_sale_id TEXT NOT NULL REFERENCES points_of_sale (id),
  terminal_id      TEXT REFERENCES terminals (id),
  channel          TEXT NOT NULL CHECK (channel IN ('card', 'mobile_money')),
  -- The mobile-money network, or the card scheme.
  network          TEXT NOT NULL CHECK (
    (channel = 'mobile_money' AND network IN ('MTN', 'Telecel', 'AirtelTigo')) OR
    (channel = 'card' AND network IN ('VISA', 'MASTERCARD', 'GHLINK'))),
  amount           INTEGER NOT NULL CHECK (amount > 0),
  fee              INTEGER NOT NULL CHECK (fee >= 0 AND fee <= amount),
  status           TEXT NOT NULL CHECK (status IN ('successful', 'failed', 'reversed')),
  -- Cards are kept as BIN and last four only; never a full number.
  card_bin         TEXT CHECK (card_bin IS NULL OR card_bin GLOB '[0-9][0-9][0-9][0-9][0-9][0-9]'),
  card_last4       TEXT CHECK (card_last4 IS NULL OR card_last4 GLOB '[0-9][0-9][0-9][0-9]'),
  customer_msisdn  TEXT CHECK (customer_msisdn IS NULL OR customer_msisdn GLOB '233[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  created_at       INTEGER NOT NULL,
  -- When the money became available to the merchant (null: not yet, or never).
  cleared_at       INTEGER CHECK (cleared_at IS NULL OR cleared_at >= created_at),
  CHECK ((channel = 'card') = (card_bin IS NOT NULL AND card_last4 IS NOT NULL)),
  CHECK ((channel = 'mobile_money') = (customer_msisdn IS NOT NULL)),
  CHECK (status = 'successful' OR cleared_at IS NULL)
) STRICT;
CREATE INDEX transactions_by_time ON transactions (business_id, created_at, id);
CREATE INDEX transactions_by_merchant ON transactions (business_id, merchant_id, created_at, id);
CREATE INDEX transactions_by_point_of_sale ON transactions (business_id, point_of_sale_id, created_at, id);
CREATE INDEX transactions_by_terminal ON transactions (business_id, terminal_id, created_at, id);
CREATE INDEX transactions_by_status ON transactions (business_id, status, created_at, id);
CREATE INDEX transactions_by_channel ON transactions (business_id, channel, network, created_at, id);
CREATE INDEX transactions_by_last4 ON transactions (business_id, card_last4, created_at) WHERE card_last4 IS NOT NULL;
CREATE INDEX transactions_by_msisdn ON transactions (business_id, customer_msisdn, created_at) WHERE customer_msisdn IS NOT NULL;

-- Double-entry ledger. Balances are sums of entries, never stored alone.
CREATE TABLE ledger_accounts (
  id          TEXT PRIMARY KEY,
  business_id TEXT NOT NULL REFERENCES businesses (id),
  merchant_id TEXT REFERENCES merchants (id),
  kind        TEXT NOT NULL CHECK (kind IN (
    'merchant_pending',     -- a merchant's money not yet cleared
    'merchant_available',   -- a merchant's cleared money, ready to settle or transfer
    'fee_revenue',          -- the business's fees
    'scheme_receivable',    -- owed by the card schemes and mobile-money networks
    'settlement_payable')), -- paid out, in flight to settlement accounts
  CHECK ((kind IN ('merchant_pending', 'merchant_available')) = (merchant_id IS NOT NULL)),
  UNIQUE (business_id, kind, merchant_id)
) STRICT;
-- UNIQUE treats NULLs as distinct: one business-level account of each kind.
CREATE UNIQUE INDEX ledger_accounts_business_level ON ledger_accounts (business_id, kind) WHERE merchant_id IS NULL;

CREATE TABLE ledger_entries (
  id             INTEGER PRIMARY KEY,
  business_id    TEXT NOT NULL REFERENCES businesses (id),
  -- The lines of one posting share its id and sum to zero.
  posting_id     TEXT NOT NULL,
  account_id     TEXT NOT NULL REFERENCES ledger_accounts (id),
  amount         INTEGER NOT NULL CHECK (amount <> 0),
  transaction_id INTEGER REFERENCES transactions (id),
  transfer_id    TEXT,
  settlement_id  TEXT,
  memo           TEXT NOT NULL,
  posted_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_entries_by_account ON ledger_entries (business_id, account_id, posted_at);
CREATE INDEX ledger_entries_by_posting ON ledger_entries (posting_id);
CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id) WHERE transaction_id IS NOT NULL;

CREATE TABLE transfers (
  id                        TEXT PRIMARY KEY,
  business_id               TEXT NOT NULL REFERENCES businesses (id),
  from_merchant_id          TEXT NOT NULL REFERENCES merchants (id),
  to_settlement_account_id  TEXT REFERENCES settlement_accounts (id),
  to_merchant_id            TEXT REFERENCES merchants (id),
  amount                    INTEGER NOT NULL CHECK (amount > 0),
  status                    TEXT NOT NULL CHECK (status IN ('pending_approval', 'rejected', 'completed', 'failed')),
  idempotency_key           TEXT NOT NULL,
  requested_by              TEXT NOT NULL REFERENCES users (id),
  approved_by               TEXT REFERENCES users (id),
  created_at                TEXT NOT NULL,
  decided_at                TEXT,
  CHECK ((to_settlement_account_id IS NULL) <> (to_merchant_id IS NULL)),
  CHECK (to_merchant_id IS NULL OR to_merchant_id <> from_merchant_id),
  CHECK (approved_by IS NULL OR approved_by <> requested_by),
  UNIQUE (business_id, idempotency_key)
) STRICT;
CREATE INDEX transfers_by_merchant ON transfers (business_id, from_merchant_id, created_at);
CREATE INDEX transfers_to_merchant ON transfers (business_id, to_merchant_id, created_at) WHERE to_merchant_id IS NOT NULL;

CREATE TABLE settlements (
  id                    TEXT PRIMARY KEY,
  business_id           TEXT NOT NULL REFERENCES businesses (id),
  merchant_id           TEXT NOT NULL REFERENCES merchants (id),
  settlement_account_id TEXT NOT NULL REFERENCES settlement_accounts (id),
  period_start          INTEGER NOT NULL,
  period_end            INTEGER NOT NULL CHECK (period_end > period_start),
  gross                 INTEGER NOT NULL CHECK (gross >= 0),
  fees                  INTEGER NOT NULL CHECK (fees >= 0 AND fees <= gross),
  net                   INTEGER NOT NULL CHECK (net = gross - fees),
  status                TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'failed')),
  reference             TEXT NOT NULL UNIQUE,
  attempts              INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at            TEXT NOT NULL,
  paid_at               TEXT,
  CHECK ((status = 'paid') = (paid_at IS NOT NULL)),
  UNIQUE (merchant_id, period_start)
) STRICT;
CREATE INDEX settlements_by_time ON settlements (business_id, period_start, id);
CREATE INDEX settlements_by_merchant ON settlements (business_id, merchant_id, period_start);
CREATE INDEX settlements_by_status ON settlements (business_id, status, period_start);

-- Which transactions a settlement paid: a transaction is paid at most once.
CREATE TABLE settlement_items (
  settlement_id  TEXT NOT NULL REFERENCES settlements (id),
  transaction_id INTEGER NOT NULL UNIQUE REFERENCES transactions (id),
  PRIMARY KEY (settlement_id, transaction_id)
) STRICT, WITHOUT ROWID;

-- Reports read these, never the transactions table: one row per day and dimension.
CREATE TABLE daily_rollups (
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  day              TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  merchant_id      TEXT NOT NULL,
  point_of_sale_id TEXT NOT NULL,
  terminal_id      TEXT NOT NULL, -- '' for payments without a terminal
  channel          TEXT NOT NULL CHECK (channel IN ('card', 'mobile_money')),
  network          TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('successful', 'failed', 'reversed')),
  count            INTEGER NOT NULL CHECK (count > 0),
  amount           INTEGER NOT NULL CHECK (amount >= 0),
  fee              INTEGER NOT NULL CHECK (fee >= 0),
  PRIMARY KEY (business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status)
) STRICT, WITHOUT ROWID;
CREATE INDEX daily_rollups_by_merchant ON daily_rollups (business_id, merchant_id, day);

-- Who did what, when, from where; written in the same batch as the change.
CREATE TABLE audit_log (
  id          INTEGER PRIMARY KEY,
  business_id TEXT REFERENCES businesses (id),
  actor_id    TEXT REFERENCES users (id),
  action      TEXT NOT NULL,
  entity      TEXT NOT NULL,
  entity_id   TEXT,
  before_json TEXT CHECK (before_json IS NULL OR json_valid(before_json)),
  after_json  TEXT CHECK (after_json IS NULL OR json_valid(after_json)),
  ip          TEXT,
  user_agent  TEXT,
  request_id  TEXT,
  created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_by_entity ON audit_log (business_id, entity, entity_id, id);
CREATE INDEX audit_log_by_time ON audit_log (business_id, id);
CREATE INDEX audit_log_by_actor ON audit_log (business_id, actor_id, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- Sign-in state (filled by the sign-in issue).
CREATE TABLE sessions (
  id             TEXT PRIMARY KEY,
  user_id        TEXT NOT NULL REFERENCES users (id),
  channel        TEXT NOT NULL CHECK (channel IN ('microsoft', 'google', 'userUniqueEmail')),
  stage          TEXT NOT NULL CHECK (stage IN ('identified', 'verified', 'business_chosen')),
  business_id    TEXT REFERENCES businesses (id),
  ip             TEXT,
  user_agent     TEXT,
  created_at     TEXT NOT NULL,
  expires_at     TEXT NOT NULL,
  revoked_at     TEXT
) STRICT;
CREATE INDEX sessions_by_user ON sessions (user_id, revoked_at);

CREATE TABLE otp_challenges (
  id          TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id),
  user_id     TEXT NOT NULL REFERENCES users (id),
  msisdn      TEXT NOT NULL,
  code_hmac   TEXT NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  consumed_at TEXT
) STRICT;
CREATE INDEX otp_challenges_by_phone ON otp_challenges (msisdn, created_at);
CREATE INDEX otp_challenges_by_user ON otp_challenges (user_id, created_at);

-- Development only: one-time codes "sent" by SMS, shown at /__dev/outbox.
CREATE TABLE dev_outbox (
  id         INTEGER PRIMARY KEY,
  to_msisdn  TEXT NOT NULL,
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

-- Analytics: exact de-duplication of relayed events, and local storage when no endpoint is set.
CREATE TABLE analytics_seen (
  hash        TEXT PRIMARY KEY,
  received_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE analytics_events (
  id          INTEGER PRIMARY KEY,
  hash        TEXT NOT NULL UNIQUE,
  event_json  TEXT NOT NULL CHECK (json_valid(event_json)),
  received_at TEXT NOT NULL
) STRICT;

-- A change the approvals engine applies in one batch starts with a guard row:
-- inserting ok = 0 (the target moved on, the request was decided meanwhile)
-- fails the CHECK and rolls the whole batch back. The batch deletes it at its end.
CREATE TABLE batch_guards (
  id     INTEGER PRIMARY KEY,
  ok     INTEGER NOT NULL CHECK (ok = 1),
  reason TEXT NOT NULL
) STRICT;
