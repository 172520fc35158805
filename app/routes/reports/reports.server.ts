// The report a URL asks for, for the page and its CSV. Server-only: in the route module its URL schema was built in the
// browser too, which brought valibot into the page's first load for nothing.
import * as v from "valibot";
import { namesOf, type NameKind } from "#server/lists/names.db";
import { keptReportBy } from "#server/reports/closed-days.db";
import type { ReportDimension } from "#server/reports/reports.db";
import type { Tenant } from "#server/tenancy/tenant";
import { moneyBack, refundsBy } from "#server/refunds/refunds.db";
import { DAY_MS, utcDay } from "#server/plumbing/time";
import { QUICK_RANGES, resolveRange } from "#app/lib/date-range";
import { calendarDay } from "#app/lib/format";
import { listParams, oneOf } from "#app/lib/lists/list-params";
import { DIMENSIONS } from "./dimensions";

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
