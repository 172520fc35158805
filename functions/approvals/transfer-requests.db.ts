// Transfers of a merchant's available money, to its own settlement account or to another merchant account of the
// business: a money request. A Finance person (or an administrator) asks here; another person with decide:approval
// approves through the decision core with TRANSFER_DECISION below, and only then does the ledger move, in one D1 batch
// that re-checks the available balance. An idempotency key makes a double submit one request; a second approval finds
// nothing pending.
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { getMerchantBalances } from "../ledger/ledger.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { approvalRequestView, transferView } from "../webhooks/views";
import { ForbiddenError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { formatPesewas } from "../ledger/money";
import { ledgerAccountId, merchantTransferPosting, settlementPosting } from "../ledger/ledger";
import { postingStatements } from "../ledger/ledger.db";
import { getTransfer, type Transfer } from "../ledger/transfers.db";
import { availableGuardStatement } from "../settlement/settlement-runs.db";
import { payoutAccountActive, transferPayoutId, transferPayoutStatements } from "../settlement/transfer-payouts.db";
import { processPayouts } from "../settlement/payouts";
import { payoutPortFor } from "../rails/ports";
import { errorText, logEvent } from "../plumbing/log";
import { dispatchPendingDeliveries } from "../webhooks/dispatch";
import { moneyDecision, type MoneyDecided } from "./money-decision.db";

export type TransferTarget = { kind: "settlement_account"; id: string } | { kind: "merchant"; id: string };

export interface TransferInput {
  fromMerchantId: string;
  to: TransferTarget;
  /** Pesewas. */
  amount: number;
  /** The asker's one line (the form's narrationField), or null. */
  narration?: string | null;
  /** From the form that asked: the same key twice is the same request. */
  idempotencyKey: string;
}

/** SPEC section 5's "exceeds a limit", said of a balance. */
export function exceedsAvailable(available: number): string {
  return `This amount exceeds the available balance of GHS ${formatPesewas(available)}.`;
}

/** Makes the request (transfer pending_approval + an approval_requests row for the queue); returns the transfer id. */
export async function requestTransfer(tenant: Tenant, meta: RequestMeta, input: TransferInput): Promise<{ id: string; duplicate: boolean }> {
  const { db } = tenant;
  if (!can(tenant.role, "request:transfer")) throw new ForbiddenError("Your role cannot ask for transfers.");
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new RuleError("Enter an amount above zero.");
  const existing = await db
    .prepare("SELECT id FROM transfers WHERE business_id = ? AND idempotency_key = ?")
    .bind(tenant.businessId, input.idempotencyKey)
    .first<{ id: string }>();
  if (existing) return { id: existing.id, duplicate: true };
  const from = await db
    .prepare("SELECT id, name FROM merchants WHERE id = ? AND business_id = ? AND status = 'active'")
    .bind(input.fromMerchantId, tenant.businessId)
    .first<{ id: string; name: string }>();
  if (!from) throw new RuleError("Choose an active merchant account to transfer from.");
  let toLabel: string;
  if (input.to.kind === "settlement_account") {
    const account = await db
      .prepare("SELECT id, provider, account_number FROM settlement_accounts WHERE id = ? AND business_id = ? AND merchant_id = ? AND status = 'active'")
      .bind(input.to.id, tenant.businessId, from.id)
      .first<{ id: string; provider: string; account_number: string }>();
    if (!account) throw new RuleError("Choose one of this merchant's active settlement accounts.");
    toLabel = `${account.provider} ${account.account_number}`;
  } else {
    if (input.to.id === from.id) throw new RuleError("Choose another merchant account to transfer to.");
    const merchant = await db
      .prepare("SELECT id, name FROM merchants WHERE id = ? AND business_id = ? AND status = 'active'")
      .bind(input.to.id, tenant.businessId)
      .first<{ id: string; name: string }>();
    if (!merchant) throw new RuleError("Choose an active merchant account to transfer to.");
    toLabel = merchant.name;
  }
  const { available } = await getMerchantBalances(tenant, from.id);
  if (input.amount > available) throw new RuleError(exceedsAvailable(available));

  const id = `trf_${crypto.randomUUID()}`;
  const requestId = `req_${crypto.randomUUID()}`;
  const at = nowIso();
  const after = {
    from_merchant_id: from.id,
    from_merchant: from.name,
    to_kind: input.to.kind,
    to_id: input.to.id,
    to: toLabel,
    amount: input.amount,
    narration: input.narration ?? null,
  };
  try {
    await db.batch([
      db
        .prepare(
          `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, to_merchant_id, amount, narration, status, idempotency_key, requested_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending_approval', ?, ?, ?)`,
        )
        .bind(
          id,
          tenant.businessId,
          from.id,
          input.to.kind === "settlement_account" ? input.to.id : null,
          input.to.kind === "merchant" ? input.to.id : null,
          input.amount,
          input.narration ?? null,
          input.idempotencyKey,
          tenant.userId,
          at,
        ),
      db
        .prepare(
          `INSERT INTO approval_requests (id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at, status)
           VALUES (?, ?, 'transfer', 'create', ?, NULL, NULL, ?, ?, ?, 'pending')`,
        )
        .bind(requestId, tenant.businessId, id, JSON.stringify(after), tenant.userId, at),
      auditStatement(tenant, meta, { action: "transfer.request", entity: "transfer", entityId: id, after }, at),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${requestId}_requested`,
          type: "approval.requested",
          at: Date.parse(at),
          data: approvalRequestView({ id: requestId, kind: "transfer", action: "create", targetId: id, makerId: tenant.userId, madeAt: at }),
        },
      ]),
    ]);
  } catch (error) {
    // The same form submitted twice at once: the other submit made it.
    if (error instanceof Error && error.message.includes("UNIQUE constraint failed") && error.message.includes("idempotency_key")) {
      const made = await db
        .prepare("SELECT id FROM transfers WHERE business_id = ? AND idempotency_key = ?")
        .bind(tenant.businessId, input.idempotencyKey)
        .first<{ id: string }>();
      if (made) return { id: made.id, duplicate: true };
    }
    throw error;
  }
  return { id, duplicate: false };
}

// ---------------------------------------------------------------- deciding

/** A decided transfer as its webhook event carries it (functions/webhooks/views.ts): an approved payout names its settlement. */
function transferData(transfer: Transfer, decided: MoneyDecided) {
  const approved = decided.status !== "rejected";
  return transferView(transfer, {
    ...decided,
    status: approved ? "completed" : "rejected",
    settlementId: approved && transfer.toSettlementAccountId ? transferPayoutId(transfer.id) : null,
  });
}

const ACCOUNT_CLOSED =
  "This transfer could not be approved: the settlement account it pays out to is no longer active. Nothing moved; reject it and ask again to an active account.";

/**
 * Money leaves the merchant's available balance for another merchant account or its own settlement account. A payout
 * to the settlement account is a settlement of its own (decision 052), written with the approval and sent at once
 * after it through the payout rail; the five-minute job retries what fails and the daily run what is left.
 */
export const TRANSFER_DECISION = moneyDecision<Transfer>({
  kind: "transfer",
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
  approvalRecords: (tenant, transfer, at) =>
    transfer.toSettlementAccountId ? transferPayoutStatements(tenant, { ...transfer, toSettlementAccountId: transfer.toSettlementAccountId }, at) : [],
  async whyNotApproved(tenant, transfer) {
    const { available } = await getMerchantBalances(tenant, transfer.fromMerchantId);
    if (available < transfer.amount) return exceedsAvailable(available);
    if (transfer.toSettlementAccountId && !(await payoutAccountActive(tenant, transfer.fromMerchantId, transfer.toSettlementAccountId))) return ACCOUNT_CLOSED;
    return null;
  },
  notApplied: "This transfer could not be applied: the merchant's money changed while you decided. Nothing moved, and it still waits for a decision.",
  events: { approved: "transfer.approved", rejected: "transfer.rejected", describe: transferData },
  afterApproval({ tenant, context }, transfer) {
    if (!context || !transfer.toSettlementAccountId) return;
    const { env, ctx } = context.cloudflare;
    const port = payoutPortFor(env, context.config.rails);
    if (!port) return;
    const business = { businessId: tenant.businessId, db: tenant.db };
    const settlementId = transferPayoutId(transfer.id);
    ctx.waitUntil(
      processPayouts(business, port, { onlyId: settlementId })
        .then(() => dispatchPendingDeliveries(env, Date.now(), business))
        .catch((error: unknown) => logEvent("error", "payouts.send_failed", { settlementId, error: errorText(error) })),
    );
  },
});
