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
  /** The transfer it pays out (decision 052), with the asker's narration; null for the daily run's settlements. */
  transferId: string | null;
  narration: string | null;
}

export interface DueQuery {
  maxAttempts: number;
  now: string;
  limit: number;
  /** Only this settlement (a transfer's payout sent right after its approval). */
  onlyId?: string;
  /**
   * Only transfers' payouts, each failed attempt n waiting retryAfterMs[n - 1] (the last figure for any later one)
   * before the next: the five-minute job's retries, which must not turn a bank's hour-long outage into five failures.
   */
  transfers?: { retryAfterMs: readonly number[] };
}

/** Pending, or failed with attempts left, and not held by another run at `now`; oldest first, at most `limit`. */
export async function duePayouts({ businessId, db }: BusinessDb, options: DueQuery): Promise<DuePayout[]> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (options.onlyId) {
    where.push("s.id = ?");
    binds.push(options.onlyId);
  }
  if (options.transfers) {
    const now = Date.parse(options.now);
    const delays = options.transfers.retryAfterMs;
    const cutoff = (n: number) => new Date(now - (delays[Math.min(n, delays.length) - 1] ?? 0)).toISOString();
    // An attempt with no answer on record (its run ended mid-call; the lease has run out) is due at once.
    where.push(
      `s.transfer_id IS NOT NULL AND (s.attempts = 0 OR coalesce((SELECT max(p.at) FROM payout_attempts p WHERE p.business_id = s.business_id AND p.settlement_id = s.id AND p.attempt = s.attempts), '')
         <= CASE s.attempts WHEN 1 THEN ? WHEN 2 THEN ? ELSE ? END)`,
    );
    binds.push(cutoff(1), cutoff(2), cutoff(3));
  }
  const { results } = await db
    .prepare(
      `SELECT s.id, s.business_id AS businessId, s.reference, s.net, s.attempts, a.provider, a.account_number AS accountNumber, a.account_name AS accountName,
         s.transfer_id AS transferId, t.narration
       FROM settlements s JOIN settlement_accounts a ON a.id = s.settlement_account_id AND a.business_id = s.business_id
         LEFT JOIN transfers t ON t.id = s.transfer_id AND t.business_id = s.business_id
       WHERE s.status IN ('pending', 'failed') AND s.attempts < ? AND (s.payout_lease_until IS NULL OR s.payout_lease_until < ?) AND s.business_id = ?
         AND s.rail_waiting_since IS NULL${where.map((w) => ` AND ${w}`).join("")} ORDER BY s.created_at LIMIT ?`,
    )
    .bind(options.maxAttempts, options.now, businessId, ...binds, options.limit)
    .all<DuePayout>();
  return results;
}

/** Claims a payout until `leaseUntil` (attempts + 1), only if nobody claimed it since it was read; null when someone did. */
export async function claimPayout(
  { businessId, db }: BusinessDb,
  claim: { settlementId: string; attempts: number; leaseUntil: string; now: string; rail?: string | null },
): Promise<{ attempts: number } | null> {
  // The rail a callback may come from is written with the attempt, before it is sent (decision 041, 2026-12-01).
  return db
    .prepare(
      `UPDATE settlements SET attempts = attempts + 1, payout_lease_until = ?, rail = coalesce(?, rail)
       WHERE id = ? AND business_id = ? AND status IN ('pending', 'failed') AND attempts = ?
         AND (payout_lease_until IS NULL OR payout_lease_until < ?) RETURNING attempts`,
    )
    .bind(claim.leaseUntil, claim.rail ?? null, claim.settlementId, businessId, claim.attempts, claim.now)
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

// ---------------------------------------------------------------- rails (migration 0031, functions/rails)

/** The rail's reference and status as the screens show them. */
export interface RailColumns {
  rail: string;
  reference: string | null;
  status: string;
}

/**
 * Sent and waiting for the rail's answer from `since`: not due again (the poll asks instead); released from the lease.
 * Only while `attempt` is the latest and has no answer yet: a late "processing" about an attempt that already failed
 * (or a stale one) would otherwise hold the settlement waiting for an answer that has come, never retried.
 */
export function waitOnRailStatement(
  { businessId, db }: BusinessDb,
  settlementId: string,
  mark: RailColumns,
  since: string,
  attempt: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE settlements SET rail = ?, rail_reference = coalesce(?, rail_reference), rail_status = ?, rail_waiting_since = ?, payout_lease_until = NULL
       WHERE id = ? AND business_id = ? AND status <> 'paid' AND attempts = ?
         AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.business_id = settlements.business_id AND a.settlement_id = settlements.id AND a.attempt = settlements.attempts)`,
    )
    .bind(mark.rail, mark.reference, mark.status, since, settlementId, businessId, attempt);
}

/** Paid, from any state but paid, with the rail's answer; the caller's batch guards changes() = 1 right after it. */
export function markPaidOnRailStatement({ businessId, db }: BusinessDb, settlementId: string, at: string, mark: RailColumns | null): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE settlements SET status = 'paid', paid_at = ?, payout_lease_until = NULL, rail_waiting_since = NULL,
         rail = coalesce(?, rail), rail_reference = coalesce(?, rail_reference), rail_status = coalesce(?, rail_status)
       WHERE id = ? AND business_id = ? AND status <> 'paid'`,
    )
    .bind(at, mark?.rail ?? null, mark?.reference ?? null, mark?.status ?? null, settlementId, businessId);
}

/** Failed, only while `attempt` is still the settlement's latest and it is not paid; the caller's batch guards changes() = 1. */
export function markFailedOnRailStatement(
  { businessId, db }: BusinessDb,
  settlementId: string,
  attempt: number,
  mark: RailColumns | null,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE settlements SET status = 'failed', payout_lease_until = NULL, rail_waiting_since = NULL,
         rail = coalesce(?, rail), rail_reference = coalesce(?, rail_reference), rail_status = coalesce(?, rail_status)
       WHERE id = ? AND business_id = ? AND status <> 'paid' AND attempts = ?`,
    )
    .bind(mark?.rail ?? null, mark?.reference ?? null, mark?.status ?? null, settlementId, businessId, attempt);
}

/** An attempt's answer, recorded once: a failure only if the attempt has none yet (the caller guards changes() = 1). */
export function failedAttemptOnceStatement(
  { businessId, db }: BusinessDb,
  attempt: { settlementId: string; attempt: number; error: string; at: string },
): D1PreparedStatement {
  return db
    .prepare("INSERT OR IGNORE INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, ?, 'failed', ?, ?)")
    .bind(businessId, attempt.settlementId, attempt.attempt, attempt.error, attempt.at);
}

/** A success overrides what the attempt said before (a failure answered late by a success is paid after all). */
export function paidAttemptStatement({ businessId, db }: BusinessDb, attempt: { settlementId: string; attempt: number; at: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, ?, 'paid', NULL, ?)
       ON CONFLICT (settlement_id, attempt) DO UPDATE SET outcome = 'paid', error = NULL, at = excluded.at`,
    )
    .bind(businessId, attempt.settlementId, attempt.attempt, attempt.at);
}

/** What an answer needs to know of the settlement it is about. */
export interface PayoutTarget {
  id: string;
  businessId: string;
  reference: string;
  net: number;
  attempts: number;
  status: "pending" | "paid" | "failed";
  /** The rail its latest attempt went to (null: never sent to a rail that calls back). */
  rail: string | null;
}

/** The settlement with this reference in `db` (a callback or poll answer names the reference, not the business). */
export async function payoutTargetByReference(db: D1Database | BusinessDb["db"], reference: string): Promise<PayoutTarget | null> {
  return db
    .prepare("SELECT id, business_id AS businessId, reference, net, attempts, status, rail FROM settlements WHERE reference = ?")
    .bind(reference)
    .first<PayoutTarget>();
}

/** Settlements sent to a rail and unanswered since before `before`, oldest first. */
export async function payoutsWaitingOnRail({ businessId, db }: BusinessDb, before: string, limit: number): Promise<PayoutTarget[]> {
  const { results } = await db
    .prepare(
      `SELECT id, business_id AS businessId, reference, net, attempts, status, rail FROM settlements
       WHERE business_id = ? AND rail_waiting_since IS NOT NULL AND rail_waiting_since < ? AND status <> 'paid' ORDER BY rail_waiting_since LIMIT ?`,
    )
    .bind(businessId, before, limit)
    .all<PayoutTarget>();
  return results;
}
