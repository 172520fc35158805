// A refund request's sections of the money request page: the refund (amount, reason, how its sending goes, the rail
// it went through with the rail's own reference and status) and the payment it gives back (what is already refunded
// or waits, and the merchant's available balance now).
import { Link } from "@remix-run/react";
import { Details } from "#app/components/details";
import { detailDate, formatAmount } from "#app/lib/format";
import { paths } from "#app/lib/paths";
import { statusLabel } from "#app/lib/statuses";
import type { RefundStatus } from "#server/refunds/refunds.db";
import type { refundedPaymentView } from "#app/lib/transactions-view";
import { railRows, RailWaiting } from "#app/components/rail-facts";
import type { RailView } from "#app/lib/rails";
import { decisionRows, type ShownRequest } from "./money-request";

/** What the page shows of a refund and its payment (money-request.server.ts reads it); amounts in pesewas. */
export interface RefundFacts {
  refund: { amount: number; reason: string; status: RefundStatus; failureReason: string | null; rail: RailView | null };
  payment: ReturnType<typeof refundedPaymentView>;
  refunded: number;
  /** Other requests waiting, not this one. */
  pendingOthers: number;
  available: number;
}

export function RefundSection({ request, refund, payment, refunded, pendingOthers, available }: RefundFacts & { request: ShownRequest }) {
  const tooMuch = refund.amount > payment.amount - refunded;
  return (
    <>
      <section className="card" aria-labelledby="refund-heading">
        <h2 id="refund-heading">The refund</h2>
        <Details
          rows={[
            ["Amount to refund (GHS)", formatAmount(refund.amount)],
            ["Reason", refund.reason],
            ["Refund status", statusLabel("refund", refund.status)],
            ...(refund.failureReason ? ([["Why it failed", refund.failureReason]] as const) : []),
            ...railRows(refund.rail),
            ...decisionRows(request, "Why it was rejected"),
          ]}
        />
        <RailWaiting view={refund.rail} />
      </section>
      <section className="card" aria-labelledby="payment-heading">
        <h2 id="payment-heading">The payment</h2>
        <Details
          rows={[
            ["Reference", <span className="code">{payment.reference}</span>],
            ["Merchant", payment.merchant],
            ["Channel", payment.method],
            ["Paid", detailDate(payment.createdAt)],
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
    </>
  );
}
