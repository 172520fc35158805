// What a settlement run reads and writes (merchants, transactions, settlements, settlement_items, batch_guards).
// The run is per business, so each statement takes the businessId first and binds business_id; only the list of
// businesses to settle, read by the daily Cron Trigger before any business is known, takes db alone.
import type { BusinessDb, Db } from "../tenancy/tenant";
import type { Settlement } from "./settlements.db";

/** The business's merchants with the primary settlement account each is paid to (null when it has no active one). */
export async function merchantsToSettle({ businessId, db }: BusinessDb): Promise<{ id: string; code: string; accountId: string | null }[]> {
  const { results } = await db
    .prepare(
      `SELECT m.id, m.code, a.id AS accountId FROM merchants m
       LEFT JOIN settlement_accounts a ON a.merchant_id = m.id AND a.business_id = m.business_id AND a.is_primary = 1 AND a.status = 'active'
       WHERE m.business_id = ? ORDER BY m.id`,
    )
    .bind(businessId)
    .all<{ id: string; code: string; accountId: string | null }>();
  return results;
}

/**
 * The merchant's payments cleared in [periodStart, periodEnd) and in no settlement yet; `createdFrom` bounds
 * the scan (transactions_by_merchant) by the longest clearing time.
 */
export async function clearedUnsettled(
  { businessId, db }: BusinessDb,
  merchantId: string,
  period: { createdFrom: number; periodStart: number; periodEnd: number },
): Promise<{ id: number; amount: number; fee: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT t.id, t.amount, t.fee FROM transactions t
       WHERE t.business_id = ? AND t.merchant_id = ? AND t.created_at >= ? AND t.created_at < ?
         AND t.status = 'successful' AND t.cleared_at >= ? AND t.cleared_at < ?
         AND NOT EXISTS (SELECT 1 FROM settlement_items s WHERE s.transaction_id = t.id)`,
    )
    .bind(businessId, merchantId, period.createdFrom, period.periodEnd, period.periodStart, period.periodEnd)
    .all<{ id: number; amount: number; fee: number }>();
  return results;
}

/** A batch_guards row that rolls the run's batch back unless the ledger account still holds `net` (its entry_sum is negative for money held). */
export function availableGuardStatement({ businessId, db }: BusinessDb, accountId: string, net: number): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO batch_guards (ok, reason) VALUES (coalesce((SELECT 0 - coalesce((SELECT entry_sum FROM ledger_accounts WHERE business_id = ? AND id = ?), 0) >= ?), 0), 'available')",
    )
    .bind(businessId, accountId, net);
}

/** A settlement as a run writes it: pending, never attempted, not paid. */
export type NewSettlement = Omit<Settlement, "transferId" | "status" | "attempts" | "paidAt" | "rail" | "railReference" | "railStatus" | "railWaitingSince">;

export function insertSettlementStatement({ businessId, db }: BusinessDb, settlement: NewSettlement): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, 0, ?)`,
    )
    .bind(
      settlement.id,
      businessId,
      settlement.merchantId,
      settlement.settlementAccountId,
      settlement.periodStart,
      settlement.periodEnd,
      settlement.gross,
      settlement.fees,
      settlement.net,
      settlement.reference,
      settlement.createdAt,
    );
}

/** The settlement's items, one per payment. settlement_items has no business_id: its rows join this business's settlement to this business's payments, every one of them. */
export function settlementItemsStatement({ businessId, db }: BusinessDb, settlementId: string, transactionIds: number[]): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO settlement_items (settlement_id, transaction_id)
       SELECT s.id, t.id FROM settlements s JOIN transactions t ON t.business_id = s.business_id AND t.id IN (SELECT value FROM json_each(?))
       WHERE s.id = ? AND s.business_id = ?`,
    )
    .bind(JSON.stringify(transactionIds), settlementId, businessId);
}

/**
 * Right after settlementItemsStatement: every payment became an item, or the batch rolls back (a NULL
 * reason fails NOT NULL, told apart from the balance guard's CHECK). It reads changes(), not a business's rows.
 */
export function itemsGuardStatement(db: Db, items: number): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (1, CASE WHEN changes() = ? THEN 'items' END)").bind(items);
}
