import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "./page";
import type { Tenant } from "./tenant";

export interface Settlement {
  id: string;
  merchantId: string;
  settlementAccountId: string;
  periodStart: number;
  periodEnd: number;
  gross: number;
  fees: number;
  net: number;
  status: "pending" | "paid" | "failed";
  reference: string;
  attempts: number;
  createdAt: string;
  paidAt: string | null;
}

const SELECT = `SELECT id, merchant_id AS merchantId, settlement_account_id AS settlementAccountId, period_start AS periodStart,
  period_end AS periodEnd, gross, fees, net, status, reference, attempts, created_at AS createdAt, paid_at AS paidAt FROM settlements`;

export async function getSettlement(tenant: Tenant, db: D1Database, id: string): Promise<Settlement | null> {
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Settlement>();
}

/** Newest period first. */
export async function listSettlements(
  tenant: Tenant,
  db: D1Database,
  query: PageQuery & { merchantId?: string; status?: Settlement["status"] } = {},
): Promise<Page<Settlement>> {
  const size = pageSize(query.limit);
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.merchantId) {
    where.push("merchant_id = ?");
    binds.push(query.merchantId);
  }
  if (query.status) {
    where.push("status = ?");
    binds.push(query.status);
  }
  const after = decodeCursor(query.after, 2);
  if (after) {
    where.push("(period_start < ? OR (period_start = ? AND id < ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY period_start DESC, id DESC LIMIT ?`)
    .bind(...binds, size + 1)
    .all<Settlement>();
  return toPage(results, size, (s) => [s.periodStart, s.id]);
}
