// What is built from closed days is kept (docs/decisions/020-page-time.md).
// A report over a period is its closed days (kept in closed_day_cache, built once)
// plus today (always read). A closed day can still change: the Partner API takes
// payments up to 90 days old and reversals of old payments, and both move the
// rollups of their payment's day. So each business has a version that the ingest
// batch bumps in the same batch whenever it changes a past day's rollups
// (closedDayVersionBumpStatement), and a kept figure is read only under the
// version it was built at: a late payment shows at the next request.
import { accraDay } from "./dashboard.db";
import { reportStatement, type ReportQuery, type ReportRow } from "./reports.db";
import type { BusinessDb, Tenant } from "../tenancy/tenant";
import { searches, transactionTotals, type TransactionFilter, type TransactionTotals } from "../payments/transactions.db";
import { DAY_MS } from "../plumbing/time";

/**
 * A day counts as closed only this long after it ended: an ingest batch that read the clock just before
 * midnight (and so did not bump the version for "today") commits well within it.
 */
export const CLOSE_GRACE_MS = 15 * 60_000;
/** Kept figures of periods nobody asks for any more (yesterday's "last 30 days") go after this. */
const KEEP_MS = 2 * DAY_MS;

/** For the ingest batch, when it changes the rollups of a day before today: every kept figure of the business is void. */
export function closedDayVersionBumpStatement({ businessId, db }: BusinessDb): D1PreparedStatement {
  return db
    .prepare("INSERT INTO closed_day_versions (business_id, version) VALUES (?, 1) ON CONFLICT (business_id) DO UPDATE SET version = version + 1")
    .bind(businessId);
}

/** The last closed day at `now`: yesterday, once the grace period after midnight is over. */
export function lastClosedDay(now: number): string {
  return accraDay(now - CLOSE_GRACE_MS - DAY_MS);
}

/** reportBy, with the closed days of the period from closed_day_cache when they were built under the current version. */
export function keptReportBy(tenant: Tenant, query: ReportQuery, now: number): Promise<ReportRow[]> {
  return keptOver<ReportRow[]>(tenant, now, {
    key: `report:${query.dimension}:${query.merchantId ?? ""}`,
    fromDay: query.fromDay,
    toDay: query.toDay,
    statement: (fromDay, toDay) => reportStatement(tenant, { ...query, fromDay, toDay }),
    read: (rows) => rows as ReportRow[],
    combine: (closed, open) => combineReport(query, closed, open),
  });
}

/**
 * transactionTotals, for a period of whole days with no search: from the daily rollups (which the ingest batch
 * writes with the payments), the closed days kept. A search (reference, phone, card, amount, merchant name) or a period
 * that is not whole days reads the payments.
 */
export function keptTransactionTotals(tenant: Tenant, filter: TransactionFilter, now: number): Promise<TransactionTotals> {
  const { db } = tenant;
  if (
    searches(filter) ||
    filter.from === undefined ||
    filter.to === undefined ||
    filter.from % DAY_MS !== 0 ||
    filter.to % DAY_MS !== 0 ||
    filter.to <= filter.from
  ) {
    return transactionTotals(tenant, filter);
  }
  const equal: [string, string | undefined][] = [
    ["status", filter.status],
    ["channel", filter.channel],
    ["network", filter.network],
    ["merchant_id", filter.merchantId],
    ["point_of_sale_id", filter.pointOfSaleId],
    ["terminal_id", filter.terminalId],
  ];
  const used = equal.filter(([, value]) => value !== undefined && value !== "") as [string, string][];
  return keptOver<TransactionTotals>(tenant, now, {
    key: `totals2:${used.map(([column, value]) => `${column}=${value}`).join("&")}`,
    fromDay: accraDay(filter.from),
    toDay: accraDay(filter.to - DAY_MS),
    statement: (fromDay, toDay) =>
      db
        .prepare(
          `SELECT coalesce(SUM(count), 0) AS count, coalesce(SUM(CASE WHEN status = 'successful' THEN count END), 0) AS successful,
             coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross,
             coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees
           FROM daily_rollups WHERE business_id = ? AND day BETWEEN ? AND ?${used.map(([column]) => ` AND ${column} = ?`).join("")}`,
        )
        .bind(tenant.businessId, fromDay, toDay, ...used.map(([, value]) => value)),
    read: (rows) => {
      const row = (rows[0] ?? { count: 0, successful: 0, gross: 0, fees: 0 }) as { count: number; successful: number; gross: number; fees: number };
      return { count: row.count, successful: row.successful, gross: row.gross, fees: row.fees, net: row.gross - row.fees };
    },
    combine: (closed, open) => {
      if (!open) return closed;
      const gross = closed.gross + open.gross;
      const fees = closed.fees + open.fees;
      return { count: closed.count + open.count, successful: closed.successful + open.successful, gross, fees, net: gross - fees };
    },
  });
}

interface Kept<T> {
  /** What is built, without the period (added here). */
  key: string;
  fromDay: string;
  toDay: string;
  /** The figure's statement over [fromDay, toDay]. */
  statement: (fromDay: string, toDay: string) => D1PreparedStatement;
  read: (rows: unknown[]) => T;
  /** The closed days' figure with the open days' (null when the period has none). */
  combine: (closed: T, open: T | null) => T;
}

/** A figure over a period: its closed days kept under the business's version (built on a miss), the days after read. */
async function keptOver<T>(tenant: Tenant, now: number, kept: Kept<T>): Promise<T> {
  const { db } = tenant;
  const lastClosed = lastClosedDay(now);
  const closedTo = kept.toDay < lastClosed ? kept.toDay : lastClosed;
  if (kept.fromDay > closedTo) {
    const { results } = await kept.statement(kept.fromDay, kept.toDay).all();
    return kept.read(results);
  }
  const key = `${kept.key}:${kept.fromDay}:${closedTo}`;
  // The days after the last closed one (today, and yesterday within the grace period) are always read.
  const openFrom = kept.toDay > closedTo ? nextDay(closedTo) : null;
  const [found, open] = await db.batch([keptStatement(tenant, key), ...(openFrom ? [kept.statement(openFrom, kept.toDay)] : [])]);
  const row = found?.results[0] as { version: number; body: string | null } | undefined;
  const openFigure = open ? kept.read(open.results) : null;
  if (row?.body != null) return kept.combine(JSON.parse(row.body) as T, openFigure);
  // Built from rows read after the version was: at worst newer than it, never older.
  const { results } = await kept.statement(kept.fromDay, closedTo).all();
  const closed = kept.read(results);
  await db.batch([
    db
      .prepare(
        `INSERT INTO closed_day_cache (business_id, key, version, body, built_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (business_id, key) DO UPDATE SET version = excluded.version, body = excluded.body, built_at = excluded.built_at
         WHERE excluded.version >= closed_day_cache.version`,
      )
      .bind(tenant.businessId, key, row?.version ?? 0, JSON.stringify(closed), now),
    db.prepare("DELETE FROM closed_day_cache WHERE business_id = ? AND built_at < ?").bind(tenant.businessId, now - KEEP_MS),
  ]);
  return kept.combine(closed, openFigure);
}

function keptStatement(tenant: Tenant, key: string): D1PreparedStatement {
  const { db } = tenant;
  return db
    .prepare(
      `SELECT v.version, c.body FROM (SELECT coalesce((SELECT version FROM closed_day_versions WHERE business_id = ?1), 0) AS version) v
       LEFT JOIN closed_day_cache c ON c.business_id = ?1 AND c.key = ?2 AND c.version = v.version`,
    )
    .bind(tenant.businessId, key);
}

function nextDay(day: string): string {
  return accraDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
}

/** The closed and open rows as reportBy would give them for the whole period: summed per key, in its order. */
function combineReport(query: ReportQuery, closed: ReportRow[], open: ReportRow[] | null): ReportRow[] {
  if (!open || open.length === 0) return closed;
  const byKey = new Map(closed.map((row) => [row.key, { ...row }]));
  for (const row of open) {
    const same = byKey.get(row.key);
    if (same) {
      same.count += row.count;
      same.amount += row.amount;
      same.fee += row.fee;
    } else byKey.set(row.key, { ...row });
  }
  const rows = [...byKey.values()];
  return query.dimension === "day" ? rows.sort((a, b) => a.key.localeCompare(b.key)) : rows.sort((a, b) => b.amount - a.amount);
}
