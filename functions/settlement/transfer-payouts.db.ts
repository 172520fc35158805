// A transfer to a merchant's own settlement account is paid out as a settlement (decision 052): its approval's batch
// writes the settlements row (the transfer's id, its amount, fees 0, the period the instant of the approval), which the
// one payout engine (payouts.ts) then sends like the daily run's. Each statement binds the business.
import { guardStatement } from "../plumbing/batch-guards.db";
import type { BusinessDb } from "../tenancy/tenant";

/** The settlement that pays out a transfer: one per transfer, so its id follows from the transfer's. */
export function transferPayoutId(transferId: string): string {
  return `stl_${transferId.replace(/^trf_/, "")}`;
}

/**
 * The payout's reference (what the merchant's statement shows, the rail's idempotency key): TRF-<merchant code>-<16
 * hex digits of the transfer's id>. The hex digits (60 random bits) keep two businesses with one merchant code apart,
 * as the business tag does for the daily run's references; uppercase letters, digits and hyphens, as every rail takes.
 * Migration 0044 writes the same for the transfers approved before it.
 */
const REFERENCE_SQL = "'TRF-' || m.code || '-' || upper(substr(replace(substr(?, 5), '-', ''), 1, 16))";

/**
 * For the approval's batch: the payout, pending and never attempted, only while the account is still this merchant's
 * and active (a guard right after rolls the whole approval back otherwise: no money moves towards a closed account).
 */
export function transferPayoutStatements(
  { businessId, db }: BusinessDb,
  transfer: { id: string; fromMerchantId: string; toSettlementAccountId: string; amount: number },
  at: string,
): D1PreparedStatement[] {
  const instant = Date.parse(at);
  return [
    db
      .prepare(
        `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, transfer_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at)
         SELECT ?, m.business_id, m.id, a.id, ?, ?, ?, ?, 0, ?, 'pending', ${REFERENCE_SQL}, 0, ?
         FROM merchants m JOIN settlement_accounts a ON a.business_id = m.business_id AND a.merchant_id = m.id AND a.id = ? AND a.status = 'active'
         WHERE m.id = ? AND m.business_id = ?`,
      )
      .bind(
        transferPayoutId(transfer.id),
        transfer.id,
        instant,
        instant,
        transfer.amount,
        transfer.amount,
        transfer.id,
        at,
        transfer.toSettlementAccountId,
        transfer.fromMerchantId,
        businessId,
      ),
    guardStatement(db, "SELECT changes() = 1", "settlement account active"),
  ];
}

/** Whether the account a transfer pays out to is still the merchant's and active (what the approval's guard checks). */
export async function payoutAccountActive({ businessId, db }: BusinessDb, merchantId: string, accountId: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS ok FROM settlement_accounts WHERE id = ? AND business_id = ? AND merchant_id = ? AND status = 'active'")
    .bind(accountId, businessId, merchantId)
    .first<{ ok: number }>();
  return row !== null;
}
