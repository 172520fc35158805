-- Every payout attempt of a settlement, so failures are visible and retries traceable.
CREATE TABLE payout_attempts (
  id            INTEGER PRIMARY KEY,
  business_id   TEXT NOT NULL REFERENCES businesses (id),
  settlement_id TEXT NOT NULL REFERENCES settlements (id),
  attempt       INTEGER NOT NULL CHECK (attempt >= 1),
  outcome       TEXT NOT NULL CHECK (outcome IN ('paid', 'failed')),
  error         TEXT,
  at            TEXT NOT NULL,
  UNIQUE (settlement_id, attempt)
) STRICT;
CREATE INDEX payout_attempts_by_settlement ON payout_attempts (business_id, settlement_id, attempt);

-- While a payout is with the provider, nobody else may send it (a lease, so a
-- crashed run does not block it for ever; the reference keeps a late retry idempotent).
ALTER TABLE settlements ADD COLUMN payout_lease_until TEXT;
