import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { Tenant } from "../tenancy/tenant";

export interface Transfer {
  id: string;
  fromMerchantId: string;
  toSettlementAccountId: string | null;
  toMerchantId: string | null;
  amount: number;
  /** The asker's line for the checker and the statement; null when none was written. */
  narration: string | null;
  status: "pending_approval" | "rejected" | "completed" | "failed";
  requestedBy: string;
  approvedBy: string | null;
  createdAt: string;
  decidedAt: string | null;
}

const SELECT = `SELECT id, from_merchant_id AS fromMerchantId, to_settlement_account_id AS toSettlementAccountId, to_merchant_id AS toMerchantId,
  amount, narration, status, requested_by AS requestedBy, approved_by AS approvedBy, created_at AS createdAt, decided_at AS decidedAt FROM transfers`;

export async function getTransfer(tenant: Tenant, id: string): Promise<Transfer | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Transfer>();
}

/** Every transfer into or out of a merchant account, newest first. */
export async function listMerchantTransfers(tenant: Tenant, query: PageQuery & { merchantId: string }): Promise<Page<Transfer>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const keyset = after ? " AND (created_at < ? OR (created_at = ? AND id < ?))" : "";
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND (from_merchant_id = ? OR to_merchant_id = ?)${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(tenant.businessId, query.merchantId, query.merchantId, ...(after ? [after[0], after[0], after[1]] : []), size + 1)
    .all<Transfer>();
  return toPage(results, size, (t) => [t.createdAt, t.id]);
}
