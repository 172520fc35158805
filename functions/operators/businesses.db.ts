// The platform's view of its businesses: the core database's directory (where each lives, where it stands) with each
// business's core row. Nothing of a business's own records (payments, people) is read here.
import type { Db } from "../tenancy/tenant";

export type Lifecycle = "active" | "suspended" | "closed";

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
    .prepare(`SELECT ${COLUMNS} FROM business_shards d JOIN businesses b ON b.id = d.business_id ORDER BY b.name, b.id`)
    .all<PlatformBusiness>();
  return results;
}

export async function platformBusiness(core: Db, businessId: string): Promise<PlatformBusiness | null> {
  return core
    .prepare(`SELECT ${COLUMNS} FROM business_shards d JOIN businesses b ON b.id = d.business_id WHERE d.business_id = ?`)
    .bind(businessId)
    .first<PlatformBusiness>();
}
