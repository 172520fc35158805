// / (Dashboard): how the business is doing at a glance. Today against
// yesterday, the last 30 days against the 30 before, the success rate, what
// waits for people (approvals, silent terminals), a 30-day chart and the
// latest payments. Figures come from the daily rollups; the list from the
// transactions index.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { accraDay, dashboardFigures, type DayFigures, type PeriodFigures } from "#server/reports/dashboard.db";
import { moneyBack } from "#server/refunds/refunds.db";
import { MoneyBackFigures } from "#app/components/figures/money-back";
import { namesOf } from "#server/lists/names.db";
import { countSilentTerminals } from "#server/merchants/terminals.db";
import { disputesNeedingResponse } from "#server/disputes/disputes.db";
import { DisputesNeedingResponse } from "./disputes-attention";
import { listTransactions } from "#server/payments/transactions.db";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { axisDay, calendarDay, formatAmount, formatCount, formatPercentage, tableDate } from "#app/lib/format";
import { maskPhone } from "#app/lib/forms/phone";
import { ColumnChart, paymentsCount } from "#app/components/figures/charts";
import { StatusPill } from "#app/components/status-pill";
import { paymentMethod } from "#app/lib/transactions-view";
import { useRootData } from "#app/lib/shell/root-data";
import { WAITING_FOR_ME } from "#app/lib/shell/navigation";
import { DAY_MS } from "#server/plumbing/time";

export const meta: MetaFunction = () => [{ title: "Dashboard" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:dashboard");
  const now = deps.now();
  const showPayments = can(tenant.role, "view:transaction");
  const [figures, silent, latest, back, disputes] = await Promise.all([
    dashboardFigures(tenant, now),
    can(tenant.role, "view:terminal") ? countSilentTerminals(tenant, now - DAY_MS) : Promise.resolve(null),
    showPayments ? listTransactions(tenant, { limit: 8 }) : Promise.resolve(null),
    // Reversals and refunds of the last 30 days, counted apart.
    moneyBack(tenant, { fromDay: accraDay(now - 29 * DAY_MS), toDay: accraDay(now) }),
    can(tenant.role, "view:dispute") ? disputesNeedingResponse(tenant, now) : Promise.resolve(null),
  ]);
  const names = await namesOf(tenant, "merchant", latest?.rows.map((t) => t.merchantId) ?? []);
  return {
    figures,
    back,
    silent,
    disputes: disputes ? { ...disputes, now } : null,
    latest:
      latest?.rows.map((t) => ({
        id: t.id,
        reference: t.reference,
        merchant: names.get(t.merchantId) ?? "Unknown merchant",
        channel: t.channel,
        network: t.network,
        // Card numbers only as BIN and last four; phone numbers masked.
        payer: t.channel === "card" ? `${t.cardBin ?? "••••••"} •••• ${t.cardLast4 ?? "••••"}` : t.customerMsisdn ? maskPhone(t.customerMsisdn) : "N/A",
        amount: t.amount,
        status: t.status,
        createdAt: t.createdAt,
      })) ?? null,
  };
}

/** "+12.5%" / "−3.0%" against the previous period; null when there was nothing to compare with. */
function change(current: number, previous: number): { text: string; direction: "up" | "down" | "flat" } | null {
  if (previous === 0) return null;
  const percent = ((current - previous) / previous) * 100;
  if (Math.abs(percent) < 0.05) return { text: "0.0%", direction: "flat" };
  return { text: `${percent > 0 ? "+" : "−"}${Math.abs(percent).toFixed(1)}%`, direction: percent > 0 ? "up" : "down" };
}

function Figure({
  label,
  value,
  previous,
  previousLabel,
  current,
  testId,
}: {
  label: string;
  value: string;
  current: number;
  previous: number;
  previousLabel: string;
  testId: string;
}) {
  const delta = change(current, previous);
  return (
    <div className="figure" data-testid={testId}>
      <span className="figure__label">{label}</span>
      <strong className="figure__value">{value}</strong>
      <span className={delta ? `figure__change figure__change--${delta.direction}` : "figure__change"}>
        {delta ? `${delta.text} vs ${previousLabel}` : `Nothing ${previousLabel} to compare`}
      </span>
    </div>
  );
}

function successRate(period: PeriodFigures): string {
  return period.attempts === 0 ? "..." : formatPercentage(((period.count / period.attempts) * 100).toFixed(1));
}

/** Value per day as columns; each column's title says the day, the value and the count. */
function DailyChart({ days }: { days: DayFigures[] }) {
  return (
    <ColumnChart
      label="Value of successful payments per day, last 30 days"
      bars={days.map((day) => ({
        key: day.day,
        value: day.amount,
        title: `${calendarDay(day.day)}: GHS ${formatAmount(day.amount)} (${paymentsCount(day.count)})`,
        axis: axisDay(day.day),
      }))}
    />
  );
}

export default function Dashboard() {
  const { figures, back, silent, latest, disputes } = useLoaderData<typeof loader>();
  const identity = useRootData()?.identity;
  const { today, yesterday, last30, previous30 } = figures;
  return (
    <div className="page">
      <header className="page__header">
        <h1>Dashboard</h1>
        <p className="page__lead">{identity ? `${identity.business.businessName} at a glance.` : "At a glance."}</p>
      </header>

      {/* What needs someone comes before the figures: on a phone it would otherwise sit a screen or two down. */}
      <section className="attention" aria-label="Waiting for you">
        {identity?.approvalsWaiting !== null && identity?.approvalsWaiting !== undefined ? (
          <Link to={WAITING_FOR_ME} className="attention__item" data-testid="dashboard-pending">
            <strong>{formatCount(identity.approvalsWaiting)}</strong>
            <span>{identity.approvalsWaiting === 1 ? "request waits for your decision" : "requests wait for your decision"}</span>
          </Link>
        ) : null}
        <Link to="/money/settlement-history" className="attention__item" data-testid="dashboard-awaiting">
          <strong>{`GHS ${formatAmount(figures.awaiting.clearedUnsettled)}`}</strong>
          <span>{`cleared, awaiting settlement (GHS ${formatAmount(figures.awaiting.pendingClearance)} still clearing)`}</span>
        </Link>
        {silent !== null ? (
          <Link
            to="/pos-terminals?silent=1"
            className={silent > 0 ? "attention__item attention__item--warn" : "attention__item"}
            data-testid="dashboard-silent"
          >
            <strong>{formatCount(silent)}</strong>
            <span>{silent === 1 ? "terminal silent for 24 hours" : "terminals silent for 24 hours"}</span>
          </Link>
        ) : null}
        {disputes ? <DisputesNeedingResponse {...disputes} /> : null}
      </section>

      <section className="figures" aria-label="Key figures">
        <Figure
          testId="today-value"
          label="Today's value so far (GHS)"
          value={formatAmount(today.amount)}
          current={today.amount}
          previous={yesterday.amount}
          previousLabel="yesterday by now"
        />
        <Figure
          testId="today-count"
          label="Today's payments so far"
          value={formatCount(today.count)}
          current={today.count}
          previous={yesterday.count}
          previousLabel="yesterday by now"
        />
        <Figure
          testId="period-value"
          label="Last 30 days' value (GHS)"
          value={formatAmount(last30.amount)}
          current={last30.amount}
          previous={previous30.amount}
          previousLabel="the 30 days before"
        />
        <Figure
          testId="period-count"
          label="Last 30 days' payments"
          value={formatCount(last30.count)}
          current={last30.count}
          previous={previous30.count}
          previousLabel="the 30 days before"
        />
        <div className="figure" data-testid="success-rate">
          <span className="figure__label">Success rate, last 30 days</span>
          <strong className="figure__value">{successRate(last30)}</strong>
          <span className="figure__change">{`${formatCount(last30.attempts)} ${last30.attempts === 1 ? "attempt" : "attempts"}`}</span>
        </div>
      </section>

      <MoneyBackFigures back={back} label="Money going back in the last 30 days" />
      <section className="card" aria-labelledby="chart-heading">
        <h2 id="chart-heading">Last 30 days</h2>
        {last30.count === 0 ? <p>No successful payments in the last 30 days.</p> : <DailyChart days={figures.days} />}
      </section>

      {latest ? (
        <section className="card" aria-labelledby="latest-heading">
          <h2 id="latest-heading">Latest payments</h2>
          {latest.length === 0 ? (
            <p>No payments yet.</p>
          ) : (
            <ul className="latest">
              {latest.map((t) => (
                <li key={t.id} className="latest__item">
                  <div>
                    <strong>{t.merchant}</strong>
                    <span className="cell-sub">
                      {paymentMethod(t)} · {t.payer}
                    </span>
                    <span className="cell-sub">
                      <span className="code">{t.reference}</span> · {tableDate(t.createdAt)}
                    </span>
                  </div>
                  <div className="latest__amount">
                    <strong>GHS {formatAmount(t.amount)}</strong>
                    <StatusPill entity="transaction" status={t.status} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}
