// What a payment, a settlement, a refund, a terminal, a transfer and an approval request look like to a business's
// integration: snake_case, pesewas, ISO times in UTC. Every webhook event's data is one of these as it was when the
// event happened (./event-versions.ts), and the Partner API answers its reads with the same ones (GET
// /api/v1/payments/{reference}, the lists of functions/partner-api/lists.ts). They live with the events rather than at
// the API's door because the domains that record an event (approvals, payments, refunds, settlement) make its data
// here, and a domain never imports the door (tests/unit/api-door.test.ts).
import type * as v from "valibot";
import type { StoredPayment } from "../payments/api-payments.db";
import type { ListedRefund, Refund } from "../refunds/refunds.db";
import type { Merchant } from "../merchants/merchants.db";
import type { PointOfSale } from "../merchants/points-of-sale.db";
import type { Terminal } from "../merchants/terminals.db";
import type { ListedSettlement } from "../settlement/settlements.db";
import type { Transfer } from "../ledger/transfers.db";
import type { PaymentView } from "../partner-api/schemas";
import type { ApprovalRequestView, TransferView } from "../partner-api/event-schemas";
import type { MerchantView, PointOfSaleView, RefundListItem, SettlementView, TerminalView } from "../partner-api/list-schemas";

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

function refundView(r: Refund): NonNullable<PaymentView["refunds"]>[number] {
  return {
    id: r.id,
    amount: r.amount,
    currency: "GHS",
    status: r.status,
    reason: r.reason,
    requested_at: r.createdAt,
    decided_at: r.decidedAt,
    completed_at: r.completedAt,
    failure_reason: r.failureReason,
  };
}

/** A payment's refunds as GET /api/v1/payments/{reference} adds them. */
export function refundsView(refunds: readonly Refund[]): Required<Pick<PaymentView, "refunded" | "refunds">> {
  return {
    refunded: refunds.filter((r) => r.status === "sending" || r.status === "succeeded").reduce((sum, r) => sum + r.amount, 0),
    refunds: refunds.map(refundView),
  };
}

/** A refund as GET /api/v1/refunds lists it: as a payment's refunds show it, with the payment's reference. */
export function refundListItem(r: ListedRefund): v.InferOutput<typeof RefundListItem> {
  return { ...refundView(r), payment_reference: r.paymentReference };
}

export function merchantView(m: Merchant): v.InferOutput<typeof MerchantView> {
  return {
    id: m.id,
    code: m.code,
    name: m.name,
    trading_name: m.tradingName,
    tin: m.tin,
    sector: m.sector,
    town: m.town,
    region: m.region,
    address: m.address,
    contact_name: m.contactName,
    contact_phone: m.contactPhone,
    contact_email: m.contactEmail,
    status: m.status,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

export function pointOfSaleView(p: PointOfSale): v.InferOutput<typeof PointOfSaleView> {
  return {
    id: p.id,
    merchant: p.merchantId,
    name: p.name,
    town: p.town,
    region: p.region,
    address: p.address,
    contact_phone: p.contactPhone,
    status: p.status,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export function terminalView(t: Terminal): v.InferOutput<typeof TerminalView> {
  return {
    id: t.id,
    serial: t.serial,
    model: t.model,
    software_version: t.softwareVersion,
    status: t.status,
    merchant: t.merchantId,
    point_of_sale: t.pointOfSaleId,
    last_seen_at: iso(t.lastSeenAt),
    battery_percent: t.batteryPercent,
    signal_percent: t.signalPercent,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

export function settlementView(s: ListedSettlement): v.InferOutput<typeof SettlementView> {
  return {
    id: s.id,
    reference: s.reference,
    merchant: s.merchantId,
    settlement_account: s.settlementAccountId,
    transfer: s.transferId,
    period_start: new Date(s.periodStart).toISOString(),
    period_end: new Date(s.periodEnd).toISOString(),
    gross: s.gross,
    fees: s.fees,
    net: s.net,
    currency: "GHS",
    status: s.status,
    attempts: s.attempts,
    created_at: s.createdAt,
    paid_at: s.paidAt,
    rail: s.rail,
    rail_reference: s.railReference,
    rail_status: s.railStatus,
  };
}

/** A decided transfer as transfer.approved and transfer.rejected carry it. */
export function transferView(
  t: Transfer,
  decided: { status: TransferView["status"]; decidedBy: string; decidedAt: string; reason?: string; settlementId: string | null },
): TransferView {
  return {
    id: t.id,
    from_merchant: t.fromMerchantId,
    to_merchant: t.toMerchantId,
    to_settlement_account: t.toSettlementAccountId,
    settlement: decided.settlementId,
    amount: t.amount,
    currency: "GHS",
    narration: t.narration,
    status: decided.status,
    reason: decided.reason ?? null,
    requested_by: t.requestedBy,
    requested_at: t.createdAt,
    decided_by: decided.decidedBy,
    decided_at: decided.decidedAt,
  };
}

/** An approval request as approval.requested carries it. */
export function approvalRequestView(r: {
  id: string;
  kind: string;
  action: string;
  targetId: string | null;
  makerId: string;
  madeAt: string;
}): ApprovalRequestView {
  return { id: r.id, kind: r.kind, action: r.action, target: r.targetId, maker: r.makerId, made_at: r.madeAt };
}
