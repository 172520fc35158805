// Refunds of a payment, the sixth kind of approval request (docs/decisions/022-refunds.md). Operations,
// Finance or an administrator asks; an administrator who did not ask approves, and only then does the ledger move,
// in one D1 batch that checks again, inside the batch, that the payment is still successful, that its refunds stay
// within its amount (two approvals racing cannot both pass) and that the merchant's available money covers it.
import { ledgerAccountId, refundPosting } from "../ledger/ledger";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement, guardStatement } from "../platform/batch-guards.db";
import { availableGuardStatement } from "../settlement/settlement-runs.db";
import { getMerchantBalances, postingStatements } from "../ledger/ledger.db";
import { getRefund, REFUNDED_STATUSES_SQL, refundTotalsOf, type Refund } from "./refunds.db";
import { exceedsAvailable } from "../approvals/transfer-requests.db";
import { getTransaction, type Transaction } from "../payments/transactions.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
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
  return { payment, refunded, pending, disputed, left: Math.max(0, payment.amount - refunded - pending - disputed), available: balances.available };
}

/** Makes the request (a refund pending_approval + an approval_requests row for the queue); returns the refund id. */
export async function requestRefund(tenant: Tenant, meta: RequestMeta, input: RefundInput): Promise<{ id: string; duplicate: boolean }> {
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
      guardStatement(
        db,
        `SELECT t.status = 'successful' AND t.amount >= ? + (SELECT coalesce(SUM(r.amount), 0) FROM refunds r
           WHERE r.business_id = t.business_id AND r.transaction_id = t.id AND r.status IN ('pending_approval', 'sending', 'succeeded')) + (SELECT coalesce(SUM(d.amount), 0) FROM disputes d
           WHERE d.business_id = t.business_id AND d.transaction_id = t.id AND d.status <> 'won')
         FROM transactions t WHERE t.business_id = ? AND t.id = ?`,
        "refundable",
        input.amount,
        tenant.businessId,
        payment.id,
      ),
      db
        .prepare(
          `INSERT INTO refunds (id, business_id, transaction_id, merchant_id, amount, reason, status, idempotency_key, requested_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending_approval', ?, ?, ?)`,
        )
        .bind(id, tenant.businessId, payment.id, payment.merchantId, input.amount, reason.slice(0, 500), input.idempotencyKey, tenant.userId, at),
      db
        .prepare(
          `INSERT INTO approval_requests (id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at, status)
           VALUES (?, ?, 'refund', 'create', ?, NULL, NULL, ?, ?, ?, 'pending')`,
        )
        .bind(requestId, tenant.businessId, id, JSON.stringify(after), tenant.userId, at),
      auditStatement(tenant, meta, { action: "refund.request", entity: "refund", entityId: id, after }, at),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${requestId}_requested`,
          type: "approval.requested",
          at: Date.parse(at),
          data: { approvalRequest: { id: requestId, kind: "refund", action: "create", targetId: id, makerId: tenant.userId, madeAt: at } },
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

function alreadyDecided(status: Refund["status"]): string {
  return status === "rejected" ? "This refund is already rejected." : "This refund is already approved.";
}

async function pendingRefund(tenant: Tenant, refundId: string): Promise<Refund> {
  if (!can(tenant.role, "decide:approval")) throw new ForbiddenError("Your role cannot decide requests.");
  const refund = await getRefund(tenant, refundId);
  if (!refund) throw new NotFoundError("refund");
  if (refund.status !== "pending_approval") throw new RuleError(alreadyDecided(refund.status));
  if (refund.requestedBy === tenant.userId) throw new RuleError("You cannot decide your own request.");
  return refund;
}

/**
 * Approves and posts merchant_available -> refund_payable, all or nothing. The batch's guards read what other
 * batches wrote: D1 runs one batch at a time, so of two approvals racing on one payment the second sees the first.
 */
export async function approveRefund(tenant: Tenant, meta: RequestMeta, refundId: string): Promise<Refund> {
  const { db } = tenant;
  const refund = await pendingRefund(tenant, refundId);
  const at = nowIso();
  const availableAccount = ledgerAccountId(tenant.businessId, { kind: "merchant_available", merchantId: refund.merchantId });
  try {
    await db.batch([
      guardStatement(
        db,
        `SELECT t.status = 'successful' AND t.amount >= ? + (SELECT coalesce(SUM(r.amount), 0) FROM refunds r
           WHERE r.business_id = t.business_id AND r.transaction_id = t.id AND r.status IN ${REFUNDED_STATUSES_SQL}) + (SELECT coalesce(SUM(d.amount), 0) FROM disputes d
           WHERE d.business_id = t.business_id AND d.transaction_id = t.id AND d.status <> 'won')
         FROM transactions t WHERE t.business_id = ? AND t.id = ?`,
        "refundable",
        refund.amount,
        tenant.businessId,
        refund.transactionId,
      ),
      availableGuardStatement(tenant, availableAccount, refund.amount),
      db
        .prepare(
          `UPDATE refunds SET status = 'sending', approved_by = ?, decided_at = ?, next_attempt_at = ?
           WHERE id = ? AND business_id = ? AND status = 'pending_approval'`,
        )
        .bind(tenant.userId, at, at, refund.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE business_id = ? AND kind = 'refund' AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, tenant.businessId, refund.id),
      ...postingStatements(tenant, refundPosting(refund.merchantId, refund.amount), {
        postingId: `pst_${refund.id}`,
        memo: `Refund ${refund.id}`,
        postedAt: Date.parse(at),
        transactionId: refund.transactionId,
      }),
      auditStatement(
        tenant,
        meta,
        {
          action: "refund.approve",
          entity: "refund",
          entityId: refund.id,
          before: { status: "pending_approval" },
          after: { status: "sending", amount: refund.amount },
        },
        at,
      ),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    const fresh = await getRefund(tenant, refund.id);
    if (fresh && fresh.status !== "pending_approval") throw new RuleError(alreadyDecided(fresh.status));
    const { payment, refunded, available } = await refundableOf(tenant, refund.transactionId);
    const refusal = notRefundable(payment);
    if (refusal) throw new RuleError(refusal);
    if (refund.amount > payment.amount - refunded) throw new RuleError(exceedsRefundable(payment.amount - refunded));
    if (refund.amount > available) throw new RuleError(exceedsAvailable(available));
    throw error;
  }
  return (await getRefund(tenant, refund.id))!;
}

export async function rejectRefund(tenant: Tenant, meta: RequestMeta, refundId: string, reason: string): Promise<Refund> {
  const { db } = tenant;
  const trimmed = reason.trim();
  if (trimmed.length < 3) throw new RuleError("Say why the refund is rejected.");
  const refund = await pendingRefund(tenant, refundId);
  const at = nowIso();
  try {
    await db.batch([
      db
        .prepare("UPDATE refunds SET status = 'rejected', approved_by = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending_approval'")
        .bind(tenant.userId, at, refund.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE business_id = ? AND kind = 'refund' AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, trimmed.slice(0, 500), tenant.businessId, refund.id),
      auditStatement(
        tenant,
        meta,
        {
          action: "refund.reject",
          entity: "refund",
          entityId: refund.id,
          before: { status: "pending_approval" },
          after: { status: "rejected", reason: trimmed },
        },
        at,
      ),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    const fresh = await getRefund(tenant, refund.id);
    if (fresh && fresh.status !== "pending_approval") throw new RuleError(alreadyDecided(fresh.status));
    throw error;
  }
  return (await getRefund(tenant, refund.id))!;
}
