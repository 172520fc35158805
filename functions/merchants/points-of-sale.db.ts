import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb, Tenant } from "../tenancy/tenant";

export interface PointOfSale {
  id: string;
  merchantId: string;
  name: string;
  town: string;
  region: string;
  address: string;
  contactPhone: string;
  status: "active" | "inactive";
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const POINT_OF_SALE_COLUMNS = ["merchant_id", "name", "town", "region", "address", "contact_phone"] as const;

const SELECT = `SELECT id, merchant_id AS merchantId, name, town, region, address, contact_phone AS contactPhone, status,
  created_at AS createdAt, updated_at AS updatedAt, version FROM points_of_sale`;

export async function getPointOfSale(tenant: Tenant, id: string): Promise<PointOfSale | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<PointOfSale>();
}

/** A merchant's points of sale by name; a merchant of another business has none. */
export async function listPointsOfSale(tenant: Tenant, query: PageQuery & { merchantId: string }): Promise<Page<PointOfSale>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const keyset = after ? " AND (name COLLATE NOCASE > ? OR (name COLLATE NOCASE = ? AND id > ?))" : "";
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND merchant_id = ?${keyset} ORDER BY name COLLATE NOCASE, id LIMIT ?`)
    .bind(tenant.businessId, query.merchantId, ...(after ? [after[0], after[0], after[1]] : []), size + 1)
    .all<PointOfSale>();
  return toPage(results, size, (p) => [p.name, p.id]);
}

/** The pending change request on a point of sale, if any (one at a time). */
export async function pendingPointOfSaleRequest(tenant: Tenant, id: string): Promise<{ id: string; action: string; madeAt: string; makerName: string } | null> {
  const { db } = tenant;
  return db
    .prepare(
      `SELECT r.id, r.action, r.made_at AS madeAt, u.name AS makerName
       FROM approval_requests r JOIN memberships m ON m.business_id = r.business_id AND m.user_id = r.maker_id JOIN users u ON u.id = m.user_id
       WHERE r.business_id = ? AND r.kind = 'point_of_sale' AND r.target_id = ? AND r.status = 'pending' LIMIT 1`,
    )
    .bind(tenant.businessId, id)
    .first();
}

/**
 * A page of the business's points of sale for the Partner API, of every merchant or of one, newest first by
 * (created_at, id): points_of_sale_by_created or points_of_sale_by_merchant_created (migration 0033). A merchant of
 * another business has none. `after` is the last row's (created_at, id); `limit` rows are asked for plus one.
 */
export async function listPointsOfSalePage(
  { businessId, db }: BusinessDb,
  filter: { merchantId?: string },
  after: readonly [createdAt: string, id: string] | null,
  limit: number,
): Promise<PointOfSale[]> {
  const where = ["business_id = ?"];
  const binds: unknown[] = [businessId];
  if (filter.merchantId !== undefined) {
    where.push("merchant_id = ?");
    binds.push(filter.merchantId);
  }
  if (after) {
    where.push("created_at <= ? AND (created_at < ? OR id < ?)");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, limit + 1)
    .all<PointOfSale>();
  return results;
}
