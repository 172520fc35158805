import { decodeCursor, likePattern, pageSize, toPage, type Page, type PageQuery } from "./page";
import type { Tenant } from "./tenant";

export const TERMINAL_STATUSES = ["in_stock", "assigned", "active", "blocked", "faulty", "retired"] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export interface Terminal {
  id: string;
  serial: string;
  model: string;
  softwareVersion: string;
  status: TerminalStatus;
  merchantId: string | null;
  pointOfSaleId: string | null;
  lastSeenAt: number | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const SELECT = `SELECT id, serial, model, software_version AS softwareVersion, status, merchant_id AS merchantId,
  point_of_sale_id AS pointOfSaleId, last_seen_at AS lastSeenAt, created_at AS createdAt, updated_at AS updatedAt, version FROM terminals`;

export async function getTerminal(tenant: Tenant, db: D1Database, id: string): Promise<Terminal | null> {
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Terminal>();
}

export interface TerminalQuery extends PageQuery {
  status?: TerminalStatus;
  merchantId?: string;
  pointOfSaleId?: string;
  /** The start of a serial number. */
  serial?: string;
}

/** The fleet by serial number. */
export async function listTerminals(tenant: Tenant, db: D1Database, query: TerminalQuery = {}): Promise<Page<Terminal>> {
  const size = pageSize(query.limit);
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.status) {
    where.push("status = ?");
    binds.push(query.status);
  }
  if (query.merchantId) {
    where.push("merchant_id = ?");
    binds.push(query.merchantId);
  }
  if (query.pointOfSaleId) {
    where.push("point_of_sale_id = ?");
    binds.push(query.pointOfSaleId);
  }
  if (query.serial?.trim()) {
    where.push("serial LIKE ? ESCAPE '\\'");
    binds.push(likePattern(query.serial.trim().toUpperCase(), "prefix"));
  }
  const filterWhere = where.join(" AND ");
  const filterBinds = [...binds];
  const after = decodeCursor(query.after, 1);
  if (after) {
    where.push("serial > ?");
    binds.push(after[0]);
  }
  const [{ results }, total] = await Promise.all([
    db.prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY serial LIMIT ?`).bind(...binds, size + 1).all<Terminal>(),
    query.withTotal ? db.prepare(`SELECT COUNT(*) AS n FROM terminals WHERE ${filterWhere}`).bind(...filterBinds).first<number>("n") : undefined,
  ]);
  const page = toPage(results, size, (t) => [t.serial]);
  return query.withTotal ? { ...page, total: total ?? 0 } : page;
}

/** Terminals in service that have not been seen since `since` (epoch ms). */
export async function countSilentTerminals(tenant: Tenant, db: D1Database, since: number): Promise<number> {
  const n = await db
    .prepare(
      "SELECT COUNT(*) AS n FROM terminals WHERE business_id = ? AND status IN ('assigned', 'active') AND (last_seen_at IS NULL OR last_seen_at < ?)",
    )
    .bind(tenant.businessId, since)
    .first<number>("n");
  return n ?? 0;
}
