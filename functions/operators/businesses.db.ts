// The platform's view of its businesses: the core database's directory (where each lives, where it stands) with each
// business's core row. Nothing of a business's own records (payments, people) is read here.
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textContains } from "../lists/search";
import { unlessRecentAuditStatement } from "../audit/audit.db";
import type { Db, RequestMeta } from "../tenancy/tenant";

export const LIFECYCLES = ["active", "suspended", "closed"] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

export interface PlatformBusiness {
  id: string;
  name: string;
  tradingName: string | null;
  town: string;
  sector: string;
  shard: string;
  movingTo: string | null;
  lifecycle: Lifecycle;
  createdAt: string;
}

const COLUMNS = `b.id, b.name, b.trading_name AS tradingName, b.town, b.sector, d.shard, d.moving_to AS movingTo, d.lifecycle, b.created_at AS createdAt`;

/** Every business on the directory, by name. */
export async function listPlatformBusinesses(core: Db): Promise<PlatformBusiness[]> {
  const { results } = await core
    .prepare(`SELECT ${COLUMNS} FROM business_shards d JOIN businesses b ON b.id = d.business_id WHERE d.live_business_id IS NULL ORDER BY b.name, b.id`)
    .all<PlatformBusiness>();
  return results;
}

export async function platformBusiness(core: Db, businessId: string): Promise<PlatformBusiness | null> {
  return core
    .prepare(`SELECT ${COLUMNS} FROM business_shards d JOIN businesses b ON b.id = d.business_id WHERE d.business_id = ? AND d.live_business_id IS NULL`)
    .bind(businessId)
    .first<PlatformBusiness>();
}

export interface PlatformBusinessQuery extends PageQuery {
  /** Part of the name, the trading name or the id, as typed (decision 033's search). */
  search?: string;
  lifecycle?: Lifecycle;
  /** The database it lives on (or is moving to). */
  shard?: string;
}

/**
 * A page of the directory by name, searched and filtered. The core holds one row per business (hundreds, a few
 * thousand at most): the name order is sorted in memory rather than kept by an index the directory does not need.
 */
export async function searchPlatformBusinesses(core: Db, query: PlatformBusinessQuery = {}): Promise<Page<PlatformBusiness>> {
  const size = pageSize(query.limit);
  // Test businesses (decision 045) are their live business's, never the platform's to list.
  const where: string[] = ["d.live_business_id IS NULL"];
  const binds: unknown[] = [];
  if (query.search) {
    const match = textContains(["b.name", "coalesce(b.trading_name, '')", "b.id"], query.search);
    where.push(match.sql);
    binds.push(...match.binds);
  }
  if (query.lifecycle) {
    where.push("d.lifecycle = ?");
    binds.push(query.lifecycle);
  }
  if (query.shard) {
    where.push("(d.shard = ? OR d.moving_to = ?)");
    binds.push(query.shard, query.shard);
  }
  const filterWhere = `WHERE ${where.join(" AND ")}`;
  const filterBinds = [...binds];
  const after = decodeCursor(query.after, 2);
  if (after) {
    where.push("(b.name > ? OR (b.name = ? AND b.id > ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const from = "FROM business_shards d JOIN businesses b ON b.id = d.business_id";
  const [{ results }, total] = await Promise.all([
    core
      .prepare(`SELECT ${COLUMNS} ${from} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY b.name, b.id LIMIT ?`)
      .bind(...binds, size + 1)
      .all<PlatformBusiness>(),
    query.withTotal
      ? core
          .prepare(`SELECT COUNT(*) AS n ${from} ${filterWhere}`)
          .bind(...filterBinds)
          .first<number>("n")
      : undefined,
  ]);
  const page = toPage(results, size, (b) => [b.name, b.id]);
  return query.withTotal ? { ...page, total: total ?? 0 } : page;
}

/** The names of the given businesses, by id (the ids bound as one JSON array, decision 033). */
export async function businessNames(core: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { results } = await core
    .prepare("SELECT id, coalesce(trading_name, name) AS name FROM businesses WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(ids)]))
    .all<{ id: string; name: string }>();
  return new Map(results.map((row) => [row.id, row.name]));
}

/**
 * How long one staff member's reading of one business's figures counts as one view: reloads, the revalidation after
 * any form, and coming back within it write no second entry, so the platform's chain records who read which business
 * and when without an entry per request.
 */
export const BUSINESS_VIEW_WINDOW_MS = 15 * 60_000;

/** The platform's chain's record that a staff member read a business's figures (decisions 025, 039), once per view. */
export function businessViewedAuditStatement(
  core: Db,
  reader: { userId: string; meta: RequestMeta },
  business: Pick<PlatformBusiness, "id" | "name" | "shard">,
  now: number,
): D1PreparedStatement {
  return unlessRecentAuditStatement(
    { userId: reader.userId, businessId: null },
    core,
    reader.meta,
    { action: "platform.business.viewed", entity: "business", entityId: business.id, after: { name: business.name, database: business.shard } },
    new Date(now - BUSINESS_VIEW_WINDOW_MS).toISOString(),
    new Date(now).toISOString(),
  );
}
