// Deciding a refund request (docs/decisions/022-refunds.md) through the decision core: an administrator who did not ask
// approves, and in one D1 batch the payment is checked again (still successful, its refunds within its amount: two
// approvals racing cannot both pass) and the merchant's available money with it. An approved refund is then sent at
// once, after the answer; the 5-minute cron (functions/worker.ts) retries what fails or is missed.
import { ledgerAccountId, refundPosting } from "../ledger/ledger";
import { postingStatements } from "../ledger/ledger.db";
import { availableGuardStatement } from "../settlement/settlement-runs.db";
import { moneyDecision } from "../approvals/money-decision.db";
import { refundPortFor } from "../rails/ports";
import { errorText, logEvent } from "../plumbing/log";
import { NotFoundError } from "../tenancy/tenant";
import { dispatchPendingDeliveries } from "../webhooks/dispatch";
import { refundableGuardStatement, whyRefundNotApproved } from "./refund-requests.db";
import { getRefund, type Refund } from "./refunds.db";
import { processRefunds } from "./send";

/** Money leaves the merchant's available balance for the processor, which gives it back to the payer (send.ts). */
export const REFUND_DECISION = moneyDecision<Refund>({
  kind: "refund",
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
  // A refund's events are of its sending: refund.succeeded and refund.failed (send.ts).
  events: null,
  afterApproval({ tenant, context }, refund) {
    if (!context) return;
    const { env, ctx } = context.cloudflare;
    const port = refundPortFor(env, context.config.rails);
    const business = { businessId: tenant.businessId, db: tenant.db };
    if (port) {
      ctx.waitUntil(
        processRefunds(business, port, { onlyId: refund.id })
          .then(() => dispatchPendingDeliveries(env, Date.now(), business))
          .catch((error: unknown) => logEvent("error", "refunds.send_failed", { refundId: refund.id, error: errorText(error) })),
      );
    }
  },
});
