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
  /** Its payout, for an approved transfer to a settlement account (a settlements row, migration 0044); null otherwise. */
  payout: TransferPayout | null;
}

/** How far a transfer's payout has gone, as its settlement says it. */
export interface TransferPayout {
  settlementId: string;
  status: "pending" | "paid" | "failed";
  /** The reference the merchant's bank or wallet statement shows. */
  reference: string;
  attempts: number;
  paidAt: string | null;
  /** The rail's own reference for the payout, once the rail gave one. */
  railReference: string | null;
}

type TransferRow = Omit<Transfer, "payout"> & {
  payoutId: string | null;
  payoutStatus: TransferPayout["status"] | null;
  payoutReference: string | null;
  payoutAttempts: number | null;
  payoutPaidAt: string | null;
  payoutRailReference: string | null;
};

function toTransfer({ payoutId, payoutStatus, payoutReference, payoutAttempts, payoutPaidAt, payoutRailReference, ...transfer }: TransferRow): Transfer {
  const payout =
    payoutId && payoutStatus && payoutReference
      ? {
          settlementId: payoutId,
          status: payoutStatus,
          reference: payoutReference,
          attempts: payoutAttempts ?? 0,
          paidAt: payoutPaidAt,
          railReference: payoutRailReference,
        }
      : null;
  return { ...transfer, payout };
}

const SELECT = `SELECT t.id, t.from_merchant_id AS fromMerchantId, t.to_settlement_account_id AS toSettlementAccountId, t.to_merchant_id AS toMerchantId,
  t.amount, t.narration, t.status, t.requested_by AS requestedBy, t.approved_by AS approvedBy, t.created_at AS createdAt, t.decided_at AS decidedAt,
  s.id AS payoutId, s.status AS payoutStatus, s.reference AS payoutReference, s.attempts AS payoutAttempts, s.paid_at AS payoutPaidAt,
  s.rail_reference AS payoutRailReference
  FROM transfers t LEFT JOIN settlements s ON s.transfer_id = t.id AND s.business_id = t.business_id`;

export async function getTransfer(tenant: Tenant, id: string): Promise<Transfer | null> {
  const { db } = tenant;
  const row = await db.prepare(`${SELECT} WHERE t.id = ? AND t.business_id = ?`).bind(id, tenant.businessId).first<TransferRow>();
  return row ? toTransfer(row) : null;
}

/** Every transfer into or out of a merchant account, newest first. */
export async function listMerchantTransfers(tenant: Tenant, query: PageQuery & { merchantId: string }): Promise<Page<Transfer>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const keyset = after ? " AND (t.created_at < ? OR (t.created_at = ? AND t.id < ?))" : "";
  const { results } = await db
    .prepare(`${SELECT} WHERE t.business_id = ? AND (t.from_merchant_id = ? OR t.to_merchant_id = ?)${keyset} ORDER BY t.created_at DESC, t.id DESC LIMIT ?`)
    .bind(tenant.businessId, query.merchantId, query.merchantId, ...(after ? [after[0], after[0], after[1]] : []), size + 1)
    .all<TransferRow>();
  return toPage(results.map(toTransfer), size, (t) => [t.createdAt, t.id]);
}
