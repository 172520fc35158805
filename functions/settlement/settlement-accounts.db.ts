import type { Tenant } from "../tenancy/tenant";

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

export async function getSettlementAccount(tenant: Tenant, id: string): Promise<SettlementAccount | null> {
  const { db } = tenant;
  const row = await db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Row>();
  return row ? toAccount(row) : null;
}

/** A merchant's payout accounts, primary first. A merchant has a handful: no paging. */
export async function listSettlementAccounts(tenant: Tenant, merchantId: string): Promise<SettlementAccount[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND merchant_id = ? ORDER BY status, is_primary DESC, created_at, id`)
    .bind(tenant.businessId, merchantId)
    .all<Row>();
  return results.map(toAccount);
}

/**
 * Whether the merchant already has this account (any status), or a pending
 * request would add it: the database's UNIQUE would only refuse it at approval.
 */
export async function settlementAccountClashes(
  tenant: Tenant,
  wanted: { merchantId: string; kind: string; provider: string; accountNumber: string },
  exceptId: string | null = null,
): Promise<boolean> {
  const { db } = tenant;
  const [row, pending] = await Promise.all([
    db
      .prepare(
        "SELECT 1 AS hit FROM settlement_accounts WHERE business_id = ? AND merchant_id = ? AND kind = ? AND provider = ? AND account_number = ? AND id IS NOT ?",
      )
      .bind(tenant.businessId, wanted.merchantId, wanted.kind, wanted.provider, wanted.accountNumber, exceptId)
      .first<number>("hit"),
    db
      .prepare(
        `SELECT 1 AS hit FROM approval_requests r WHERE r.business_id = ? AND r.kind = 'settlement_account' AND r.status = 'pending' AND r.target_id IS NOT ?
           AND coalesce(json_extract(r.after_json, '$.merchant_id'), (SELECT merchant_id FROM settlement_accounts s WHERE s.id = r.target_id AND s.business_id = r.business_id)) = ?
           AND json_extract(r.after_json, '$.account_number') = ?
           AND coalesce(json_extract(r.after_json, '$.provider'), (SELECT provider FROM settlement_accounts s WHERE s.id = r.target_id AND s.business_id = r.business_id)) = ?`,
      )
      .bind(tenant.businessId, exceptId, wanted.merchantId, wanted.accountNumber, wanted.provider)
      .first<number>("hit"),
  ]);
  return Boolean(row || pending);
}
