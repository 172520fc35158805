// Transfers of a merchant's available money, to its own settlement account or
// to another merchant account of the business: the fifth kind of approval
// request. A Finance person (or an administrator) asks; another person with
// decide:approval approves, and only then does the ledger move, in one D1
// batch that re-checks the available balance. An idempotency key makes a
// double submit one request; a second approval finds nothing pending.
import { clearBatchGuardsStatement, guardStatement } from "../platform/batch-guards.db";
import { merchantTransferPosting, settlementPosting, ledgerAccountId } from "../ledger/ledger";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { getMerchantBalances, postingStatements } from "../ledger/ledger.db";
import { getTransfer, type Transfer } from "../ledger/transfers.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { ForbiddenError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { formatPesewas } from "../ledger/money";

export type TransferTarget = { kind: "settlement_account"; id: string } | { kind: "merchant"; id: string };

export interface TransferInput {
  fromMerchantId: string;
  to: TransferTarget;
  /** Pesewas. */
  amount: number;
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
  };
  try {
    await db.batch([
      db
        .prepare(
          `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, to_merchant_id, amount, status, idempotency_key, requested_by, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'pending_approval', ?, ?, ?)`,
        )
        .bind(
          id,
          tenant.businessId,
          from.id,
          input.to.kind === "settlement_account" ? input.to.id : null,
          input.to.kind === "merchant" ? input.to.id : null,
          input.amount,
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
          data: { approvalRequest: { id: requestId, kind: "transfer", action: "create", targetId: id, makerId: tenant.userId, madeAt: at } },
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

/** A transfer as webhooks describe it (docs/webhooks.md). */
function transferData(transfer: Transfer, status: Transfer["status"], decidedBy: string, decidedAt: string) {
  return {
    id: transfer.id,
    fromMerchantId: transfer.fromMerchantId,
    toMerchantId: transfer.toMerchantId,
    toSettlementAccountId: transfer.toSettlementAccountId,
    amount: transfer.amount,
    currency: "GHS",
    status,
    requestedBy: transfer.requestedBy,
    decidedBy,
    decidedAt,
  };
}

async function pendingTransfer(tenant: Tenant, transferId: string): Promise<Transfer> {
  if (!can(tenant.role, "decide:approval")) throw new ForbiddenError("Your role cannot decide requests.");
  const transfer = await getTransfer(tenant, transferId);
  if (!transfer) throw new RuleError("There is no such transfer.");
  if (transfer.status !== "pending_approval") throw new RuleError(`This transfer is already ${transfer.status.replace("_", " ")}.`);
  if (transfer.requestedBy === tenant.userId) throw new RuleError("You cannot decide your own request.");
  return transfer;
}

/**
 * Approves and posts: the available balance is checked again inside the batch
 * (money may have moved since the request), the transfer and its request are
 * marked, and the posting is written, all or nothing.
 */
export async function approveTransfer(tenant: Tenant, meta: RequestMeta, transferId: string): Promise<Transfer> {
  const { db } = tenant;
  const transfer = await pendingTransfer(tenant, transferId);
  const at = nowIso();
  const lines = transfer.toMerchantId
    ? merchantTransferPosting(transfer.fromMerchantId, transfer.toMerchantId, transfer.amount)
    : settlementPosting(transfer.fromMerchantId, transfer.amount);
  const availableAccount = ledgerAccountId(tenant.businessId, { kind: "merchant_available", merchantId: transfer.fromMerchantId });
  try {
    await db.batch([
      guardStatement(
        db,
        "SELECT 0 - coalesce((SELECT entry_sum FROM ledger_accounts WHERE business_id = ? AND id = ?), 0) >= ?",
        "available balance",
        tenant.businessId,
        availableAccount,
        transfer.amount,
      ),
      db
        .prepare("UPDATE transfers SET status = 'completed', approved_by = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending_approval'")
        .bind(tenant.userId, at, transfer.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE business_id = ? AND kind = 'transfer' AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, tenant.businessId, transfer.id),
      ...postingStatements(tenant, lines, {
        postingId: `pst_${transfer.id}`,
        memo: `Transfer ${transfer.id}`,
        postedAt: Date.parse(at),
        transferId: transfer.id,
      }),
      auditStatement(
        tenant,
        meta,
        {
          action: "transfer.approve",
          entity: "transfer",
          entityId: transfer.id,
          before: { status: "pending_approval" },
          after: { status: "completed", amount: transfer.amount },
        },
        at,
      ),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${transfer.id}_approved`,
          type: "transfer.approved",
          at: Date.parse(at),
          data: { transfer: transferData(transfer, "completed", tenant.userId, at) },
        },
      ]),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    const fresh = await getTransfer(tenant, transfer.id);
    if (fresh && fresh.status !== "pending_approval") throw new RuleError(`This transfer is already ${fresh.status.replace("_", " ")}.`);
    const { available } = await getMerchantBalances(tenant, transfer.fromMerchantId);
    if (available < transfer.amount) throw new RuleError(exceedsAvailable(available));
    throw error;
  }
  return (await getTransfer(tenant, transfer.id))!;
}

export async function rejectTransfer(tenant: Tenant, meta: RequestMeta, transferId: string, reason: string): Promise<Transfer> {
  const { db } = tenant;
  const trimmed = reason.trim();
  if (trimmed.length < 3) throw new RuleError("Say why the transfer is rejected.");
  const transfer = await pendingTransfer(tenant, transferId);
  const at = nowIso();
  try {
    await db.batch([
      db
        .prepare("UPDATE transfers SET status = 'rejected', approved_by = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending_approval'")
        .bind(tenant.userId, at, transfer.id, tenant.businessId),
      guardStatement(db, "SELECT changes() = 1", "still pending"),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE business_id = ? AND kind = 'transfer' AND target_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, trimmed.slice(0, 500), tenant.businessId, transfer.id),
      auditStatement(
        tenant,
        meta,
        {
          action: "transfer.reject",
          entity: "transfer",
          entityId: transfer.id,
          before: { status: "pending_approval" },
          after: { status: "rejected", reason: trimmed },
        },
        at,
      ),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${transfer.id}_rejected`,
          type: "transfer.rejected",
          at: Date.parse(at),
          data: { transfer: { ...transferData(transfer, "rejected", tenant.userId, at), reason: trimmed } },
        },
      ]),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    const fresh = await getTransfer(tenant, transfer.id);
    if (fresh && fresh.status !== "pending_approval") throw new RuleError(`This transfer is already ${fresh.status.replace("_", " ")}.`);
    throw error;
  }
  return (await getTransfer(tenant, transfer.id))!;
}
