-- Payout and refund rails (issue 28; docs/decisions/041-payout-and-refund-rails.md, docs/payout-rails.md).
-- A settlement or refund sent to a rail that answers later (the acquirer's switch, Paystack Transfers) keeps the
-- rail's own reference and last status for the screens, and when it went to wait for an answer: while waiting it is
-- not sent again (the poll asks the rail instead), so an answer that never comes cannot make a second payout.
ALTER TABLE settlements ADD COLUMN rail TEXT;
ALTER TABLE settlements ADD COLUMN rail_reference TEXT;
ALTER TABLE settlements ADD COLUMN rail_status TEXT;
ALTER TABLE settlements ADD COLUMN rail_waiting_since TEXT;
CREATE INDEX settlements_waiting_on_rail ON settlements (business_id, rail_waiting_since) WHERE rail_waiting_since IS NOT NULL;

ALTER TABLE refunds ADD COLUMN rail TEXT;
ALTER TABLE refunds ADD COLUMN rail_reference TEXT;
ALTER TABLE refunds ADD COLUMN rail_status TEXT;
ALTER TABLE refunds ADD COLUMN rail_waiting_since TEXT;
CREATE INDEX refunds_waiting_on_rail ON refunds (business_id, rail_waiting_since) WHERE rail_waiting_since IS NOT NULL;

-- Callback message ids already received, per rail: a replayed callback (same id) is refused. Belongs to no
-- business (a callback names its order, not its business); rows older than the signature tolerance may be dropped.
CREATE TABLE rail_callbacks (
  rail        TEXT NOT NULL CHECK (rail IN ('switch', 'paystack')),
  id          TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (rail, id)
) STRICT, WITHOUT ROWID;
