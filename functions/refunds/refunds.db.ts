// Refunds as they are read (refunds, refund_attempts) and counted for the figures. Each statement binds business_id;
// the making of a refund request is in refund-requests.db.ts, its deciding in refund-decision.db.ts (through the decision
// core), the sender's writes in refund-sending.db.ts, the sending in send.ts.
import type { BusinessDb, Tenant } from "../tenancy/tenant";

export type RefundStatus = "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";

export interface Refund {
  id: string;
  transactionId: number;
  merchantId: string;
  /** Pesewas. */
  amount: number;
  reason: string;
  status: RefundStatus;
  requestedBy: string;
  approvedBy: string | null;
  createdAt: string;
  decidedAt: string | null;
  attempts: number;
  completedAt: string | null;
  failureReason: string | null;
  /** The rail it was sent through (migration 0031), its own reference and status word, and since when it waits for the rail's answer; null until a rail said something. */
  rail: string | null;
  railReference: string | null;
  railStatus: string | null;
  railWaitingSince: string | null;
}

const SELECT = `SELECT id, transaction_id AS transactionId, merchant_id AS merchantId, amount, reason, status, requested_by AS requestedBy,
  approved_by AS approvedBy, created_at AS createdAt, decided_at AS decidedAt, attempts, completed_at AS completedAt, failure_reason AS failureReason,
  rail, rail_reference AS railReference, rail_status AS railStatus, rail_waiting_since AS railWaitingSince FROM refunds`;

/** Approved and not failed: money that left the merchant's available balance for the payer. */
export const REFUNDED_STATUSES_SQL = "('sending', 'succeeded')";
/**
 * Asked and neither rejected nor failed: waiting for approval, sending or succeeded. The money these speak for is not
 * free for another refund or a dispute: approving one that waits must never find its payment taken (decision 022).
 */
export const REFUNDS_ASKED_STATUSES_SQL = "('pending_approval', 'sending', 'succeeded')";

export async function getRefund({ businessId, db }: BusinessDb, id: string): Promise<Refund | null> {
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, businessId).first<Refund>();
}

/** A payment's refunds, oldest first. */
export async function listPaymentRefunds(tenant: BusinessDb, transactionId: number): Promise<Refund[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND transaction_id = ? ORDER BY created_at, id`)
    .bind(tenant.businessId, transactionId)
    .all<Refund>();
  return results;
}

/** The refunds of the payment with this reference, oldest first (the Partner API's GET of a payment). */
export async function listRefundsByReference({ businessId, db }: BusinessDb, reference: string): Promise<Refund[]> {
  const { results } = await db
    .prepare(
      `${SELECT} WHERE business_id = ?1 AND transaction_id = (SELECT t.id FROM transactions t WHERE t.business_id = ?1 AND t.reference = ?2) ORDER BY created_at, id`,
    )
    .bind(businessId, reference)
    .all<Refund>();
  return results;
}

/** The refunds of a page of payments, oldest first: one statement for the page (refunds_by_transaction), never one a payment. */
export async function listRefundsOfPayments({ businessId, db }: BusinessDb, transactionIds: readonly number[]): Promise<Refund[]> {
  if (transactionIds.length === 0) return [];
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND transaction_id IN (SELECT value FROM json_each(?)) ORDER BY created_at, id`)
    .bind(businessId, JSON.stringify([...new Set(transactionIds)]))
    .all<Refund>();
  return results;
}

/** A refund as GET /api/v1/refunds lists it: with its payment's reference. */
export type ListedRefund = Refund & { paymentReference: string };

/** One refund with its payment's reference (GET /api/v1/refunds/{id}); another business's id is null, as an unknown one. */
export async function getListedRefund({ businessId, db }: BusinessDb, id: string): Promise<ListedRefund | null> {
  return db
    .prepare(
      `SELECT r.id, r.transaction_id AS transactionId, r.merchant_id AS merchantId, r.amount, r.reason, r.status, r.requested_by AS requestedBy,
         r.approved_by AS approvedBy, r.created_at AS createdAt, r.decided_at AS decidedAt, r.attempts, r.completed_at AS completedAt,
         r.failure_reason AS failureReason, r.rail, r.rail_reference AS railReference, r.rail_status AS railStatus,
         r.rail_waiting_since AS railWaitingSince, t.reference AS paymentReference
       FROM refunds r JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id
       WHERE r.business_id = ? AND r.id = ?`,
    )
    .bind(businessId, id)
    .first<ListedRefund>();
}

/**
 * A page of the business's refunds, newest first by (created_at, id), read by refunds_by_created or
 * refunds_by_status_created (migration 0033); of one payment, by refunds_by_transaction (a payment has a handful).
 * `after` is the last row's (created_at, id); `limit` rows are asked for plus one, to know if more follow.
 */
export async function listRefundsPage(
  { businessId, db }: BusinessDb,
  filter: { status?: RefundStatus; paymentReference?: string },
  after: readonly [createdAt: string, id: string] | null,
  limit: number,
): Promise<ListedRefund[]> {
  const where = ["r.business_id = ?1"];
  const binds: unknown[] = [businessId];
  const bind = (value: unknown) => {
    binds.push(value);
    return `?${binds.length}`;
  };
  if (filter.status) where.push(`r.status = ${bind(filter.status)}`);
  if (filter.paymentReference !== undefined)
    where.push(`r.transaction_id = (SELECT p.id FROM transactions p WHERE p.business_id = ?1 AND p.reference = ${bind(filter.paymentReference)})`);
  if (after) {
    const at = bind(after[0]);
    where.push(`r.created_at <= ${at} AND (r.created_at < ${at} OR r.id < ${bind(after[1])})`);
  }
  const { results } = await db
    .prepare(
      `SELECT r.id, r.transaction_id AS transactionId, r.merchant_id AS merchantId, r.amount, r.reason, r.status, r.requested_by AS requestedBy,
         r.approved_by AS approvedBy, r.created_at AS createdAt, r.decided_at AS decidedAt, r.attempts, r.completed_at AS completedAt,
         r.failure_reason AS failureReason, t.reference AS paymentReference
       FROM refunds r JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id
       WHERE ${where.join(" AND ")}
       ORDER BY r.created_at DESC, r.id DESC LIMIT ${bind(limit + 1)}`,
    )
    .bind(...binds)
    .all<ListedRefund>();
  return results;
}

export interface RefundTotals {
  /** Approved and not failed (sending or succeeded). */
  refunded: number;
  /** Waiting for approval. */
  pending: number;
}

/** What is refunded and what waits for approval, per payment, for a page of payments. */
export async function refundTotalsOf(tenant: Tenant, transactionIds: readonly number[]): Promise<Map<number, RefundTotals>> {
  const { db } = tenant;
  const totals = new Map<number, RefundTotals>();
  if (transactionIds.length === 0) return totals;
  const { results } = await db
    .prepare(
      `SELECT transaction_id AS id,
         coalesce(SUM(CASE WHEN status IN ${REFUNDED_STATUSES_SQL} THEN amount END), 0) AS refunded,
         coalesce(SUM(CASE WHEN status = 'pending_approval' THEN amount END), 0) AS pending
       FROM refunds WHERE business_id = ? AND transaction_id IN (SELECT value FROM json_each(?)) GROUP BY transaction_id`,
    )
    .bind(tenant.businessId, JSON.stringify([...new Set(transactionIds)]))
    .all<{ id: number; refunded: number; pending: number }>();
  for (const row of results) totals.set(row.id, { refunded: row.refunded, pending: row.pending });
  return totals;
}

// ---------------------------------------------------------------- figures

export interface MoneyBack {
  /** Payments the processor reversed in full (by the day they were paid). */
  reversals: { count: number; amount: number };
  /** Refunds approved and not failed, by the day they were approved. */
  refunds: { count: number; amount: number };
}

/** Reversals and refunds over [fromDay, toDay] (YYYY-MM-DD, Africa/Accra = UTC), side by side: the dashboard and reports keep them apart. */
export async function moneyBack(tenant: Tenant, period: { fromDay: string; toDay: string; merchantId?: string }): Promise<MoneyBack> {
  const { db } = tenant;
  const merchant = period.merchantId ? " AND merchant_id = ?" : "";
  const binds = [tenant.businessId, period.fromDay, period.toDay, ...(period.merchantId ? [period.merchantId] : [])];
  const [reversals, refunds] = await db.batch<{ count: number; amount: number }>([
    db
      .prepare(
        `SELECT coalesce(SUM(count), 0) AS count, coalesce(SUM(amount), 0) AS amount FROM daily_merchant_totals
         WHERE business_id = ? AND day BETWEEN ? AND ? AND status = 'reversed'${merchant}`,
      )
      .bind(...binds),
    db
      .prepare(
        `SELECT COUNT(*) AS count, coalesce(SUM(amount), 0) AS amount FROM refunds
         WHERE business_id = ? AND decided_at >= ? AND decided_at < date(?, '+1 day') AND status IN ${REFUNDED_STATUSES_SQL}${merchant}`,
      )
      .bind(...binds),
  ]);
  return { reversals: reversals?.results[0] ?? { count: 0, amount: 0 }, refunds: refunds?.results[0] ?? { count: 0, amount: 0 } };
}

const REPORT_KEYS = {
  day: "substr(r.decided_at, 1, 10)",
  merchant: "r.merchant_id",
  point_of_sale: "t.point_of_sale_id",
  terminal: "t.terminal_id",
  channel: "t.channel",
  network: "t.network",
} as const;

/** Refunds (approved, not failed) per report line over [fromDay, toDay], by the day they were approved: the reports CSV's Refunds column. */
export async function refundsBy(
  tenant: Tenant,
  query: { dimension: keyof typeof REPORT_KEYS; fromDay: string; toDay: string; merchantId?: string },
): Promise<Map<string, number>> {
  const { db } = tenant;
  const merchant = query.merchantId ? " AND r.merchant_id = ?" : "";
  const { results } = await db
    .prepare(
      `SELECT ${REPORT_KEYS[query.dimension]} AS key, SUM(r.amount) AS amount FROM refunds r
       JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id
       WHERE r.business_id = ? AND r.decided_at >= ? AND r.decided_at < date(?, '+1 day') AND r.status IN ${REFUNDED_STATUSES_SQL}${merchant}
       GROUP BY key`,
    )
    .bind(tenant.businessId, query.fromDay, query.toDay, ...(query.merchantId ? [query.merchantId] : []))
    .all<{ key: string | null; amount: number }>();
  return new Map(results.map((row) => [row.key ?? "", row.amount]));
}
