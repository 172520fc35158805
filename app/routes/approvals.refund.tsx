// /approvals/refund/{requestId}: a refund request (the sixth kind): the payment, what is already refunded
// and waits for approval, the merchant's available balance now, who asked, when and why; approve (the money leaves
// the merchant's available balance and goes to the processor), or reject with a reason. The maker cannot decide.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { getApprovalRequest } from "#server/approvals/approvals.db";
import { namesOf } from "#server/lists/names.db";
import { approveRefund, refundableOf, rejectRefund } from "#server/refunds/refund-requests.db";
import { getRefund } from "#server/refunds/refunds.db";
import { redirectWithFlash } from "#server/platform/flash";
import { refusalMessage, requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/platform/http";
import { processRefunds, refundPortFor } from "#server/refunds/send";
import { dispatchPendingDeliveries } from "#server/webhooks/dispatch";
import { Details } from "../components/details";
import { StatusPill } from "../components/status-pill";
import { DecideCard, decisionSchema, requestFacts } from "./approvals/money-request";
import { underDecisionCheck } from "./approvals/money-request.server";
import { formatAmount, formatDate } from "../lib/format";
import { paths } from "../lib/paths";
import { statusLabel } from "../lib/statuses";
import { paymentMethod } from "../lib/transactions-view";

async function refundRequest(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { deps, tenant, session } = await requireTenant(request, context, "view:approval");
  const approval = id ? await getApprovalRequest(tenant, id) : null;
  if (!approval || (approval.kind as string) !== "refund") pageNotFound(request);
  const refund = await getRefund(tenant, approval.targetId);
  if (!refund) pageNotFound(request);
  return { deps, tenant, session, approval, refund };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, approval, refund } = await refundRequest(request, context, params.id);
  const { payment, refunded, pending, available } = await refundableOf(tenant, refund.transactionId);
  const names = await namesOf(tenant, "merchant", [payment.merchantId]);
  return {
    ...requestFacts(approval, tenant),
    refund: { amount: refund.amount, reason: refund.reason, status: refund.status, failureReason: refund.failureReason },
    payment: {
      id: payment.id,
      reference: payment.reference,
      merchant: names.get(payment.merchantId) ?? "Unknown merchant",
      method: paymentMethod(payment),
      status: payment.status,
      amount: payment.amount,
      createdAt: payment.createdAt,
    },
    refunded,
    // Other requests waiting, not this one.
    pendingOthers: pending - (refund.status === "pending_approval" ? refund.amount : 0),
    available,
  };
}

const Decision = decisionSchema("refund");

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/submission.ts).
export { clientAction, shouldRevalidate } from "../components/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant, session, approval, refund } = await refundRequest(request, context, params.id);
  requirePermission(tenant, "decide:approval");
  const form = Object.fromEntries(await request.formData());
  const parsed = v.safeParse(Decision, form);
  if (!parsed.success) return refuse({ reason: parsed.issues[0].message });
  const refused = await underDecisionCheck(request, { deps, tenant, session }, approval, form, async () => {
    try {
      if (parsed.output.intent === "approve") await approveRefund(tenant, deps.meta, refund.id);
      else await rejectRefund(tenant, deps.meta, refund.id, parsed.output.reason);
      return null;
    } catch (error) {
      return refuse({ form: refusalMessage(request, error) });
    }
  });
  if (refused) return refused;
  if (parsed.output.intent === "approve") {
    // Sent now, after the answer; the 5-minute cron (functions/worker.ts) retries what fails or is missed.
    const { env, ctx } = context.cloudflare;
    const port = refundPortFor(env);
    const business = { businessId: tenant.businessId, db: tenant.db };
    if (port) {
      ctx.waitUntil(
        processRefunds(business, port, { onlyId: refund.id })
          .then(() => dispatchPendingDeliveries(env, Date.now(), business))
          .catch((error: unknown) => console.error("refund send failed", refund.id, error)),
      );
    }
  }
  throw await redirectWithFlash(request, context.config.app, "/approvals", {
    kind: "success",
    message:
      parsed.output.intent === "approve"
        ? `Refund of GHS ${formatAmount(refund.amount)} approved: it left the merchant's available balance and is on its way to the payer.`
        : "Refund rejected; no money moved.",
  });
}

export default function RefundRequest() {
  const { request, refund, payment, refunded, pendingOthers, available, canDecide, ownRequest } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const tooMuch = refund.amount > payment.amount - refunded;
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to="/approvals">Approvals</Link>
        </p>
        <h1>Refund Request</h1>
        <p className="page__lead">
          <StatusPill entity="approval" status={request.status} />
        </p>
      </header>
      {answer && "errors" in answer && answer.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {answer.errors.form}
        </p>
      ) : null}
      <section className="card" aria-labelledby="refund-heading">
        <h2 id="refund-heading">The refund</h2>
        <Details
          rows={
            [
              ["Amount to refund (GHS)", formatAmount(refund.amount)],
              ["Reason", refund.reason],
              ["Refund status", statusLabel("refund", refund.status)],
              ...(refund.failureReason ? ([["Why it failed", refund.failureReason]] as const) : []),
              ["Asked by", request.maker],
              ["Asked", formatDate(request.madeAt, "stamp")],
              ...(request.decidedAt
                ? ([
                    ["Decided by", request.checker ?? "Unknown"],
                    ["Decided", formatDate(request.decidedAt, "stamp")],
                  ] as const)
                : []),
              ...(request.reason ? ([["Why it was rejected", request.reason]] as const) : []),
            ] as const
          }
        />
      </section>
      <section className="card" aria-labelledby="payment-heading">
        <h2 id="payment-heading">The payment</h2>
        <Details
          rows={[
            ["Reference", payment.reference],
            ["Merchant", payment.merchant],
            ["Channel", payment.method],
            ["Paid", formatDate(payment.createdAt, "stamp")],
            ["Amount (GHS)", formatAmount(payment.amount)],
            ["Already refunded (GHS)", formatAmount(refunded)],
            ["Other refunds waiting for approval (GHS)", formatAmount(pendingOthers)],
            ["Merchant's available balance now (GHS)", formatAmount(available)],
          ]}
        />
        <p>
          <Link to={paths.payment(payment.id)}>Open the payment</Link>
        </p>
        {request.status === "pending" && (tooMuch || payment.status !== "successful") ? (
          <p className="notice notice--warning notice__message">The payment can no longer be refunded by this much: approving it will be refused.</p>
        ) : request.status === "pending" && refund.amount > available ? (
          <p className="notice notice--warning notice__message">The amount is now above the merchant&apos;s available balance: approving it will be refused.</p>
        ) : null}
      </section>
      <DecideCard
        canDecide={canDecide}
        pending={request.status === "pending"}
        ownRequest={ownRequest}
        noun="refund"
        approveLabel="Approve and refund"
        answer={answer}
        busy={busy}
      />
    </div>
  );
}
