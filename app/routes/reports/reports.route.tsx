// /reports: volume and value of successful payments for a period, by day,
// merchant, point of sale, terminal, channel or network, from the daily
// rollups (a year answers from a few thousand rows); a chart to read at a
// glance, the exact numbers in a table, and the same as CSV.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { ColumnChart, ShareBar, paymentsCount } from "#app/components/figures/charts";
import { DataTable, ListCount, Pager, type Column } from "#app/components/lists/data-table";
import { axisDay, calendarDay, formatAmount, formatCount, networkLabel } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { listParams } from "#app/lib/lists/list-params";
import { MoneyBackFigures } from "#app/components/figures/money-back";
import { PeriodPicker } from "#app/components/lists/period-picker";
import { DAY_MS } from "#server/plumbing/time";
import { DIMENSIONS } from "./dimensions";
import { buildReport, REPORT_PARAMS, type ReportLine } from "./reports.server";

export const meta: MetaFunction = () => [{ title: "Reports" }];

/** A by-day table shows a month of days at a time, newest first; the chart and the totals cover the whole period. */
export const DAYS_PER_PAGE = 31;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:report");
  const report = await buildReport(tenant, new URL(request.url), deps.now());
  const totals = report.lines.reduce((sum, line) => ({ count: sum.count + line.count, amount: sum.amount + line.amount, fee: sum.fee + line.fee }), {
    count: 0,
    amount: 0,
    fee: 0,
  });
  const byDay = report.dimension === "day";
  const totalPages = byDay ? Math.max(1, Math.ceil(report.lines.length / DAYS_PER_PAGE)) : 1;
  const page = Math.min(listParams(new URL(request.url), REPORT_PARAMS).page, totalPages);
  const newestFirst = byDay ? [...report.lines].reverse().slice((page - 1) * DAYS_PER_PAGE, page * DAYS_PER_PAGE) : report.lines;
  return {
    dimension: report.dimension,
    period: { range: report.period.range, fromDay: report.period.fromDay, toDay: report.period.toDay, error: report.period.error },
    lines: newestFirst,
    // Every day's value, oldest first, for the chart (a year of numbers, not a year of table rows).
    dayValues: byDay ? report.lines.map((line) => [line.amount, line.count] as const) : [],
    page,
    totalPages,
    totals,
    back: report.back,
    canExport: can(tenant.role, "export:report"),
  };
}

export default function Reports() {
  const { dimension, period, lines, dayValues, page, totalPages, totals, back, canExport } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const heading = DIMENSIONS.find((d) => d.value === dimension)?.heading ?? "Key";
  const columns: Column<ReportLine>[] = [
    { id: "key", header: heading, cell: (l) => (dimension === "network" ? networkLabel(l.label) : l.label) },
    { id: "count", header: "Payments", numeric: true, cell: (l) => formatCount(l.count) },
    { id: "amount", header: "Value (GHS)", numeric: true, cell: (l) => formatAmount(l.amount) },
    { id: "fee", header: "Fees (GHS)", numeric: true, cell: (l) => formatAmount(l.fee) },
    { id: "refunded", header: "Refunds (GHS)", numeric: true, cell: (l) => formatAmount(l.refunded) },
    ...(dimension === "day" ? [] : [{ id: "share", header: "Share of value", cell: (l: ReportLine) => <ShareBar value={l.amount} total={totals.amount} /> }]),
  ];
  const firstDay = Date.parse(`${period.fromDay}T12:00:00Z`);
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <h1>Reports</h1>
          <p className="page__lead">{`Successful payments from ${calendarDay(period.fromDay)} to ${calendarDay(period.toDay)}.`}</p>
        </div>
        {canExport && totals.count > 0 ? (
          <a href={`/reports/export${search}`} className="button" download>
            Export CSV
          </a>
        ) : null}
      </header>

      <PeriodPicker period={period} fallback="the last 30 days" />
      <nav className="range-tabs" aria-label="Group by">
        {DIMENSIONS.map((d) => (
          <Link
            key={d.value}
            to={filterHref(params, { by: d.value === "day" ? null : d.value })}
            className="range-tabs__tab"
            aria-current={dimension === d.value ? "true" : undefined}
          >
            {d.label}
          </Link>
        ))}
      </nav>

      <dl className="totals" aria-label="Totals for the period" data-testid="report-totals">
        <div>
          <dt>Payments</dt>
          <dd>{formatCount(totals.count)}</dd>
        </div>
        <div>
          <dt>Value (GHS)</dt>
          <dd>{formatAmount(totals.amount)}</dd>
        </div>
        <div>
          <dt>Fees (GHS)</dt>
          <dd>{formatAmount(totals.fee)}</dd>
        </div>
      </dl>
      <MoneyBackFigures back={back} label="Money going back in the period" />

      {dimension === "day" && totals.count > 0 ? (
        <section className="card" aria-labelledby="chart-heading">
          <h2 id="chart-heading">Value per day</h2>
          <ColumnChart
            label={`Value of successful payments per day, ${calendarDay(period.fromDay)} to ${calendarDay(period.toDay)}`}
            bars={dayValues.map(([amount, count], index) => {
              const day = new Date(firstDay + index * DAY_MS).toISOString();
              return { key: day, value: amount, title: `${calendarDay(day)}: GHS ${formatAmount(amount)} (${paymentsCount(count)})`, axis: axisDay(day) };
            })}
          />
        </section>
      ) : null}

      <DataTable
        caption={`Payments ${DIMENSIONS.find((d) => d.value === dimension)?.label.toLowerCase() ?? ""}`}
        columns={columns}
        rows={totals.count === 0 ? [] : lines}
        rowKey={(l) => l.key || "none"}
        empty={
          <>
            <h2>No successful payments in this period</h2>
            <p>Choose a longer period.</p>
          </>
        }
      />
      {dimension === "day" && totals.count > 0 && totalPages > 1 ? (
        <>
          <ListCount page={page} pageSize={DAYS_PER_PAGE} shown={lines.length} total={dayValues.length} noun="days, newest first" />
          <Pager page={page} totalPages={totalPages} trail={[]} hasNext={page < totalPages} />
        </>
      ) : null}
    </div>
  );
}
