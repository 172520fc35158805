// What is built from closed days is kept (issue 13; docs/decisions/020-page-time.md).
// A report over a period is its closed days (kept in closed_day_cache, built once)
// plus today (always read). A closed day can still change: the Partner API takes
// payments up to 90 days old and reversals of old payments, and both move the
// rollups of their payment's day. So each business has a version that the ingest
// batch bumps in the same batch whenever it changes a past day's rollups
// (closedDayVersionBumpStatement), and a kept figure is read only under the
// version it was built at: a late payment shows at the next request.
import { accraDay } from "./dashboard";
import { reportStatement, type ReportQuery, type ReportRow } from "./reports";
import type { Tenant } from "./tenant";

const DAY_MS = 86_400_000;
/**
 * A day counts as closed only this long after it ended: an ingest batch that read the clock just before
 * midnight (and so did not bump the version for "today") commits well within it.
 */
export const CLOSE_GRACE_MS = 15 * 60_000;
/** Kept figures of periods nobody asks for any more (yesterday's "last 30 days") go after this. */
const KEEP_MS = 2 * DAY_MS;

/** For the ingest batch, when it changes the rollups of a day before today: every kept figure of the business is void. */
export function closedDayVersionBumpStatement(db: D1Database, businessId: string): D1PreparedStatement {
  return db
    .prepare("INSERT INTO closed_day_versions (business_id, version) VALUES (?, 1) ON CONFLICT (business_id) DO UPDATE SET version = version + 1")
    .bind(businessId);
}

/** The last closed day at `now`: yesterday, once the grace period after midnight is over. */
export function lastClosedDay(now: number): string {
  return accraDay(now - CLOSE_GRACE_MS - DAY_MS);
}

/** reportBy, with the closed days of the period from closed_day_cache when they were built under the current version. */
export async function keptReportBy(tenant: Tenant, db: D1Database, query: ReportQuery, now: number): Promise<ReportRow[]> {
  const lastClosed = lastClosedDay(now);
  const closedTo = query.toDay < lastClosed ? query.toDay : lastClosed;
  if (query.fromDay > closedTo) {
    const { results } = await reportStatement(tenant, db, query).all<ReportRow>();
    return results;
  }
  // The days after the last closed one (today, and yesterday within the grace period) are always read.
  const parts: ReportQuery[] = query.toDay > closedTo ? [{ ...query, fromDay: nextDay(closedTo) }] : [];
  const key = `report:${query.dimension}:${query.merchantId ?? ""}:${query.fromDay}:${closedTo}`;
  const [kept, open] = await db.batch([keptStatement(db, tenant, key), ...parts.map((part) => reportStatement(tenant, db, part))]);
  const found = kept?.results[0] as { version: number; body: string | null } | undefined;
  const openRows = (open?.results ?? []) as ReportRow[];
  if (found?.body != null) return combine(query, JSON.parse(found.body) as ReportRow[], openRows);
  // Built from rows read after the version was: at worst newer than it, never older.
  const { results: closed } = await reportStatement(tenant, db, { ...query, toDay: closedTo }).all<ReportRow>();
  await db.batch([
    db
      .prepare(
        `INSERT INTO closed_day_cache (business_id, key, version, body, built_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (business_id, key) DO UPDATE SET version = excluded.version, body = excluded.body, built_at = excluded.built_at
         WHERE excluded.version >= closed_day_cache.version`,
      )
      .bind(tenant.businessId, key, found?.version ?? 0, JSON.stringify(closed), now),
    db.prepare("DELETE FROM closed_day_cache WHERE business_id = ? AND built_at < ?").bind(tenant.businessId, now - KEEP_MS),
  ]);
  return combine(query, closed, openRows);
}

function keptStatement(db: D1Database, tenant: Tenant, key: string): D1PreparedStatement {
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
function combine(query: ReportQuery, closed: ReportRow[], open: ReportRow[]): ReportRow[] {
  if (open.length === 0) return closed;
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
