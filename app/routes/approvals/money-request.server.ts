// The server half of the money request page (money-request.tsx and the kinds' sections are the shown half): the
// request's row by its kind, what each kind's section shows, the decision's fresh check, and a refund sent at once.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import type { ApprovalRequest } from "#server/approvals/change-kinds";
import { readMoneyRequest, type MoneyRequestRows } from "#server/approvals/money-requests.db";
import type { MoneyRequestKind } from "#server/approvals/change-kinds";
import type { TenantRequest } from "#server/guards";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { namesOf } from "#server/lists/names.db";
import { refundableOf } from "#server/refunds/refund-requests.db";
import { processRefunds } from "#server/refunds/send";
import { refundPortFor } from "#server/rails/ports";
import { errorText, logEvent } from "#server/platform/log";
import type { Tenant } from "#server/tenancy/tenant";
import { dispatchPendingDeliveries } from "#server/webhooks/dispatch";
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

/** An approved refund is sent now, after the answer; the 5-minute cron (functions/worker.ts) retries what fails or is missed. */
export function sendApprovedRefund(context: AppLoadContext, tenant: Tenant, refundId: string): void {
  const { env, ctx } = context.cloudflare;
  const port = refundPortFor(env, context.config.rails);
  const business = { businessId: tenant.businessId, db: tenant.db };
  if (port) {
    ctx.waitUntil(
      processRefunds(business, port, { onlyId: refundId })
        .then(() => dispatchPendingDeliveries(env, Date.now(), business))
        .catch((error: unknown) => logEvent("error", "refunds.send_failed", { refundId, error: errorText(error) })),
    );
  }
}

/** A decision runs under a fresh check made for this very request. */
export function underDecisionCheck<T>(
  request: Request,
  signedIn: TenantRequest,
  approval: ApprovalRequest,
  form: Record<string, unknown>,
  act: () => Promise<T>,
) {
  return underFreshCheck(request, signedIn, checkBindings.decision(approval.id), form, act);
}
