-- Rail callbacks that matched nothing this portal sent (issue 38; decision 041, amended 2026-12-01). A correctly signed
-- callback may move only a payout or refund sent to that same rail, by its reference and its latest attempt; any other
-- (never sent, sent to the other rail, an older attempt, an unknown or ambiguous reference) is kept here, answered 2xx
-- and changes nothing, so the operators can see what a rail said about money the portal did not send it. Belongs to no
-- business, as rail_callbacks: a callback names its order, not its business.
CREATE TABLE rail_callbacks_unmatched (
  rail        TEXT NOT NULL CHECK (rail IN ('switch', 'paystack')),
  id          TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('payout', 'refund')),
  rail_key    TEXT NOT NULL,
  status      TEXT NOT NULL,
  why         TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (rail, id)
) STRICT, WITHOUT ROWID;
