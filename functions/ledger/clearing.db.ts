// What the clearing job (functions/ledger/clearing.ts) reads and writes: successful payments whose money is due to move
// from the merchant's pending account to its available one. Per business, so each statement takes the businessId
// first and binds business_id; only the list of businesses, read before any business is known, takes db alone.
import { CLEARING_DAYS, clearingPosting, clearsAt, type Channel } from "./ledger";
import { postingStatements } from "./ledger.db";
import type { Tenant, BusinessDb } from "../tenancy/tenant";
import { DAY_MS } from "../plumbing/time";

/**
 * How far back a run looks for payments still to clear. Each run (every 5 minutes) clears all that is due, and the
 * seed clears everything due before it was made, so anything older would mean the job had not run for a month.
 * The bound keeps the scan of transactions_by_status short; a partial index on the uncleared payments would make it
 * unnecessary (it needs a migration).
 */
export const CLEARING_LOOKBACK_DAYS = 30;

export interface DuePayment {
  id: number;
  reference: string;
  merchantId: string;
  channel: Channel;
  amount: number;
  fee: number;
  createdAt: number;
}

/** The business's successful payments not cleared yet whose clearing time is at or before `now`, oldest first. */
export async function duePayments({ businessId, db }: BusinessDb, now: number, limit: number): Promise<DuePayment[]> {
  // A payment clears CLEARING_DAYS after it was made: due means made at or before now minus its channel's delay.
  const { results } = await db
    .prepare(
      `SELECT id, reference, merchant_id AS merchantId, channel, amount, fee, created_at AS createdAt FROM transactions
       WHERE business_id = ? AND status = 'successful' AND created_at >= ? AND created_at <= ? AND cleared_at IS NULL
         AND ((channel = 'card' AND created_at <= ?) OR (channel = 'mobile_money' AND created_at <= ?))
       ORDER BY created_at, id LIMIT ?`,
    )
    .bind(
      businessId,
      now - CLEARING_LOOKBACK_DAYS * DAY_MS,
      now - Math.min(CLEARING_DAYS.card, CLEARING_DAYS.mobile_money) * DAY_MS,
      now - CLEARING_DAYS.card * DAY_MS,
      now - CLEARING_DAYS.mobile_money * DAY_MS,
      limit,
    )
    .all<DuePayment>();
  return results;
}

/**
 * The statements that clear one payment, for the caller's batch (which must end with clearBatchGuardsStatement):
 * mark it cleared at its clearing time, then post its net from pending to available. Two runs at once may pick the
 * same payment; the guard row after the UPDATE fails its CHECK unless that UPDATE changed the row (changes() = 1),
 * which rolls the whole batch back, posting included. So a payment is cleared, and posted, once: by the batch
 * that marked it.
 */
export function clearPaymentStatements({ businessId, db }: BusinessDb, payment: DuePayment): D1PreparedStatement[] {
  const at = clearsAt(payment.channel, payment.createdAt);
  // The ledger functions read only the business from it.
  const tenant: Tenant = { businessId, db, userId: "", role: "Administrator" };
  return [
    db
      .prepare("UPDATE transactions SET cleared_at = ? WHERE business_id = ? AND id = ? AND cleared_at IS NULL AND status = 'successful'")
      .bind(at, businessId, payment.id),
    // Reads changes() of the UPDATE just before it, not a business's rows.
    db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (changes() = 1, 'cleared')"),
    ...postingStatements(tenant, clearingPosting(payment), {
      postingId: `txn_${payment.id}_clearing`,
      memo: `Cleared ${payment.reference}`,
      postedAt: at,
      transactionId: payment.id,
    }),
  ];
}
