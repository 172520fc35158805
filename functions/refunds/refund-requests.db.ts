// Refunds of a payment, the sixth kind of approval request (docs/decisions/022-refunds.md). Operations,
// Finance or an administrator asks here; an administrator who did not ask approves (refund-decision.db.ts, through the decision core),
// and only then does the ledger move, in one D1 batch that checks again, inside the batch, that the payment is still
// successful, that its refunds stay within its amount (two approvals racing cannot both pass) and that the merchant's
// available money covers it.
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement, guardStatement } from "../plumbing/batch-guards.db";
import { getMerchantBalances } from "../ledger/ledger.db";
import { REFUNDED_STATUSES_SQL, REFUNDS_ASKED_STATUSES_SQL, refundTotalsOf } from "./refunds.db";
import { exceedsAvailable } from "../approvals/transfer-requests.db";
import { getTransaction, type Transaction } from "../payments/transactions.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { approvalRequestView } from "../webhooks/views";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type BusinessDb, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { formatPesewas } from "../ledger/money";

export interface RefundInput {
  transactionId: number;
  /** Pesewas. */
  amount: number;
  reason: string;
  /** From the form that asked: the same key twice is the same request. */
  idempotencyKey: string;
}

/** A refusal that belongs next to one field of the form. */
export class RefundFieldError extends RuleError {
  override name = "RefundFieldError";
  constructor(
    readonly field: "amount" | "reason",
    message: string,
  ) {
    super(message);
  }
}

const cedis = formatPesewas;

/** SPEC section 5's "exceeds a limit", said of what is left to refund. */
export function exceedsRefundable(left: number): string {
  return left <= 0
    ? "This payment is already refunded in full (or waits for refunds, or is disputed, for its whole amount)."
    : `This amount exceeds the amount left to refund of GHS ${cedis(left)}.`;
}

/** Why a payment cannot be refunded at all, or null. */
export function notRefundable(payment: Pick<Transaction, "status">): string | null {
  if (payment.status === "reversed") return "This payment was reversed: the payer has the money back already, so it cannot be refunded.";
  if (payment.status !== "successful") return "Only a successful payment can be refunded.";
  return null;
}

/** The payment, what is left to refund (its amount less what is refunded or waits for approval) and the merchant's available money. */
export async function refundableOf(tenant: Tenant, transactionId: number) {
  const payment = await getTransaction(tenant, transactionId);
  if (!payment) throw new NotFoundError("payment");
  const [totals, balances, disputed] = await Promise.all([
    refundTotalsOf(tenant, [payment.id]),
    getMerchantBalances(tenant, payment.merchantId),
    disputedAmountOf(tenant, payment.id),
  ]);
  const { refunded, pending } = totals.get(payment.id) ?? { refunded: 0, pending: 0 };
  const facts = { payment, refunded, pending, disputed };
  return { ...facts, left: refundLeft(facts, "asked"), available: balances.available };
}

/**
 * What is left of the payment for one more refund, counted exactly as refundableGuardStatement counts it: its disputes
 * not won, and its refunds `asked` (waiting too, when asking) or `refunded` (when approving one of those waiting).
 */
export function refundLeft(
  facts: { payment: Pick<Transaction, "amount">; refunded: number; pending: number; disputed: number },
  counting: "asked" | "refunded",
): number {
  return Math.max(0, facts.payment.amount - facts.refunded - facts.disputed - (counting === "asked" ? facts.pending : 0));
}

/** Why an approval of `amount` cannot be applied now, or null: the approval's guards' rules, in the checker's words. */
export async function whyRefundNotApproved(tenant: Tenant, refund: { transactionId: number; amount: number }): Promise<string | null> {
  const facts = await refundableOf(tenant, refund.transactionId);
  const refusal = notRefundable(facts.payment);
  if (refusal) return refusal;
  const left = refundLeft(facts, "refunded");
  if (refund.amount > left) {
    // A dispute opened after this refund was asked (before disputes counted refunds waiting) holds the rest.
    const disputed =
      facts.disputed > 0 ? ` GHS ${cedis(facts.disputed)} of this payment is disputed: reject this refund, or decide it once the dispute is closed.` : "";
    return `${exceedsRefundable(left)}${disputed}`;
  }
  return refund.amount > facts.available ? exceedsAvailable(facts.available) : null;
}

/**
 * A guard row: the payment is still successful and `amount` more stays within it, counting its disputes not won and
 * its refunds: those `asked` (waiting for approval too, when asking) or those `refunded` (approved and not failed,
 * when approving: the others waiting are not this one's business). Two batches at once: the second sees the first.
 */
export function refundableGuardStatement(tenant: Tenant, transactionId: number, amount: number, counting: "asked" | "refunded"): D1PreparedStatement {
  const statuses = counting === "asked" ? REFUNDS_ASKED_STATUSES_SQL : REFUNDED_STATUSES_SQL;
  return guardStatement(
    tenant.db,
    `SELECT t.status = 'successful' AND t.amount >= ? + (SELECT coalesce(SUM(r.amount), 0) FROM refunds r
       WHERE r.business_id = t.business_id AND r.transaction_id = t.id AND r.status IN ${statuses}) + (SELECT coalesce(SUM(d.amount), 0) FROM disputes d
       WHERE d.business_id = t.business_id AND d.transaction_id = t.id AND d.status <> 'won')
     FROM transactions t WHERE t.business_id = ? AND t.id = ?`,
    "refundable",
    amount,
    tenant.businessId,
    transactionId,
  );
}

/** The refund a request made, as its batch writes it: for statements that go in the same batch (the Partner API's kept answer). */
export interface MadeRefund {
  id: string;
  paymentReference: string;
  amount: number;
  /** As stored: trimmed, at most 500 characters. */
  reason: string;
  /** ISO time it was asked. */
  at: string;
}

/**
 * Makes the request (a refund pending_approval + an approval_requests row for the queue); returns the refund id.
 * `alsoInBatch` adds statements to the same batch (the Partner API keeps its Idempotency-Key's answer with the refund).
 */
export async function requestRefund(
  tenant: Tenant,
  meta: RequestMeta,
  input: RefundInput,
  alsoInBatch: (made: MadeRefund) => D1PreparedStatement[] = () => [],
): Promise<{ id: string; duplicate: boolean }> {
  const { db } = tenant;
  if (!can(tenant.role, "request:refund")) throw new ForbiddenError("Your role cannot ask for refunds.");
  const existing = await db
    .prepare("SELECT id FROM refunds WHERE business_id = ? AND idempotency_key = ?")
    .bind(tenant.businessId, input.idempotencyKey)
    .first<{ id: string }>();
  if (existing) return { id: existing.id, duplicate: true };
  const reason = input.reason.trim();
  if (reason.length < 3) throw new RefundFieldError("reason", "Say why the payment is refunded.");
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new RefundFieldError("amount", "Enter an amount above zero.");
  const { payment, refunded, left, available } = await refundableOf(tenant, input.transactionId);
  const refusal = notRefundable(payment);
  if (refusal) throw new RuleError(refusal);
  if (input.amount > left) throw new RefundFieldError("amount", exceedsRefundable(left));
  if (input.amount > available) throw new RefundFieldError("amount", exceedsAvailable(available));

  const id = `rfd_${crypto.randomUUID()}`;
  const requestId = `req_${crypto.randomUUID()}`;
  const at = nowIso();
  const stored = reason.slice(0, 500);
  const merchant = await db
    .prepare("SELECT name FROM merchants WHERE id = ? AND business_id = ?")
    .bind(payment.merchantId, tenant.businessId)
    .first<string>("name");
  const after = {
    payment_reference: payment.reference,
    merchant_id: payment.merchantId,
    merchant: merchant ?? "",
    payment_amount: payment.amount,
    already_refunded: refunded,
    amount: input.amount,
    reason,
  };
  try {
    await db.batch([
      // Two asks at once both read what is left before either wrote: the second one's batch sees the first's row.
      refundableGuardStatement(tenant, payment.id, input.amount, "asked"),
      db
        .prepare(
          `INSERT INTO refunds (id, business_id, transaction_id, merchant_id, amount, reason, status, idempotency_key, requested_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending_approval', ?, ?, ?)`,
        )
        .bind(id, tenant.businessId, payment.id, payment.merchantId, input.amount, stored, input.idempotencyKey, tenant.userId, at),
      db
        .prepare(
          `INSERT INTO approval_requests (id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at, status)
           VALUES (?, ?, 'refund', 'create', ?, NULL, NULL, ?, ?, ?, 'pending')`,
        )
        .bind(requestId, tenant.businessId, id, JSON.stringify(after), tenant.userId, at),
      auditStatement(tenant, meta, { action: "refund.request", entity: "refund", entityId: id, after }, at),
      ...alsoInBatch({ id, paymentReference: payment.reference, amount: input.amount, reason: stored, at }),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${requestId}_requested`,
          type: "approval.requested",
          at: Date.parse(at),
          data: approvalRequestView({ id: requestId, kind: "refund", action: "create", targetId: id, makerId: tenant.userId, madeAt: at }),
        },
      ]),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    // The same form submitted twice at once: the other submit made it.
    if (error instanceof Error && error.message.includes("UNIQUE constraint failed") && error.message.includes("idempotency_key")) {
      const made = await db
        .prepare("SELECT id FROM refunds WHERE business_id = ? AND idempotency_key = ?")
        .bind(tenant.businessId, input.idempotencyKey)
        .first<{ id: string }>();
      if (made) return { id: made.id, duplicate: true };
    }
    const now = await refundableOf(tenant, input.transactionId);
    const refusal = notRefundable(now.payment);
    if (refusal) throw new RuleError(refusal);
    if (input.amount > now.left) throw new RefundFieldError("amount", exceedsRefundable(now.left));
    throw error;
  }
  return { id, duplicate: false };
}

/**
 * What open and lost disputes hold or took of a payment: money going back to the payer once. Refunds and disputes
 * of one payment together never exceed it (a dispute counts the refunds that moved money the same way).
 */
async function disputedAmountOf(tenant: Tenant, transactionId: number): Promise<number> {
  const row = await tenant.db
    .prepare("SELECT coalesce(SUM(amount), 0) AS amount FROM disputes WHERE business_id = ? AND transaction_id = ? AND status <> 'won'")
    .bind(tenant.businessId, transactionId)
    .first<{ amount: number }>();
  return row?.amount ?? 0;
}

/** The approval request behind each refund of a payment (refund id → request id): where the detail links a refund. */
export async function refundRequestIdsOf(tenant: BusinessDb, transactionId: number): Promise<Map<string, string>> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT r.id AS refundId, a.id AS requestId FROM refunds r
       JOIN approval_requests a ON a.business_id = r.business_id AND a.kind = 'refund' AND a.target_id = r.id
       WHERE r.business_id = ? AND r.transaction_id = ?`,
    )
    .bind(tenant.businessId, transactionId)
    .all<{ refundId: string; requestId: string }>();
  return new Map(results.map((row) => [row.refundId, row.requestId]));
}
