// How a payment is shown: the payer as BIN and last four or a masked phone,
// the ledger accounts in words. Shared by the list, the detail and the CSV.
import { networkLabel } from "./format";
import { maskPhone } from "#app/lib/forms/phone";
import type { Channel } from "#server/ledger/pricing";
import type { Transaction } from "#server/payments/transactions.db";

export const NETWORKS = ["MTN", "Telecel", "AirtelTigo", "VISA", "MASTERCARD", "GHLINK"] as const;
export const TRANSACTION_STATUSES = ["successful", "failed", "reversed"] as const;

export function payerOf(t: { channel: Channel; cardBin: string | null; cardLast4: string | null; customerMsisdn: string | null }): string {
  if (t.channel === "card") return `${t.cardBin ?? "••••••"} •••• ${t.cardLast4 ?? "••••"}`;
  return t.customerMsisdn ? maskPhone(t.customerMsisdn) : "N/A";
}

export const CHANNEL_LABEL = { card: "Card", mobile_money: "Mobile money" } as const;

/** How the payment was made: "Card · VISA", "Mobile money · Telecel". */
export function paymentMethod(t: { channel: Channel; network: string }): string {
  return `${CHANNEL_LABEL[t.channel]} · ${networkLabel(t.network)}`;
}

/** A payment as the refund pages show it (asking for one, deciding one); `merchant` is its merchant's name if known. */
export function refundedPaymentView(payment: Transaction, merchant: string | undefined) {
  return {
    id: payment.id,
    reference: payment.reference,
    merchant: merchant ?? "Unknown merchant",
    method: paymentMethod(payment),
    status: payment.status,
    amount: payment.amount,
    createdAt: payment.createdAt,
  };
}

/**
 * A payment's fee and net, or null for a failed payment: it moved no money, so it has neither.
 * Read from the status, not the stored fee: a payment archived before migration 0028 still holds its old fee.
 */
export function feeOf(t: { status: string; fee: number }): number | null {
  return t.status === "failed" ? null : t.fee;
}

export function netOf(t: { status: string; amount: number; fee: number }): number | null {
  return t.status === "failed" ? null : t.amount - t.fee;
}

/** How a fee or net with none is shown on screen. */
export const NO_MONEY = "—";

export const ACCOUNT_LABEL: Record<string, string> = {
  merchant_pending: "Merchant, pending clearance",
  merchant_available: "Merchant, available",
  fee_revenue: "Fee revenue",
  scheme_receivable: "Due from the scheme or network",
  settlement_payable: "Settlement payable",
  refund_payable: "Refunds on their way to payers",
};
