// Deciding the requests that move money: a transfer, a refund. They are maker-checker requests like the kinds of
// change-kinds.ts, but their row (a transfer, a refund) is made with the request and carries its own status, so a
// decision is guarded by that row still being pending_approval, and an approval by what the money allows at that
// moment, both inside the batch. MONEY_SPECS says what differs between the kinds; approveMoneyRequest and
// rejectMoneyRequest take the same steps for both: the checker's permission, the maker never deciding, the
// already-decided refusal, the status change, the request's decision, the audit entry, the webhook event and one
// D1 batch, all or nothing.
import { clearBatchGuardsStatement, guardStatement, isConstraintRefusal } from "../platform/batch-guards.db";
import { ledgerAccountId, merchantTransferPosting, refundPosting, settlementPosting } from "../ledger/ledger";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { availableGuardStatement } from "../settlement/settlement-runs.db";
import { getMerchantBalances, postingStatements } from "../ledger/ledger.db";
import { getTransfer, type Transfer } from "../ledger/transfers.db";
import { getRefund, type Refund } from "../refunds/refunds.db";
import { refundableGuardStatement, whyRefundNotApproved } from "../refunds/refund-requests.db";
import { exceedsAvailable } from "./transfer-requests.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import type { WebhookEventType } from "../webhooks/types";
import { transferView } from "../webhooks/views";
import type { MoneyRequestKind } from "./change-kinds";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";

/** The row each kind's request decides. */
export interface MoneyRequestRows {
  transfer: Transfer;
  refund: Refund;
}

/** What the engine reads of any money request's row. */
interface MoneyRow {
  id: string;
  /** Pesewas. */
  amount: number;
  status: string;
  requestedBy: string;
}

/** Who decided, and when, as a decision's webhook event says it (with the reason of a rejection). */
interface Decided {
  status: string;
  decidedBy: string;
  decidedAt: string;
  reason?: string;
}

interface MoneyRequestSpec<Row extends MoneyRow> {
  /** The table of the rows; the kind is also the audit entity and the noun in messages. */
  table: "transfers" | "refunds";
  read(tenant: Tenant, id: string): Promise<Row | null>;
  /** What deciding an id that is not this business's says. */
  missing(): Error;
  alreadyDecided(status: Row["status"]): string;
  approved: {
    status: Row["status"];
    /** Approved rows the sender picks up at once: next_attempt_at is set to the decision's time. */
    dueForSending: boolean;
  };
  /** Guard rows ahead of the status change: what the money must still allow when the batch runs. */
  approvalGuards(tenant: Tenant, row: Row): D1PreparedStatement[];
  /** What an approval moves on the ledger, after the request's decision. */
  approvalPostings(tenant: Tenant, row: Row, at: string): D1PreparedStatement[];
  /** After an approval's batch rolled back: the rule it broke now, in the words of the field, or null. */
  whyNotApproved(tenant: Tenant, row: Row): Promise<string | null>;
  /** A decision D1 refused for a reason whyNotApproved cannot name (the money moved and moved back meanwhile): nothing was written. */
  notApplied: string;
  /** The webhook event each decision writes, and its data (the row as decided); null: the kind's decisions write none. */
  events: { approved: WebhookEventType; rejected: WebhookEventType; describe(row: Row, decided: Decided): unknown } | null;
}

/** A decided transfer as its webhook event carries it (functions/partner-api/views.ts). */
function transferData(transfer: Transfer, decided: Decided) {
  return transferView(transfer, { ...decided, status: decided.status === "rejected" ? "rejected" : "completed" });
}

const MONEY_SPECS: { [K in MoneyRequestKind]: MoneyRequestSpec<MoneyRequestRows[K]> } = {
  // Money leaves the merchant's available balance for another merchant account or its own settlement account.
  transfer: {
    table: "transfers",
    read: getTransfer,
    missing: () => new RuleError("There is no such transfer."),
    alreadyDecided: (status) => `This transfer is already ${status.replace("_", " ")}.`,
    approved: { status: "completed", dueForSending: false },
    approvalGuards: (tenant, transfer) => [
      availableGuardStatement(tenant, ledgerAccountId(tenant.businessId, { kind: "merchant_available", merchantId: transfer.fromMerchantId }), transfer.amount),
    ],
    approvalPostings: (tenant, transfer, at) =>
      postingStatements(
        tenant,
        transfer.toMerchantId
          ? merchantTransferPosting(transfer.fromMerchantId, transfer.toMerchantId, transfer.amount)
          : settlementPosting(transfer.fromMerchantId, transfer.amount),
        { postingId: `pst_${transfer.id}`, memo: `Transfer ${transfer.id}`, postedAt: Date.parse(at), transferId: transfer.id },
      ),
    async whyNotApproved(tenant, transfer) {
      const { available } = await getMerchantBalances(tenant, transfer.fromMerchantId);
      return available < transfer.amount ? exceedsAvailable(available) : null;
    },
    notApplied: "This transfer could not be applied: the merchant's money changed while you decided. Nothing moved, and it still waits for a decision.",
    events: { approved: "transfer.approved", rejected: "transfer.rejected", describe: transferData },
  },
  // Money leaves the merchant's available balance for the processor, which gives it back to the payer (functions/refunds/send.ts).
  refund: {
    table: "refunds",
    read: getRefund,
    missing: () => new NotFoundError("refund"),
    alreadyDecided: (status) => (status === "rejected" ? "This refund is already rejected." : "This refund is already approved."),
    approved: { status: "sending", dueForSending: true },
    // D1 runs one batch at a time, so of two approvals racing on one payment the second sees the first's refund.
    approvalGuards: (tenant, refund) => [
      refundableGuardStatement(tenant, refund.transactionId, refund.amount, "refunded"),
      availableGuardStatement(tenant, ledgerAccountId(tenant.businessId, { kind: "merchant_available", merchantId: refund.merchantId }), refund.amount),
    ],
    approvalPostings: (tenant, refund, at) =>
      postingStatements(tenant, refundPosting(refund.merchantId, refund.amount), {
        postingId: `pst_${refund.id}`,
        memo: `Refund ${refund.id}`,
        postedAt: Date.parse(at),
        transactionId: refund.transactionId,
      }),
    whyNotApproved: (tenant, refund) => whyRefundNotApproved(tenant, refund),
    notApplied: "This refund could not be applied: the payment's money changed while you decided. Nothing moved, and it still waits for a decision.",
    // A refund's events are of its sending: refund.succeeded and refund.failed (functions/refunds/send.ts).
    events: null,
  },
};

/** The row a money request decides, by the row's id (a request's target), in this business. */
export function readMoneyRequest<K extends MoneyRequestKind>(tenant: Tenant, kind: K, id: string): Promise<MoneyRequestRows[K] | null> {
  return MONEY_SPECS[kind].read(tenant, id);
}

/** The row, if this person may decide it now: a checker, not its maker, while it is pending. */
async function pendingForDecision<Row extends MoneyRow>(tenant: Tenant, spec: MoneyRequestSpec<Row>, id: string): Promise<Row> {
  if (!can(tenant.role, "decide:approval")) throw new ForbiddenError("Your role cannot decide requests.");
  const row = await spec.read(tenant, id);
  if (!row) throw spec.missing();
  if (row.status !== "pending_approval") throw new RuleError(spec.alreadyDecided(row.status));
  if (row.requestedBy === tenant.userId) throw new RuleError("You cannot decide your own request.");
  return row;
}

/** The decision's webhook event, when the kind writes one. */
function decisionEvents<Row extends MoneyRow>(tenant: Tenant, spec: MoneyRequestSpec<Row>, row: Row, decided: Decided): D1PreparedStatement[] {
  if (!spec.events) return [];
  const verb = decided.status === "rejected" ? "rejected" : "approved";
  return webhookEventStatements(tenant, [
    { id: `evt_${row.id}_${verb}`, type: spec.events[verb], at: Date.parse(decided.decidedAt), data: spec.events.describe(row, decided) },
  ]);
}

/** After a batch rolled back: another checker decided it meanwhile, said as such. */
async function refuseIfDecidedMeanwhile<Row extends MoneyRow>(tenant: Tenant, spec: MoneyRequestSpec<Row>, id: string): Promise<void> {
  const fresh = await spec.read(tenant, id);
  if (fresh && fresh.status !== "pending_approval") throw new RuleError(spec.alreadyDecided(fresh.status));
}

/**
 * Approves and moves the money, all or nothing: the kind's guards re-check what the money allows inside the batch
 * (it may have moved since the request), then the row and its request are marked, the posting written and audited.
 */
export async function approveMoneyRequest<K extends MoneyRequestKind>(tenant: Tenant, meta: RequestMeta, kind: K, id: string): Promise<MoneyRequestRows[K]> {
  const { db } = tenant;
  const spec: MoneyRequestSpec<MoneyRequestRows[K]> = MONEY_SPECS[kind];
  const row = await pendingForDecision(tenant, spec, id);
  const at = nowIso();
  const status = spec.approved.status;
  const due = spec.approved.dueForSending ? ", next_attempt_at = ?" : "";
  try {
    await db.batch([
      ...spec.approvalGuards(tenant, row),
      db
        .prepare(`UPDATE ${spec.table} SET status = ?, approved_by = ?, decided_at = ?${due} WHERE id = ? AND business_id = ? AND status = 'pending_approval'`)
        .bind(status, tenant.userId, at, ...(due ? [at] : []), row.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE business_id = ? AND kind = ? AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, tenant.businessId, kind, row.id),
      ...spec.approvalPostings(tenant, row, at),
      auditStatement(
        tenant,
        meta,
        { action: `${kind}.approve`, entity: kind, entityId: row.id, before: { status: "pending_approval" }, after: { status, amount: row.amount } },
        at,
      ),
      ...decisionEvents(tenant, spec, row, { status, decidedBy: tenant.userId, decidedAt: at }),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    await refuseIfDecidedMeanwhile(tenant, spec, row.id);
    const broken = await spec.whyNotApproved(tenant, row);
    if (broken) throw new RuleError(broken);
    // Never a 500 for a decision the rules refused: the checker reads why on the request's page, which stays pending.
    if (isConstraintRefusal(error)) throw new RuleError(spec.notApplied);
    throw error;
  }
  return (await spec.read(tenant, row.id))!;
}

/** Rejects with the reason the maker will read; nothing moves. */
export async function rejectMoneyRequest<K extends MoneyRequestKind>(
  tenant: Tenant,
  meta: RequestMeta,
  kind: K,
  id: string,
  reason: string,
): Promise<MoneyRequestRows[K]> {
  const { db } = tenant;
  const spec: MoneyRequestSpec<MoneyRequestRows[K]> = MONEY_SPECS[kind];
  const trimmed = reason.trim();
  if (trimmed.length < 3) throw new RuleError(`Say why the ${kind} is rejected.`);
  const row = await pendingForDecision(tenant, spec, id);
  const at = nowIso();
  try {
    await db.batch([
      db
        .prepare(
          `UPDATE ${spec.table} SET status = 'rejected', approved_by = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending_approval'`,
        )
        .bind(tenant.userId, at, row.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE business_id = ? AND kind = ? AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, trimmed.slice(0, 500), tenant.businessId, kind, row.id),
      auditStatement(
        tenant,
        meta,
        { action: `${kind}.reject`, entity: kind, entityId: row.id, before: { status: "pending_approval" }, after: { status: "rejected", reason: trimmed } },
        at,
      ),
      ...decisionEvents(tenant, spec, row, { status: "rejected", decidedBy: tenant.userId, decidedAt: at, reason: trimmed }),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    await refuseIfDecidedMeanwhile(tenant, spec, row.id);
    if (isConstraintRefusal(error)) throw new RuleError(`This ${kind} could not be rejected now. Nothing changed, and it still waits for a decision.`);
    throw error;
  }
  return (await spec.read(tenant, row.id))!;
}
