// The platform's databases as the Shards screen shows them: how many businesses the directory places on each (and is
// moving to or from it), and how large each is.
import type { Db } from "../tenancy/tenant";

export interface ShardPlacement {
  shard: string;
  businesses: number;
  /** Businesses being moved onto this database now. */
  arriving: number;
}

/** Businesses per database, from the directory (business_shards_by_shard). */
export async function shardPlacements(core: Db): Promise<ShardPlacement[]> {
  const [placed, moving] = await core.batch([
    core.prepare("SELECT shard, COUNT(*) AS businesses FROM business_shards GROUP BY shard"),
    core.prepare("SELECT moving_to AS shard, COUNT(*) AS arriving FROM business_shards WHERE moving_to IS NOT NULL GROUP BY moving_to"),
  ]);
  const byShard = new Map<string, ShardPlacement>();
  for (const row of (placed?.results ?? []) as { shard: string; businesses: number }[])
    byShard.set(row.shard, { shard: row.shard, businesses: row.businesses, arriving: 0 });
  for (const row of (moving?.results ?? []) as { shard: string; arriving: number }[]) {
    const found = byShard.get(row.shard) ?? { shard: row.shard, businesses: 0, arriving: 0 };
    byShard.set(row.shard, { ...found, arriving: row.arriving });
  }
  return [...byShard.values()];
}

/**
 * The database's size in bytes, as D1 reports it with every result (`meta.size_after`: the SQLite file's size after
 * the statement, pages times page size, the figure D1 bills and limits at 10 GB). PRAGMA page_count and the dbstat
 * table are refused by D1 (SQLITE_AUTH) and by local workerd alike. Null when a binding gives no size.
 */
export async function databaseSize(db: Db): Promise<number | null> {
  const result = await db.prepare("SELECT COUNT(*) AS n FROM shard_fences").all();
  const size = (result.meta as { size_after?: unknown } | undefined)?.size_after;
  return typeof size === "number" ? size : null;
}

export interface MovingBusiness {
  businessId: string;
  name: string;
  shard: string;
  movingTo: string;
  /** When the directory noted the move. */
  since: string;
}

/** The moves under way (the directory's moving_to), oldest first. */
export async function movesUnderWay(core: Db): Promise<MovingBusiness[]> {
  const { results } = await core
    .prepare(
      `SELECT d.business_id AS businessId, b.name, d.shard, d.moving_to AS movingTo, d.updated_at AS since
       FROM business_shards d JOIN businesses b ON b.id = d.business_id WHERE d.moving_to IS NOT NULL ORDER BY d.updated_at`,
    )
    .all<MovingBusiness>();
  return results;
}
