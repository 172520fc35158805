// The server half of the money request page (money-request.tsx and the kinds' sections are the shown half): the
// request's row by its kind and what each kind's section shows. Deciding it, and what follows (a refund sent at once),
// is the decision core's with the kind's spec (functions/decisions/business.ts).
import type { ApprovalRequest } from "#server/approvals/change-kinds";
import { readMoneyRequest, type MoneyRequestRows } from "#server/approvals/money-requests.db";
import type { MoneyRequestKind } from "#server/approvals/change-kinds";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { namesOf } from "#server/lists/names.db";
import { refundableOf } from "#server/refunds/refund-requests.db";
import type { Tenant } from "#server/tenancy/tenant";
import { refundedPaymentView } from "#app/lib/transactions-view";
import { railViewOf } from "#app/lib/rails";
import type { RefundFacts } from "./refund-request";
import type { TransferFacts } from "./transfer-request";

/** A money request's row, told apart by its kind. */
export type MoneyTarget = { kind: "transfer"; row: MoneyRequestRows["transfer"] } | { kind: "refund"; row: MoneyRequestRows["refund"] };

export async function moneyTargetOf(tenant: Tenant, kind: MoneyRequestKind, id: string): Promise<MoneyTarget | null> {
  if (kind === "transfer") {
    const row = await readMoneyRequest(tenant, kind, id);
    return row && { kind, row };
  }
  const row = await readMoneyRequest(tenant, kind, id);
  return row && { kind, row };
}

export async function transferFacts(tenant: Tenant, approval: ApprovalRequest, transfer: MoneyRequestRows["transfer"]): Promise<TransferFacts> {
  const balances = await getMerchantBalances(tenant, transfer.fromMerchantId);
  const after = approval.after;
  return {
    transfer: {
      from: String(after.from_merchant ?? ""),
      to: String(after.to ?? ""),
      toKind: after.to_kind === "settlement_account" ? "Settlement account" : "Merchant account",
      amount: transfer.amount,
      narration: transfer.narration,
      fromMerchantId: transfer.fromMerchantId,
    },
    available: balances.available,
  };
}

export async function refundFacts(tenant: Tenant, refund: MoneyRequestRows["refund"]): Promise<RefundFacts> {
  const { payment, refunded, pending, available } = await refundableOf(tenant, refund.transactionId);
  const names = await namesOf(tenant, "merchant", [payment.merchantId]);
  return {
    refund: { amount: refund.amount, reason: refund.reason, status: refund.status, failureReason: refund.failureReason, rail: railViewOf(refund) },
    payment: refundedPaymentView(payment, names.get(payment.merchantId)),
    refunded,
    pendingOthers: pending - (refund.status === "pending_approval" ? refund.amount : 0),
    available,
  };
}
