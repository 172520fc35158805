-- Issue 24, defect 7 (docs/decisions/034-private-answers-and-names.md): a failed payment moved no money, so it has
-- no fee and no net. Payments failed since that change are stored with fee 0 (functions/data/ingest.ts, the seed);
-- this clears the fee of those stored before, with the rollups summed from them, so old rows and totals agree.
-- Net is never stored for a payment (amount - fee where shown); settlements and the ledger hold successful payments
-- only. Archived months keep their figures: they record what the R2 object holds, and restoring checks them.
--
-- A business being moved between shards has its rows fenced (0013): the migration then aborts with
-- 'business_moving' and is run again once the move ends, rather than leaving that business's fees behind.
UPDATE transactions SET fee = 0 WHERE status = 'failed' AND fee <> 0;
UPDATE daily_rollups SET fee = 0 WHERE status = 'failed' AND fee <> 0;
UPDATE daily_merchant_totals SET fee = 0 WHERE status = 'failed' AND fee <> 0;

-- Kept figures of closed days are rebuilt on their next read: the transactions summary now also counts the
-- successful payments, which figures kept before do not hold.
DELETE FROM closed_day_cache;
