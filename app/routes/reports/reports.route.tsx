// /reports: volume and value of successful payments for a period, by day,
// merchant, point of sale, terminal, channel or network, from the daily
// rollups (a year answers from a few thousand rows); a chart to read at a
// glance, the exact numbers in a table, and the same as CSV.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import * as v from "valibot";
import { namesOf, type NameKind } from "#server/lists/names.db";
import { keptReportBy } from "#server/reports/closed-days.db";
import type { ReportDimension } from "#server/reports/reports.db";
import type { Tenant } from "#server/tenancy/tenant";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { ColumnChart, ShareBar, paymentsCount } from "#app/components/figures/charts";
import { DataTable, ListCount, Pager, type Column } from "#app/components/lists/data-table";
import { QUICK_RANGES, resolveRange } from "#app/lib/date-range";
import { axisDay, calendarDay, formatAmount, formatCount, networkLabel } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { listParams, oneOf } from "#app/lib/lists/list-params";
import { moneyBack, refundsBy } from "#server/refunds/refunds.db";
import { MoneyBackFigures } from "#app/components/figures/money-back";
import { PeriodPicker } from "#app/components/lists/period-picker";
import { DAY_MS, utcDay } from "#server/plumbing/time";

export const meta: MetaFunction = () => [{ title: "Reports" }];

export const DIMENSIONS: { value: ReportDimension; label: string; heading: string }[] = [
  { value: "day", label: "By day", heading: "Day" },
  { value: "merchant", label: "By merchant", heading: "Merchant" },
  { value: "point_of_sale", label: "By point of sale", heading: "Point of sale" },
  { value: "terminal", label: "By terminal", heading: "Terminal" },
  { value: "channel", label: "By channel", heading: "Channel" },
  { value: "network", label: "By network", heading: "Network or scheme" },
];

export const REPORT_PARAMS = {
  by: oneOf(DIMENSIONS.map((d) => d.value)),
  range: oneOf(QUICK_RANGES.map((r) => r.value)),
  from: v.optional(v.pipe(v.string(), v.maxLength(10))),
  to: v.optional(v.pipe(v.string(), v.maxLength(10))),
};

export interface ReportLine {
  key: string;
  label: string;
  count: number;
  amount: number;
  fee: number;
  /** Refunds approved on the line's day, or of its payments, in the period (not failed): apart from reversals, which never count as successful. */
  refunded: number;
}

/** A by-day table shows a month of days at a time, newest first; the chart and the totals cover the whole period. */
export const DAYS_PER_PAGE = 31;

/** Dimensions whose keys are ids, named by what they are. */
const NAMED: Partial<Record<ReportDimension, NameKind>> = { merchant: "merchant", point_of_sale: "point_of_sale", terminal: "terminal" };

/** The report the URL asks for, with names for its keys and every day of a by-day report (shared with the CSV). */
export async function buildReport(tenant: Tenant, url: URL, now: number) {
  const { filters } = listParams(url, REPORT_PARAMS);
  const period = resolveRange(filters, now, "30d");
  const dimension: ReportDimension = filters.by ?? "day";
  const [payments, refunded, back] = await Promise.all([
    keptReportBy(tenant, { dimension, fromDay: period.fromDay, toDay: period.toDay }, now),
    refundsBy(tenant, { dimension, fromDay: period.fromDay, toDay: period.toDay }),
    moneyBack(tenant, { fromDay: period.fromDay, toDay: period.toDay }),
  ]);
  // A line with refunds but no successful payment in the period still shows its refunds.
  const rows = [
    ...payments.map((r) => ({ ...r, refunded: refunded.get(r.key) ?? 0 })),
    ...[...refunded].filter(([key]) => !payments.some((r) => r.key === key)).map(([key, amount]) => ({ key, count: 0, amount: 0, fee: 0, refunded: amount })),
  ];
  const kind = NAMED[dimension];
  const names = kind
    ? await namesOf(
        tenant,
        kind,
        rows.map((r) => r.key),
      )
    : new Map<string, string>();
  let lines: ReportLine[] = rows.map((r) => ({ ...r, label: names.get(r.key) ?? labelOf(dimension, r.key) }));
  if (dimension === "day") {
    const byDay = new Map(lines.map((line) => [line.key, line]));
    lines = [];
    for (let at = Date.parse(`${period.fromDay}T00:00:00Z`); at <= Date.parse(`${period.toDay}T00:00:00Z`); at += DAY_MS) {
      const day = utcDay(at);
      lines.push(byDay.get(day) ?? { key: day, label: labelOf("day", day), count: 0, amount: 0, fee: 0, refunded: 0 });
    }
  }
  return { dimension, period, lines, back };
}

function labelOf(dimension: ReportDimension, key: string): string {
  if (dimension === "day") return calendarDay(key);
  if (dimension === "channel") return key === "card" ? "Card" : key === "mobile_money" ? "Mobile money" : key;
  if (dimension === "terminal" && key === "") return "No terminal (paid by phone)";
  return key;
}

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
