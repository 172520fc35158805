// Settlements on their way to the bank (settlements, payout_attempts). The daily run pays every business's due settlements in one pass,
// so the list of what is due takes db first (one business when given); each change takes the settlement's businessId first and binds business_id.
import type { BusinessDb } from "../tenancy/tenant";

export interface DuePayout {
  id: string;
  businessId: string;
  reference: string;
  net: number;
  attempts: number;
  provider: string;
  accountNumber: string;
  accountName: string;
}

/** Pending, or failed with attempts left, and not held by another run at `now`; oldest first, at most `limit`. */
export async function duePayouts({ businessId, db }: BusinessDb, options: { maxAttempts: number; now: string; limit: number }): Promise<DuePayout[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.business_id AS businessId, s.reference, s.net, s.attempts, a.provider, a.account_number AS accountNumber, a.account_name AS accountName
       FROM settlements s JOIN settlement_accounts a ON a.id = s.settlement_account_id AND a.business_id = s.business_id
       WHERE s.status IN ('pending', 'failed') AND s.attempts < ? AND (s.payout_lease_until IS NULL OR s.payout_lease_until < ?) AND s.business_id = ? ORDER BY s.created_at LIMIT ?`,
    )
    .bind(options.maxAttempts, options.now, businessId, options.limit)
    .all<DuePayout>();
  return results;
}

/** Claims a payout until `leaseUntil` (attempts + 1), only if nobody claimed it since it was read; null when someone did. */
export async function claimPayout(
  { businessId, db }: BusinessDb,
  claim: { settlementId: string; attempts: number; leaseUntil: string; now: string },
): Promise<{ attempts: number } | null> {
  return db
    .prepare(
      `UPDATE settlements SET attempts = attempts + 1, payout_lease_until = ?
       WHERE id = ? AND business_id = ? AND status IN ('pending', 'failed') AND attempts = ?
         AND (payout_lease_until IS NULL OR payout_lease_until < ?) RETURNING attempts`,
    )
    .bind(claim.leaseUntil, claim.settlementId, businessId, claim.attempts, claim.now)
    .first<{ attempts: number }>();
}

/** Records one attempt's outcome, for the caller's batch. */
export function payoutAttemptStatement(
  { businessId, db }: BusinessDb,
  attempt: { settlementId: string; attempt: number; outcome: "paid" | "failed"; error: string | null; at: string },
): D1PreparedStatement {
  return db
    .prepare("INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(businessId, attempt.settlementId, attempt.attempt, attempt.outcome, attempt.error, attempt.at);
}

/** Paid (from any state but paid), for the caller's batch. */
export function markPaidStatement({ businessId, db }: BusinessDb, settlementId: string, at: string): D1PreparedStatement {
  return db
    .prepare("UPDATE settlements SET status = 'paid', paid_at = ?, payout_lease_until = NULL WHERE id = ? AND business_id = ? AND status <> 'paid'")
    .bind(at, settlementId, businessId);
}

/** Failed (unless it was paid meanwhile), for the caller's batch. */
export function markFailedStatement({ businessId, db }: BusinessDb, settlementId: string): D1PreparedStatement {
  return db
    .prepare("UPDATE settlements SET status = 'failed', payout_lease_until = NULL WHERE id = ? AND business_id = ? AND status <> 'paid'")
    .bind(settlementId, businessId);
}
