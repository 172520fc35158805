// Refunds as the sender changes them (refunds, refund_attempts), apart from how they are read (refunds.db.ts): the due
// ones claimed and each attempt written (functions/refunds/send.ts), and the rail's answers that arrive later
// (migration 0031, functions/rails). Each statement binds business_id, or reads the business from the refund's row.
import type { BusinessDb, Db, Tenant } from "../tenancy/tenant";
import type { Channel } from "../ledger/pricing";
import type { RefundStatus } from "./refunds.db";
// ---------------------------------------------------------------- sending

export interface DueRefund {
  id: string;
  transactionId: number;
  merchantId: string;
  amount: number;
  attempts: number;
  paymentReference: string;
  channel: Channel;
}

/** Approved refunds whose next attempt is due at `now` and that nobody holds; oldest first. `onlyId` narrows to one. */
export async function dueRefunds(
  { businessId, db }: BusinessDb,
  options: { maxAttempts: number; now: string; limit: number; onlyId?: string },
): Promise<DueRefund[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.transaction_id AS transactionId, r.merchant_id AS merchantId, r.amount, r.attempts, t.reference AS paymentReference, t.channel
       FROM refunds r JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id
       WHERE r.business_id = ? AND r.status = 'sending' AND r.attempts < ? AND (r.next_attempt_at IS NULL OR r.next_attempt_at <= ?)
         AND (r.send_lease_until IS NULL OR r.send_lease_until < ?) AND (? IS NULL OR r.id = ?) AND r.rail_waiting_since IS NULL
       ORDER BY r.next_attempt_at, r.id LIMIT ?`,
    )
    .bind(businessId, options.maxAttempts, options.now, options.now, options.onlyId ?? null, options.onlyId ?? null, options.limit)
    .all<DueRefund>();
  return results;
}

/** Claims a refund for one attempt (attempts + 1, held until `leaseUntil`), only if nobody claimed it since it was read; null when someone did. */
export async function claimRefund(
  { businessId, db }: BusinessDb,
  claim: { refundId: string; attempts: number; leaseUntil: string; now: string; rail?: string | null },
): Promise<{ attempts: number } | null> {
  // The rail a callback may come from is written with the attempt, before it is sent (decision 041, 2026-12-01).
  return db
    .prepare(
      `UPDATE refunds SET attempts = attempts + 1, send_lease_until = ?, rail = coalesce(?, rail)
       WHERE id = ? AND business_id = ? AND status = 'sending' AND attempts = ? AND (send_lease_until IS NULL OR send_lease_until < ?) RETURNING attempts`,
    )
    .bind(claim.leaseUntil, claim.rail ?? null, claim.refundId, businessId, claim.attempts, claim.now)
    .first<{ attempts: number }>();
}

/** One attempt's outcome, for the caller's batch; (refund, attempt) is unique, so an attempt is recorded once. */
export function refundAttemptStatement(
  { businessId, db }: BusinessDb,
  attempt: { refundId: string; attempt: number; outcome: "succeeded" | "failed"; error: string | null; at: string },
): D1PreparedStatement {
  return db
    .prepare("INSERT INTO refund_attempts (business_id, refund_id, attempt, outcome, error, at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(businessId, attempt.refundId, attempt.attempt, attempt.outcome, attempt.error, attempt.at);
}

/** Final: succeeded or failed, only from sending (the caller's batch guards changes() = 1 before posting). */
export function finishRefundStatement(
  { businessId, db }: BusinessDb,
  refundId: string,
  outcome: { status: "succeeded" | "failed"; at: string; failureReason: string | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE refunds SET status = ?, completed_at = ?, failure_reason = ?, send_lease_until = NULL, next_attempt_at = NULL
       WHERE id = ? AND business_id = ? AND status = 'sending'`,
    )
    .bind(outcome.status, outcome.at, outcome.failureReason, refundId, businessId);
}

/** Right after finishRefundStatement: the batch rolls back unless that changed the refund (it was still sending). It reads changes(), no business's rows. */
export function stillSendingGuardStatement(db: Db): D1PreparedStatement {
  return db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (changes() = 1, 'still sending')");
}

/** A failed attempt with attempts left: released, and due again at `nextAttemptAt`. */
export function retryRefundStatement({ businessId, db }: BusinessDb, refundId: string, nextAttemptAt: string): D1PreparedStatement {
  return db
    .prepare("UPDATE refunds SET send_lease_until = NULL, next_attempt_at = ? WHERE id = ? AND business_id = ? AND status = 'sending'")
    .bind(nextAttemptAt, refundId, businessId);
}

/** A refund's attempts, in order (the payment's detail shows why one failed). */
export async function listRefundAttempts(
  tenant: Tenant,
  refundId: string,
): Promise<{ attempt: number; outcome: "succeeded" | "failed"; error: string | null; at: string }[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare("SELECT attempt, outcome, error, at FROM refund_attempts WHERE business_id = ? AND refund_id = ? ORDER BY attempt")
    .bind(tenant.businessId, refundId)
    .all<{ attempt: number; outcome: "succeeded" | "failed"; error: string | null; at: string }>();
  return results;
}

// ---------------------------------------------------------------- rails (migration 0031, functions/rails)

export interface RefundRailColumns {
  rail: string;
  reference: string | null;
  status: string;
}

/** A refund as an answer about it needs it: what dueRefunds reads, and its status. */
export interface RefundTarget extends DueRefund {
  businessId: string;
  status: RefundStatus;
  /** The rail its latest attempt went to (null: never sent to a rail that calls back). */
  rail: string | null;
}

const TARGET = `SELECT r.id, r.business_id AS businessId, r.transaction_id AS transactionId, r.merchant_id AS merchantId, r.amount, r.attempts, r.status,
  r.rail, t.reference AS paymentReference, t.channel FROM refunds r JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id`;

/** The refund with this id in `db` (a callback or poll answer names the refund, not its business). */
export async function refundTargetById(db: BusinessDb["db"], id: string): Promise<RefundTarget | null> {
  return db.prepare(`${TARGET} WHERE r.id = ?`).bind(id).first<RefundTarget>();
}

/** Refunds sent to a rail and unanswered since before `before`, oldest first. */
export async function refundsWaitingOnRail({ businessId, db }: BusinessDb, before: string, limit: number): Promise<RefundTarget[]> {
  const { results } = await db
    .prepare(
      `${TARGET} WHERE r.business_id = ? AND r.status = 'sending' AND r.rail_waiting_since IS NOT NULL AND r.rail_waiting_since < ? ORDER BY r.rail_waiting_since LIMIT ?`,
    )
    .bind(businessId, before, limit)
    .all<RefundTarget>();
  return results;
}

/**
 * Sent and waiting for the rail's answer from `since`: not due again (the poll asks instead). Only while `attempt` is
 * the latest and has no answer yet: a late "processing" about an attempt that already failed (or a stale one) would
 * otherwise hold the refund waiting for an answer that has come, neither retried nor finished.
 */
export function waitRefundOnRailStatement(
  { businessId, db }: BusinessDb,
  refundId: string,
  mark: RefundRailColumns,
  since: string,
  attempt: number,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE refunds SET rail = ?, rail_reference = coalesce(?, rail_reference), rail_status = ?, rail_waiting_since = ?, send_lease_until = NULL
       WHERE id = ? AND business_id = ? AND status = 'sending' AND attempts = ?
         AND NOT EXISTS (SELECT 1 FROM refund_attempts a WHERE a.business_id = refunds.business_id AND a.refund_id = refunds.id AND a.attempt = refunds.attempts)`,
    )
    .bind(mark.rail, mark.reference, mark.status, since, refundId, businessId, attempt);
}

/**
 * Final, only from sending: succeeded from any attempt, failed only while `attempt` is the latest (a stale failure
 * changes nothing). The caller's batch guards changes() = 1 right after it, before posting.
 */
export function finishRefundOnRailStatement(
  { businessId, db }: BusinessDb,
  refundId: string,
  outcome: { status: "succeeded" | "failed"; at: string; failureReason: string | null; attempt: number; mark: RefundRailColumns | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE refunds SET status = ?, completed_at = ?, failure_reason = ?, send_lease_until = NULL, next_attempt_at = NULL, rail_waiting_since = NULL,
         rail = coalesce(?, rail), rail_reference = coalesce(?, rail_reference), rail_status = coalesce(?, rail_status)
       WHERE id = ? AND business_id = ? AND status = 'sending' AND (? = 'succeeded' OR attempts = ?)`,
    )
    .bind(
      outcome.status,
      outcome.at,
      outcome.failureReason,
      outcome.mark?.rail ?? null,
      outcome.mark?.reference ?? null,
      outcome.mark?.status ?? null,
      refundId,
      businessId,
      outcome.status,
      outcome.attempt,
    );
}

/** A failed attempt with attempts left, still the latest: released, due again at `nextAttemptAt`. The caller guards changes() = 1. */
export function retryRefundOnRailStatement(
  { businessId, db }: BusinessDb,
  refundId: string,
  retry: { attempt: number; nextAttemptAt: string; mark: RefundRailColumns | null },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE refunds SET send_lease_until = NULL, next_attempt_at = ?, rail_waiting_since = NULL,
         rail = coalesce(?, rail), rail_reference = coalesce(?, rail_reference), rail_status = coalesce(?, rail_status)
       WHERE id = ? AND business_id = ? AND status = 'sending' AND attempts = ?`,
    )
    .bind(retry.nextAttemptAt, retry.mark?.rail ?? null, retry.mark?.reference ?? null, retry.mark?.status ?? null, refundId, businessId, retry.attempt);
}

/** A failed attempt, recorded only if the attempt has no answer yet (the caller guards changes() = 1). */
export function failedRefundAttemptOnceStatement(
  { businessId, db }: BusinessDb,
  attempt: { refundId: string; attempt: number; error: string; at: string },
): D1PreparedStatement {
  return db
    .prepare("INSERT OR IGNORE INTO refund_attempts (business_id, refund_id, attempt, outcome, error, at) VALUES (?, ?, ?, 'failed', ?, ?)")
    .bind(businessId, attempt.refundId, attempt.attempt, attempt.error, attempt.at);
}

/** A success overrides what its attempt said before. */
export function succeededRefundAttemptStatement(
  { businessId, db }: BusinessDb,
  attempt: { refundId: string; attempt: number; at: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO refund_attempts (business_id, refund_id, attempt, outcome, error, at) VALUES (?, ?, ?, 'succeeded', NULL, ?)
       ON CONFLICT (refund_id, attempt) DO UPDATE SET outcome = 'succeeded', error = NULL, at = excluded.at`,
    )
    .bind(businessId, attempt.refundId, attempt.attempt, attempt.at);
}
