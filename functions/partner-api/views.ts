// The payment as the Partner API answers it (GET /api/v1/payments/{reference},
// and the data of payment.* webhooks): snake_case, pesewas, ISO times in UTC.
import type { StoredPayment } from "../payments/api-payments.db";
import type { Refund } from "../refunds/refunds.db";
import type { PaymentView } from "./schemas";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function paymentView(p: StoredPayment): PaymentView {
  return {
    reference: p.reference,
    merchant: { id: p.merchantId, code: p.merchantCode },
    point_of_sale: p.pointOfSaleId,
    terminal_serial: p.terminalSerial,
    channel: p.channel,
    network: p.network as PaymentView["network"],
    payer: p.channel === "card" ? { card_bin: p.cardBin ?? "", card_last4: p.cardLast4 ?? "" } : { msisdn: p.msisdn ?? "" },
    amount: p.amount,
    currency: "GHS",
    // A failed payment moved no money: no fee is charged and nothing is owed. 0, not null, so the
    // fields keep one type for every status; `status` says why.
    fee: p.status === "failed" ? 0 : p.fee,
    net: p.status === "failed" ? 0 : p.amount - p.fee,
    status: p.status,
    failure_reason: p.failureReason,
    occurred_at: new Date(p.createdAt).toISOString(),
    cleared: p.clearedAt !== null,
    cleared_at: iso(p.clearedAt),
    reversal: p.status === "reversed" && p.reversedAt !== null ? { reason: p.reversalReason ?? "", reversed_at: new Date(p.reversedAt).toISOString() } : null,
    settlement:
      p.settlementId && p.settlementReference && p.settlementStatus
        ? { id: p.settlementId, reference: p.settlementReference, status: p.settlementStatus, paid_at: p.settlementPaidAt }
        : null,
  };
}

/** A payment's refunds as GET /api/v1/payments/{reference} adds them. */
export function refundsView(refunds: readonly Refund[]): Required<Pick<PaymentView, "refunded" | "refunds">> {
  return {
    refunded: refunds.filter((r) => r.status === "sending" || r.status === "succeeded").reduce((sum, r) => sum + r.amount, 0),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: r.amount,
      currency: "GHS",
      status: r.status,
      reason: r.reason,
      requested_at: r.createdAt,
      decided_at: r.decidedAt,
      completed_at: r.completedAt,
      failure_reason: r.failureReason,
    })),
  };
}
