import { decodeCursor, likePattern, pageSize, toPage, type Page, type PageQuery } from "./page";
import type { Tenant } from "./tenant";

export type TransactionStatus = "successful" | "failed" | "reversed";

export interface Transaction {
  id: number;
  reference: string;
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string | null;
  channel: "card" | "mobile_money";
  network: string;
  amount: number;
  fee: number;
  status: TransactionStatus;
  cardBin: string | null;
  cardLast4: string | null;
  customerMsisdn: string | null;
  createdAt: number;
  clearedAt: number | null;
  /** From the processor (Partner API): why a failed payment failed; why and when a reversed one was reversed. */
  failureReason: string | null;
  reversalReason: string | null;
  reversedAt: number | null;
}

// Never SELECT * on a million-row table: name the columns.
const COLUMNS = `id, reference, merchant_id AS merchantId, point_of_sale_id AS pointOfSaleId, terminal_id AS terminalId, channel, network,
  amount, fee, status, card_bin AS cardBin, card_last4 AS cardLast4, customer_msisdn AS customerMsisdn, created_at AS createdAt, cleared_at AS clearedAt,
  failure_reason AS failureReason, reversal_reason AS reversalReason, reversed_at AS reversedAt`;

export interface TransactionFilter {
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
  status?: TransactionStatus;
  channel?: Transaction["channel"];
  network?: string;
  merchantId?: string;
  pointOfSaleId?: string;
  terminalId?: string;
  reference?: string;
  /** The customer's number as 233XXXXXXXXX. */
  customerMsisdn?: string;
  cardLast4?: string;
  /** Part of a merchant's name or trading name, or a reference written mostly in letters. */
  merchantSearch?: string;
}

function whereOf(tenant: Tenant, filter: TransactionFilter): { sql: string; binds: unknown[] } {
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  const equal: [string, unknown][] = [
    ["status", filter.status],
    ["channel", filter.channel],
    ["network", filter.network],
    ["merchant_id", filter.merchantId],
    ["point_of_sale_id", filter.pointOfSaleId],
    ["terminal_id", filter.terminalId],
    ["reference", filter.reference],
    ["customer_msisdn", filter.customerMsisdn],
    ["card_last4", filter.cardLast4],
  ];
  for (const [column, value] of equal) {
    if (value !== undefined && value !== "") {
      where.push(`${column} = ?`);
      binds.push(value);
    }
  }
  if (filter.merchantSearch?.trim()) {
    const pattern = likePattern(filter.merchantSearch.trim());
    // A processor's reference may be mostly letters (SIMMWT7BG05T18): such a search is also that reference, exactly.
    where.push(
      "(merchant_id IN (SELECT id FROM merchants WHERE business_id = ? AND (name LIKE ? ESCAPE '\\' OR trading_name LIKE ? ESCAPE '\\')) OR reference IN (?, ?))",
    );
    binds.push(tenant.businessId, pattern, pattern, filter.merchantSearch.trim(), filter.merchantSearch.trim().toUpperCase());
  }
  if (filter.from !== undefined) {
    where.push("created_at >= ?");
    binds.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("created_at < ?");
    binds.push(filter.to);
  }
  return { sql: where.join(" AND "), binds };
}

export async function getTransaction(tenant: Tenant, id: number): Promise<Transaction | null> {
  const { db } = tenant;
  return db.prepare(`SELECT ${COLUMNS} FROM transactions WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Transaction>();
}

/** Newest first. */
export async function listTransactions(tenant: Tenant, query: TransactionFilter & PageQuery = {}): Promise<Page<Transaction>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const { sql, binds } = whereOf(tenant, query);
  const after = decodeCursor(query.after, 2);
  const keyset = after ? " AND (created_at < ? OR (created_at = ? AND id < ?))" : "";
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM transactions WHERE ${sql}${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, ...(after ? [after[0], after[0], after[1]] : []), size + 1)
    .all<Transaction>();
  return toPage(results, size, (t) => [t.createdAt, t.id]);
}

export interface TransactionTotals {
  count: number;
  /** Successful payments only: what actually moved. */
  gross: number;
  fees: number;
  net: number;
}

export async function transactionTotals(tenant: Tenant, filter: TransactionFilter = {}): Promise<TransactionTotals> {
  const { db } = tenant;
  const { sql, binds } = whereOf(tenant, filter);
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS count,
        coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross,
        coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees
       FROM transactions WHERE ${sql}`,
    )
    .bind(...binds)
    .first<{ count: number; gross: number; fees: number }>();
  const count = row?.count ?? 0;
  const gross = row?.gross ?? 0;
  const fees = row?.fees ?? 0;
  return { count, gross, fees, net: gross - fees };
}
