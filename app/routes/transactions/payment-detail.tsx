// One payment's facts and ledger postings: the transactions screen's detail panel, and a payment found in the
// cold archive (read-only, shown in place: it has no row to open).
import { Link, useNavigate } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useBeforePaintEffect } from "#app/components/before-paint";
import { detailDate, formatAmount, tableDate } from "#app/lib/format";
import { paymentStatus, statusLabel } from "#app/lib/statuses";
import { feeOf, netOf, NO_MONEY, paymentMethod } from "#app/lib/transactions-view";
import { Details, withCodes } from "#app/components/details";
import { StatusPill } from "#app/components/status-pill";
import { RailLine } from "#app/components/rail-facts";
import type { RailView } from "#app/lib/rails";
import type { Channel } from "#server/ledger/pricing";
import { reasonCodeLabel } from "#server/disputes/dispute-rules";
import type { PaymentDispute } from "#server/disputes/disputes.db";
import type { Settlement } from "#server/settlement/settlements.db";

/** Where a payment was taken and what followed it, each with the page it opens; an archived payment has none. */
export interface PaymentDetailLinks {
  merchantHref: string;
  /** The name is null when the business no longer has the point of sale. */
  pointOfSale: { name: string | null; href: string };
  /** Null for a payment taken with no terminal. */
  terminal: { serial: string | null; href: string } | null;
  /** The settlement that paid it out; null while none has. */
  settlement: { reference: string; status: Settlement["status"]; href: string } | null;
  disputes: (PaymentDispute & { href: string })[];
}

export interface PaymentDetailView extends Partial<PaymentDetailLinks> {
  reference: string;
  merchant: string;
  pointOfSaleId: string;
  terminalId: string | null;
  status: "successful" | "failed" | "reversed";
  channel: Channel;
  network: string;
  payer: string;
  amount: number;
  fee: number;
  createdAt: number;
  clearedAt: number | null;
  failureReason: string | null;
  reversalReason: string | null;
  reversedAt: number | null;
  entries: { id: number; account: string; amount: number; memo: string; postedAt: number }[];
  /** Approved refunds not failed; none for an archived payment. */
  refunded?: number;
  refunds?: PaymentRefundView[];
  /** The refund form, when this person may ask and something is left to refund. */
  refundHref?: string | null;
}

export interface PaymentRefundView {
  id: string;
  amount: number;
  reason: string;
  status: "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";
  createdAt: string;
  completedAt: string | null;
  failureReason: string | null;
  /** The rail it was sent through, its own reference and status; null before any rail said anything. */
  rail?: RailView | null;
  /** Its approval request's page. */
  href?: string | null;
}

/** A fee or net, or a dash for a failed payment's (it has none). */
const shownMoney = (pesewas: number | null) => (pesewas === null ? NO_MONEY : formatAmount(pesewas));

/** A point of sale or terminal by its name or serial, linked to its page; its id when the business no longer has it. */
function place(name: string | null, id: string, href: string | undefined): ReactNode {
  if (name === null) return <span className="mono code">{id}</span>;
  return href ? <Link to={href}>{name}</Link> : name;
}

function settlementOf(detail: PaymentDetailView): ReactNode {
  if (detail.settlement) {
    return (
      <>
        <Link to={detail.settlement.href} className="mono code">
          {detail.settlement.reference}
        </Link>{" "}
        <StatusPill entity="settlement" status={detail.settlement.status} />
      </>
    );
  }
  return detail.status === "successful" ? "Not settled yet" : "None: no money to pay out";
}

export function PaymentFacts({ detail, extra = [] }: { detail: PaymentDetailView; extra?: readonly (readonly [string, string])[] }) {
  return (
    <Details
      rows={
        [
          ["Merchant", detail.merchantHref ? <Link to={detail.merchantHref}>{detail.merchant}</Link> : detail.merchant],
          ["Point of sale", place(detail.pointOfSale?.name ?? null, detail.pointOfSaleId, detail.pointOfSale?.href)],
          [
            "Terminal",
            detail.terminalId === null ? "None: taken without a terminal" : place(detail.terminal?.serial ?? null, detail.terminalId, detail.terminal?.href),
          ],
          ["Status", statusLabel("transaction", paymentStatus(detail))],
          ["Channel", paymentMethod(detail)],
          ["Payer", detail.payer],
          ["Amount (GHS)", formatAmount(detail.amount)],
          ["Fee (GHS)", shownMoney(feeOf(detail))],
          ["Net (GHS)", shownMoney(netOf(detail))],
          ["Paid", detailDate(detail.createdAt)],
          ["Available to the merchant", detail.clearedAt ? detailDate(detail.clearedAt) : detail.status === "successful" ? "Not yet" : "Never"],
          // The processor's reason as it sent it; a payment sent before the reason was asked for has none.
          ...(detail.status === "failed" ? [["Why it failed", detail.failureReason ?? "The processor gave no reason"] as const] : []),
          ...(detail.failureReason && detail.status !== "failed" ? [["Why it failed", detail.failureReason] as const] : []),
          ...(detail.status === "reversed" && detail.reversedAt !== null
            ? [["Reversed", `${detailDate(detail.reversedAt)}${detail.reversalReason ? ` · ${detail.reversalReason}` : ""}`] as const]
            : []),
          ...(detail.refunded ? [["Refunded (GHS)", formatAmount(detail.refunded)] as const] : []),
          ...(detail.settlement !== undefined ? [["Settlement", settlementOf(detail)] as const] : []),
          ...extra,
        ] as const
      }
    />
  );
}

export function Postings({ entries }: { entries: PaymentDetailView["entries"] }) {
  if (entries.length === 0) return <p>No postings: a failed payment moves no money.</p>;
  return (
    <table className="data-table postings">
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col" className="num">
            Debit (GHS)
          </th>
          <th scope="col" className="num">
            Credit (GHS)
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td data-label="Account">
              {entry.account}
              <span className="cell-sub">{withCodes(`${entry.memo} · ${tableDate(entry.postedAt)}`)}</span>
            </td>
            <td data-label="Debit (GHS)" className="num">
              {entry.amount > 0 ? formatAmount(entry.amount) : ""}
            </td>
            <td data-label="Credit (GHS)" className="num">
              {entry.amount < 0 ? formatAmount(-entry.amount) : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The detail panel of a payment of the list (?tx=): Escape or × closes it. */
export function PaymentDetailPanel({ detail, closeHref }: { detail: PaymentDetailView; closeHref: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && navigate(closeHref, { preventScrollReset: true });
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closeHref, navigate]);
  // The panel takes the focus as it shows (before paint), so the next key pressed is the panel's.
  useBeforePaintEffect(() => document.getElementById("payment-detail-title")?.focus(), [closeHref]);
  return (
    <aside className="detail-panel" role="dialog" aria-labelledby="payment-detail-title" data-testid="payment-detail">
      <header className="detail-panel__header">
        <h2 id="payment-detail-title" tabIndex={-1} className="code">
          {detail.reference}
        </h2>
        <Link to={closeHref} preventScrollReset className="detail-panel__close" aria-label="Close the payment">
          ×
        </Link>
      </header>
      <PaymentFacts detail={detail} />
      {detail.refundHref ? (
        <p>
          <Link to={detail.refundHref} className="button">
            Refund
          </Link>
        </p>
      ) : null}
      {detail.refunds && detail.refunds.length > 0 ? <Refunds refunds={detail.refunds} /> : null}
      {detail.disputes && detail.disputes.length > 0 ? <Disputes disputes={detail.disputes} /> : null}
      <h3>Ledger postings</h3>
      <Postings entries={detail.entries} />
    </aside>
  );
}

/** A payment's refunds, oldest first: each amount, status, reason and times, why one failed, and its rail. */
function Refunds({ refunds }: { refunds: PaymentRefundView[] }) {
  return (
    <>
      <h3>Refunds</h3>
      <ul className="refund-list" aria-label="Refunds">
        {refunds.map((refund) => (
          <li key={refund.id} className="refund-list__item">
            <span>
              {refund.href ? (
                <Link to={refund.href}>
                  <strong>{`GHS ${formatAmount(refund.amount)}`}</strong>
                </Link>
              ) : (
                <strong>{`GHS ${formatAmount(refund.amount)}`}</strong>
              )}{" "}
              <StatusPill entity="refund" status={refund.status} />
            </span>
            <span className="cell-sub">
              <bdi>{refund.reason}</bdi>
              {` · asked ${tableDate(refund.createdAt)}${
                refund.completedAt ? ` · ${refund.status === "succeeded" ? "refunded" : "ended"} ${tableDate(refund.completedAt)}` : ""
              }`}
            </span>
            {refund.failureReason ? <span className="cell-sub">{`Why it failed: ${refund.failureReason}`}</span> : null}
            <RailLine view={refund.rail ?? null} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** A payment's disputes, oldest first: each links to its page, where it is answered. */
function Disputes({ disputes }: { disputes: NonNullable<PaymentDetailView["disputes"]> }) {
  return (
    <>
      <h3>Disputes</h3>
      <ul className="refund-list" aria-label="Disputes">
        {disputes.map((dispute) => (
          <li key={dispute.id} className="refund-list__item">
            <span>
              <Link to={dispute.href}>
                <strong>{`GHS ${formatAmount(dispute.amount)}`}</strong>
              </Link>{" "}
              <StatusPill entity="dispute" status={dispute.status} />
            </span>
            <span className="cell-sub">{`Reason code ${reasonCodeLabel(dispute.reasonCode)} · opened ${tableDate(dispute.openedAt)}`}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
