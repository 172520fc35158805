-- The Partner API (issue 12): processors push payments, reversals and terminal
-- heartbeats through /api/v1 with a business's API key; a queue consumer writes
-- them (functions/api/, functions/data/ingest.ts).

-- A processor's reference is unique within a business, not across the portal
-- (two processors may well use the same numbering). SQLite cannot drop a table
-- constraint, so the table is rebuilt: same rows, same ids, the same indexes.
-- The rebuild also lets a cleared payment be reversed (it keeps cleared_at, so
-- the reversal is known to come out of available money) and adds what the API
-- carries: the failure reason, the reversal's reason and time, and a fingerprint
-- of the payment as the processor sent it (a re-send with other content is a
-- conflict, not a duplicate).
PRAGMA defer_foreign_keys = true;

CREATE TABLE transactions_rebuilt (
  id               INTEGER PRIMARY KEY,
  business_id      TEXT NOT NULL REFERENCES businesses (id),
  reference        TEXT NOT NULL,
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
  failure_reason   TEXT CHECK (failure_reason IS NULL OR length(failure_reason) BETWEEN 1 AND 200),
  reversed_at      INTEGER,
  reversal_reason  TEXT CHECK (reversal_reason IS NULL OR length(reversal_reason) BETWEEN 1 AND 200),
  -- SHA-256 of the payment as the processor sent it (API payments only).
  fingerprint      TEXT,
  CHECK ((channel = 'card') = (card_bin IS NOT NULL AND card_last4 IS NOT NULL)),
  CHECK ((channel = 'mobile_money') = (customer_msisdn IS NOT NULL)),
  -- A failed payment never cleared; a reversed one may have (its money then came back out of available).
  CHECK (status <> 'failed' OR cleared_at IS NULL),
  CHECK (failure_reason IS NULL OR status = 'failed'),
  CHECK (reversal_reason IS NULL OR status = 'reversed'),
  UNIQUE (business_id, reference)
) STRICT;

INSERT INTO transactions_rebuilt (id, business_id, reference, merchant_id, point_of_sale_id, terminal_id, channel, network, amount, fee, status,
  card_bin, card_last4, customer_msisdn, created_at, cleared_at)
SELECT id, business_id, reference, merchant_id, point_of_sale_id, terminal_id, channel, network, amount, fee, status,
  card_bin, card_last4, customer_msisdn, created_at, cleared_at
FROM transactions;

DROP TABLE transactions;
ALTER TABLE transactions_rebuilt RENAME TO transactions;

CREATE INDEX transactions_by_time ON transactions (business_id, created_at, id);
CREATE INDEX transactions_by_merchant ON transactions (business_id, merchant_id, created_at, id);
CREATE INDEX transactions_by_point_of_sale ON transactions (business_id, point_of_sale_id, created_at, id);
CREATE INDEX transactions_by_terminal ON transactions (business_id, terminal_id, created_at, id);
CREATE INDEX transactions_by_status ON transactions (business_id, status, created_at, id);
CREATE INDEX transactions_by_channel ON transactions (business_id, channel, network, created_at, id);
CREATE INDEX transactions_by_last4 ON transactions (business_id, card_last4, created_at) WHERE card_last4 IS NOT NULL;
CREATE INDEX transactions_by_msisdn ON transactions (business_id, customer_msisdn, created_at) WHERE customer_msisdn IS NOT NULL;

-- A business's API keys. Only a SHA-256 of the key is kept; the key is shown
-- once, when made. The prefix (the key's first characters) names it in lists.
-- A rolled key keeps working until expires_at (24 h); a revoked one stops at once.
CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  business_id  TEXT NOT NULL REFERENCES businesses (id),
  name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
  prefix       TEXT NOT NULL,
  secret_hash  TEXT NOT NULL UNIQUE CHECK (length(secret_hash) = 64),
  created_by   TEXT REFERENCES users (id),
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  expires_at   INTEGER,
  rolled_to    TEXT REFERENCES api_keys (id),
  revoked_at   INTEGER,
  revoked_by   TEXT REFERENCES users (id),
  CHECK ((rolled_to IS NULL) = (expires_at IS NULL))
) STRICT;
CREATE INDEX api_keys_by_business ON api_keys (business_id, created_at);

-- Idempotency-Key: a request re-sent with the same key gets the first answer;
-- the same key with another request is refused (409). Kept for a day.
CREATE TABLE api_idempotency (
  business_id     TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash    TEXT NOT NULL,
  status          INTEGER NOT NULL,
  body            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  PRIMARY KEY (business_id, idempotency_key)
) STRICT, WITHOUT ROWID;
CREATE INDEX api_idempotency_by_created ON api_idempotency (created_at);

-- A reference re-sent with other content, kept aside for an administrator;
-- the payment the portal holds is not changed. One row per distinct content.
CREATE TABLE payment_conflicts (
  id           INTEGER PRIMARY KEY,
  business_id  TEXT NOT NULL REFERENCES businesses (id),
  reference    TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('payment', 'reversal')),
  problem      TEXT NOT NULL,
  received     TEXT NOT NULL CHECK (json_valid(received)),
  fingerprint  TEXT NOT NULL,
  received_at  INTEGER NOT NULL,
  UNIQUE (business_id, reference, kind, fingerprint)
) STRICT;
CREATE INDEX payment_conflicts_by_time ON payment_conflicts (business_id, received_at, id);

-- A reversal that arrived before its payment waits here; the payment's batch applies it.
CREATE TABLE pending_reversals (
  business_id TEXT NOT NULL,
  reference   TEXT NOT NULL,
  reason      TEXT NOT NULL,
  reversed_at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (business_id, reference)
) STRICT, WITHOUT ROWID;

-- What a terminal said in its last heartbeat.
ALTER TABLE terminals ADD COLUMN battery_percent INTEGER CHECK (battery_percent IS NULL OR battery_percent BETWEEN 0 AND 100);
ALTER TABLE terminals ADD COLUMN signal_percent INTEGER CHECK (signal_percent IS NULL OR signal_percent BETWEEN 0 AND 100);
