-- The daily rollups summed over points of sale, terminals, channels and
-- networks: one row per business, day, merchant and status. A year's report by
-- day or by merchant reads these (about a tenth of the rollup rows) and stays
-- fast on the large seed. Written with the rollups (scripts/seed/local.ts).
CREATE TABLE daily_merchant_totals (
  business_id TEXT NOT NULL REFERENCES businesses (id),
  day         TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  merchant_id TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('successful', 'failed', 'reversed')),
  count       INTEGER NOT NULL CHECK (count > 0),
  amount      INTEGER NOT NULL CHECK (amount >= 0),
  fee         INTEGER NOT NULL CHECK (fee >= 0),
  PRIMARY KEY (business_id, day, merchant_id, status)
) STRICT, WITHOUT ROWID;
INSERT INTO daily_merchant_totals (business_id, day, merchant_id, status, count, amount, fee)
  SELECT business_id, day, merchant_id, status, SUM(count), SUM(amount), SUM(fee) FROM daily_rollups GROUP BY business_id, day, merchant_id, status;
