// Disputes as the processor opens and closes them through the Partner API (docs/decisions/023-disputes.md,
// functions/disputes/partner-api.ts): each is one D1 batch with its ledger posting, its audit entry and its webhook event,
// and the facts the API answers of them. What staff read and answer on /disputes is disputes.db.ts. Every statement
// binds business_id.
import type { DisputeStatus } from "./dispute-rules";
import { disputeHoldPosting, disputeLostPosting, disputeWonPosting } from "../ledger/ledger";
import { signInAuditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { REFUNDS_ASKED_STATUSES_SQL } from "../refunds/refunds.db";
import { postingStatements } from "../ledger/ledger.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { RuleError, type BusinessDb, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { utcDay } from "../plumbing/time";

export type DisputeOutcome = "won" | "lost";

/**
 * The payment a dispute names, with what is already disputed of it (disputes the merchant won give their amount back)
 * and what its refunds speak for: moved, or still waiting for approval (an approval must never find the money disputed).
 */
export async function disputablePayment(
  { businessId, db }: BusinessDb,
  reference: string,
): Promise<{ id: number; merchantId: string; amount: number; status: string; disputed: number; refunded: number } | null> {
  return db
    .prepare(
      `SELECT t.id, t.merchant_id AS merchantId, t.amount, t.status,
         coalesce((SELECT SUM(d.amount) FROM disputes d WHERE d.business_id = t.business_id AND d.transaction_id = t.id AND d.status <> 'won'), 0) AS disputed,
         coalesce((SELECT SUM(r.amount) FROM refunds r WHERE r.business_id = t.business_id AND r.transaction_id = t.id AND r.status IN ${REFUNDS_ASKED_STATUSES_SQL}), 0)
           AS refunded
       FROM transactions t WHERE t.business_id = ? AND t.reference = ?`,
    )
    .bind(businessId, reference)
    .first();
}

export interface OpenDisputeInput {
  id: string;
  transactionId: number;
  merchantId: string;
  paymentAmount: number;
  reasonCode: string;
  amount: number;
  evidenceDueAt: number;
  openedAt: number;
}

/** The Idempotency-Key's row, written in the batch of the change it answered: the key and the change are one fact. */
/** What a dispute.* webhook and the API answer say of a dispute. */
export interface DisputeFacts {
  id: string;
  paymentReference: string;
  merchantId: string;
  reasonCode: string;
  amount: number;
  evidenceDueAt: number;
  status: DisputeStatus;
  openedAt: number;
  submittedAt: number | null;
  closedAt: number | null;
}

export function disputeData(d: DisputeFacts) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: d.id,
    payment_reference: d.paymentReference,
    merchant_id: d.merchantId,
    reason_code: d.reasonCode,
    amount: d.amount,
    currency: "GHS" as const,
    evidence_due_by: utcDay(d.evidenceDueAt - 1),
    status: d.status,
    opened_at: new Date(d.openedAt).toISOString(),
    response_submitted_at: iso(d.submittedAt),
    closed_at: iso(d.closedAt),
  };
}

/**
 * Opens the dispute and holds its amount, in one batch: a guard re-checks inside it that the payment's undisputed
 * amount still covers this one (two disputes racing cannot over-hold), then the row, the hold, the audit entry, the
 * dispute.opened event and the Idempotency-Key's answer. Throws RuleError when the guard says no.
 */
export async function openDispute(
  business: BusinessDb,
  meta: RequestMeta,
  input: OpenDisputeInput,
  facts: DisputeFacts,
  /** The request's Idempotency-Key and its answer (the API's api_idempotency statement), kept in the same batch. */
  keepAnswer: D1PreparedStatement | null,
): Promise<void> {
  const { businessId, db } = business;
  const tenant: Tenant = { ...business, userId: "", role: "Administrator" };
  try {
    await db.batch([
      // First: a repeat racing this request fails here, on the key, before the amount guard could refuse it.
      ...(keepAnswer ? [keepAnswer] : []),
      db
        .prepare(
          // Refunds that moved money or wait for approval count too: a payment never goes back to its payer for more than it
          // was, and a refund asked before the dispute can still be approved.
          `INSERT INTO batch_guards (ok, reason) VALUES (coalesce((SELECT ? + coalesce(SUM(d.amount), 0) + (SELECT coalesce(SUM(r.amount), 0) FROM refunds r
               WHERE r.business_id = ? AND r.transaction_id = ? AND r.status IN ${REFUNDS_ASKED_STATUSES_SQL}) <= ? FROM disputes d
             WHERE d.business_id = ? AND d.transaction_id = ? AND d.status <> 'won'), 0), 'undisputed amount')`,
        )
        .bind(input.amount, businessId, input.transactionId, input.paymentAmount, businessId, input.transactionId),
      db
        .prepare(
          `INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
        )
        .bind(input.id, businessId, input.merchantId, input.transactionId, input.reasonCode, input.amount, input.evidenceDueAt, input.openedAt),
      ...postingStatements(tenant, disputeHoldPosting(input.merchantId, input.amount), {
        postingId: `pst_${input.id}_hold`,
        memo: `Dispute ${input.id} held`,
        postedAt: input.openedAt,
        transactionId: input.transactionId,
      }),
      signInAuditStatement(
        { userId: null, businessId },
        db,
        meta,
        { action: "dispute.open", entity: "dispute", entityId: input.id, after: disputeData(facts) },
        new Date(input.openedAt).toISOString(),
      ),
      ...webhookEventStatements(business, [{ id: `evt_${input.id}_opened`, type: "dispute.opened", at: input.openedAt, data: disputeData(facts) }]),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    if (error instanceof Error && /CHECK constraint failed/.test(error.message))
      throw new RuleError("is more than the payment's amount not yet disputed or refunded");
    throw error;
  }
}

/** One dispute of the business as the API sees it; null for an id of no dispute of this business. */
export async function getDisputeFacts({ businessId, db }: BusinessDb, id: string): Promise<DisputeFacts | null> {
  return db
    .prepare(
      `SELECT d.id, t.reference AS paymentReference, d.merchant_id AS merchantId, d.reason_code AS reasonCode, d.amount, d.evidence_due_at AS evidenceDueAt,
         d.status, d.opened_at AS openedAt, d.submitted_at AS submittedAt, d.closed_at AS closedAt
       FROM disputes d JOIN transactions t ON t.id = d.transaction_id AND t.business_id = d.business_id
       WHERE d.business_id = ? AND d.id = ?`,
    )
    .bind(businessId, id)
    .first<DisputeFacts>();
}

/**
 * A page of the business's disputes as the API sees them, newest first by (opened_at, id): read by disputes_by_opened or
 * disputes_by_status_opened (migration 0033); of one payment, by disputes_by_transaction (a payment has a handful).
 * `after` is the last row's (opened_at, id); `limit` rows are asked for plus one, to know if more follow.
 */
export async function listDisputeFactsPage(
  { businessId, db }: BusinessDb,
  filter: { status?: DisputeStatus; paymentReference?: string },
  after: readonly [openedAt: number, id: string] | null,
  limit: number,
): Promise<DisputeFacts[]> {
  const where = ["d.business_id = ?1"];
  const binds: unknown[] = [businessId];
  const bind = (value: unknown) => {
    binds.push(value);
    return `?${binds.length}`;
  };
  if (filter.status) where.push(`d.status = ${bind(filter.status)}`);
  if (filter.paymentReference !== undefined)
    where.push(`d.transaction_id = (SELECT p.id FROM transactions p WHERE p.business_id = ?1 AND p.reference = ${bind(filter.paymentReference)})`);
  if (after) {
    const at = bind(after[0]);
    where.push(`d.opened_at <= ${at} AND (d.opened_at < ${at} OR d.id < ${bind(after[1])})`);
  }
  const { results } = await db
    .prepare(
      `SELECT d.id, t.reference AS paymentReference, d.merchant_id AS merchantId, d.reason_code AS reasonCode, d.amount, d.evidence_due_at AS evidenceDueAt,
         d.status, d.opened_at AS openedAt, d.submitted_at AS submittedAt, d.closed_at AS closedAt
       FROM disputes d JOIN transactions t ON t.id = d.transaction_id AND t.business_id = d.business_id
       WHERE ${where.join(" AND ")}
       ORDER BY d.opened_at DESC, d.id DESC LIMIT ${bind(limit + 1)}`,
    )
    .bind(...binds)
    .all<DisputeFacts>();
  return results;
}

/**
 * Closes an open or submitted dispute: the hold returns to available (won) or leaves (lost). The UPDATE names the
 * status it found, and a guard after it rolls the whole batch back if another close came first: nothing is posted twice.
 * Returns false when the dispute was already closed.
 */
export async function closeDispute(business: BusinessDb, meta: RequestMeta, dispute: DisputeFacts, outcome: DisputeOutcome, now: number): Promise<boolean> {
  const { businessId, db } = business;
  if (dispute.status === "won" || dispute.status === "lost") return false;
  const tenant: Tenant = { ...business, userId: "", role: "Administrator" };
  const closed: DisputeFacts = { ...dispute, status: outcome, closedAt: now };
  const lines = outcome === "won" ? disputeWonPosting(dispute.merchantId, dispute.amount) : disputeLostPosting(dispute.merchantId, dispute.amount);
  try {
    await db.batch([
      db
        .prepare("UPDATE disputes SET status = ?, closed_at = ? WHERE business_id = ? AND id = ? AND status IN ('open', 'submitted')")
        .bind(outcome, now, businessId, dispute.id),
      db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (changes() = 1, 'still open')"),
      ...postingStatements(tenant, lines, {
        postingId: `pst_${dispute.id}_${outcome}`,
        memo: `Dispute ${dispute.id} ${outcome}`,
        postedAt: now,
      }),
      signInAuditStatement(
        { userId: null, businessId },
        db,
        meta,
        {
          action: "dispute.close",
          entity: "dispute",
          entityId: dispute.id,
          before: { status: dispute.status },
          after: { status: outcome, amount: dispute.amount },
        },
        new Date(now).toISOString(),
      ),
      ...webhookEventStatements(business, [{ id: `evt_${dispute.id}_closed`, type: "dispute.closed", at: now, data: disputeData(closed) }]),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    if (error instanceof Error && /CHECK constraint failed/.test(error.message)) return false;
    throw error;
  }
  return true;
}
