// One settlement's panel on /money/settlement-history (?s=): its facts, the payout rail, its attempts and the payments
// it covers. The list shows it only once a settlement is opened, so it is loaded on demand by the route, outside the
// list's first load (app/components/code-on-demand.tsx, decision 043).
import { Link, useLocation } from "@remix-run/react";
import type { Channel } from "#server/ledger/pricing";
import type { PayoutAttempt, Settlement } from "#server/settlement/settlements.db";
import { Details } from "#app/components/details";
import { RailSection } from "#app/components/rail-facts";
import { calendarDay, detailDate, formatAmount, formatCount, networkLabel, tableDate } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { paths } from "#app/lib/paths";
import type { RailView } from "#app/lib/rails";
import { statusLabel } from "#app/lib/statuses";
import { paymentMethod } from "#app/lib/transactions-view";

/** What the route's loader gives the panel: the settlement, named, with its attempts and the payments it covers. */
export interface SettlementDetail extends Omit<Settlement, "attempts"> {
  merchant: string;
  account: string;
  transactions: { id: number; reference: string; channel: Channel; network: string; amount: number; fee: number; payer: string; createdAt: number }[];
  transactionCount: number;
  /** The attempts answered. */
  attempts: PayoutAttempt[];
  /** Attempts made, answered or not. */
  attemptsMade: number;
  railView: RailView | null;
}

export function SettlementDetailPanel({ detail }: { detail: SettlementDetail }) {
  const params = new URLSearchParams(useLocation().search);
  return (
    <aside className="detail-panel" role="dialog" aria-labelledby="settlement-title" data-testid="settlement-detail">
      <header className="detail-panel__header">
        <h2 id="settlement-title" className="code">
          {detail.reference}
        </h2>
        <Link to={filterHref(params, { s: null })} preventScrollReset className="detail-panel__close" aria-label="Close the settlement">
          ×
        </Link>
      </header>
      <Details
        rows={
          [
            ["Merchant", <Link to={paths.merchant(detail.merchantId)}>{detail.merchant}</Link>],
            ["Settlement account", networkLabel(detail.account)],
            // A transfer's payout covers no period: it pays out money a person asked for and another approved.
            detail.transferId
              ? ["Transfer", <Link to={paths.transferHistory(detail.merchantId)}>{`Approved ${detailDate(detail.createdAt)}`}</Link>]
              : ["Period", calendarDay(detail.periodStart + 12 * 3_600_000)],
            ["Status", statusLabel("settlement", detail.status)],
            ["Gross (GHS)", formatAmount(detail.gross)],
            ["Fees (GHS)", formatAmount(detail.fees)],
            ["Net (GHS)", formatAmount(detail.net)],
            ["Paid", detail.paidAt ? detailDate(detail.paidAt) : "Not yet"],
          ] as const
        }
      />
      <RailSection view={detail.railView} title="Payout rail" />
      <h3>Payout attempts</h3>
      {detail.attempts.length === 0 && detail.attemptsMade === 0 ? (
        <p>Not sent yet.</p>
      ) : (
        <ul className="latest">
          {detail.attempts.map((a) => (
            <li key={a.attempt} className="latest__item">
              {/* The rail's reason is its own line under the attempt: a pill holds one line, and a rail's words can be
                  long enough to push a phone's panel sideways. */}
              <div>
                <span>{`Attempt ${a.attempt} · ${tableDate(a.at)}`}</span>
                {a.outcome === "paid" ? null : <span className="cell-sub attempt-reason">{a.error ?? "The rail gave no reason."}</span>}
              </div>
              <span className={a.outcome === "paid" ? "status status--good" : "status status--bad"}>{a.outcome === "paid" ? "Paid" : "Failed"}</span>
            </li>
          ))}
          {detail.status !== "paid" && !detail.attempts.some((a) => a.attempt === detail.attemptsMade) ? (
            <li className="latest__item">
              <span>{`Attempt ${detail.attemptsMade}`}</span>
              <span className="status status--wait">Sent, no answer yet</span>
            </li>
          ) : null}
        </ul>
      )}
      {detail.transferId ? (
        <p>This payout is a transfer of money the merchant already had available: it covers no payments of its own.</p>
      ) : (
        <>
          <h3>{`Transactions covered (${formatCount(detail.transactionCount)})`}</h3>
          <ul className="latest" data-testid="covered">
            {detail.transactions.map((t) => (
              <li key={t.id} className="latest__item">
                <div>
                  <Link to={paths.payment(t.id)}>
                    <strong className="code">{t.reference}</strong>
                  </Link>
                  <span className="cell-sub">{`${paymentMethod(t)} · ${t.payer} · ${tableDate(t.createdAt)}`}</span>
                </div>
                <div className="latest__amount">{`GHS ${formatAmount(t.amount)}`}</div>
              </li>
            ))}
          </ul>
          {detail.transactionCount > detail.transactions.length ? <p className="cell-sub">{`The first ${detail.transactions.length} are shown.`}</p> : null}
        </>
      )}
    </aside>
  );
}
