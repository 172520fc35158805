// What the detail panel shows of one payment beyond its row: its postings and refunds (each with its rail's reference
// and status), where it was taken (point of sale, terminal serial), the settlement that paid it out and its disputes,
// each with the page it links to. Every read binds the business, so a payment of another business has none of these
// (the loader answers 404 before).
import { listTransactionEntries } from "#server/ledger/ledger.db";
import { listPaymentDisputes } from "#server/disputes/disputes.db";
import { getPaymentPlaces, type Transaction } from "#server/payments/transactions.db";
import { refundRequestIdsOf } from "#server/refunds/refund-requests.db";
import { listPaymentRefunds } from "#server/refunds/refunds.db";
import type { Tenant } from "#server/tenancy/tenant";
import type { PaymentDetailLinks } from "./payment-detail";
import { approvalPath, paths } from "#app/lib/paths";
import { railViewOf } from "#app/lib/rails";
import { ACCOUNT_LABEL } from "#app/lib/transactions-view";

export async function paymentDetailOf(tenant: Tenant, payment: Transaction) {
  const [entries, refunds, places, disputes, refundRequests] = await Promise.all([
    listTransactionEntries(tenant, payment.id),
    listPaymentRefunds(tenant, payment.id),
    getPaymentPlaces(tenant, payment.id),
    listPaymentDisputes(tenant, payment.id),
    refundRequestIdsOf(tenant, payment.id),
  ]);
  const links: PaymentDetailLinks = {
    merchantHref: paths.merchant(payment.merchantId),
    pointOfSale: { name: places?.pointOfSaleName ?? null, href: paths.pointOfSale(payment.merchantId, payment.pointOfSaleId) },
    // A payment taken with no terminal (a payment link, say) has none to show.
    terminal: payment.terminalId ? { serial: places?.terminalSerial ?? null, href: paths.device(payment.terminalId) } : null,
    settlement:
      places?.settlementId && places.settlementReference && places.settlementStatus
        ? { reference: places.settlementReference, status: places.settlementStatus, href: paths.settlement(places.settlementId) }
        : null,
    disputes: disputes.map((d) => ({ ...d, href: paths.dispute(d.id) })),
  };
  return {
    ...links,
    failureReason: payment.failureReason,
    reversalReason: payment.reversalReason,
    reversedAt: payment.reversedAt,
    entries: entries.map((e) => ({ id: e.id, account: ACCOUNT_LABEL[e.kind] ?? e.kind, amount: e.amount, memo: e.memo, postedAt: e.postedAt })),
    refunds: refunds.map((r) => {
      const requestId = refundRequests.get(r.id);
      return {
        id: r.id,
        amount: r.amount,
        reason: r.reason,
        status: r.status,
        createdAt: r.createdAt,
        completedAt: r.completedAt,
        failureReason: r.failureReason,
        rail: railViewOf(r),
        href: requestId ? approvalPath("refund", requestId) : null,
      };
    }),
  };
}
