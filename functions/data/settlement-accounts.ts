import type { Tenant } from "./tenant";

export interface SettlementAccount {
  id: string;
  merchantId: string;
  kind: "bank" | "mobile_money";
  provider: string;
  accountNumber: string;
  accountName: string;
  isPrimary: boolean;
  status: "active" | "inactive";
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const SETTLEMENT_ACCOUNT_COLUMNS = ["merchant_id", "kind", "provider", "account_number", "account_name", "is_primary"] as const;

const SELECT = `SELECT id, merchant_id AS merchantId, kind, provider, account_number AS accountNumber, account_name AS accountName,
  is_primary AS isPrimary, status, created_at AS createdAt, updated_at AS updatedAt, version FROM settlement_accounts`;

type Row = Omit<SettlementAccount, "isPrimary"> & { isPrimary: number };
const toAccount = (row: Row): SettlementAccount => ({ ...row, isPrimary: row.isPrimary === 1 });

export async function getSettlementAccount(tenant: Tenant, db: D1Database, id: string): Promise<SettlementAccount | null> {
  const row = await db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Row>();
  return row ? toAccount(row) : null;
}

/** A merchant's payout accounts, primary first. A merchant has a handful: no paging. */
export async function listSettlementAccounts(tenant: Tenant, db: D1Database, merchantId: string): Promise<SettlementAccount[]> {
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND merchant_id = ? ORDER BY status, is_primary DESC, created_at, id`)
    .bind(tenant.businessId, merchantId)
    .all<Row>();
  return results.map(toAccount);
}
