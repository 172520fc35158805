// The list's figures for a page of businesses: grouped by the database the directory places each on (a business being
// moved is read where it still is until the switch), one batch per database, the databases side by side.
import { databaseNamed } from "../tenancy/shards";
import { listFigures, type ListFigures } from "./figures.db";
import type { PlatformBusiness } from "./businesses.db";

export async function figuresOf(env: Env, businesses: readonly Pick<PlatformBusiness, "id" | "shard">[], now: number): Promise<Map<string, ListFigures>> {
  const byShard = new Map<string, string[]>();
  for (const business of businesses) byShard.set(business.shard, [...(byShard.get(business.shard) ?? []), business.id]);
  const found = await Promise.all([...byShard].map(([shard, businessIds]) => listFigures({ db: databaseNamed(env, shard), businessIds }, now)));
  return new Map(found.flatMap((figures) => [...figures]));
}

/** Failed over tried, 0 to 100 with one decimal; null when nothing was tried (no rate to speak of). */
export function failureRate(webhooks: { tried: number; failing: number }): number | null {
  return webhooks.tried === 0 ? null : Math.round((webhooks.failing / webhooks.tried) * 1000) / 10;
}
