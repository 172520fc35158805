import { merchantNumberMatch, type MerchantNumber } from "../merchants/merchants.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textContains, textStartsWith } from "../lists/search";
import type { BusinessDb, Tenant } from "../tenancy/tenant";
import type { Transaction } from "../payments/transactions.db";

export interface Settlement {
  id: string;
  merchantId: string;
  settlementAccountId: string;
  /** The transfer it pays out (decision 052: its period is the instant of the approval, its fees 0); null for the daily run's. */
  transferId: string | null;
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
  /** The rail it was sent through (migration 0031; "switch", "paystack", "simulator"), its own reference and status word, and since when it waits for the rail's answer; null until a rail said something. */
  rail: string | null;
  railReference: string | null;
  railStatus: string | null;
  railWaitingSince: string | null;
}

const COLUMNS = `id, merchant_id AS merchantId, settlement_account_id AS settlementAccountId, transfer_id AS transferId, period_start AS periodStart,
  period_end AS periodEnd, gross, fees, net, status, reference, attempts, created_at AS createdAt, paid_at AS paidAt,
  rail, rail_reference AS railReference, rail_status AS railStatus, rail_waiting_since AS railWaitingSince`;
const SELECT = `SELECT ${COLUMNS} FROM settlements`;

export async function getSettlement(tenant: BusinessDb, id: string): Promise<Settlement | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Settlement>();
}

/** Newest period first; `from` (inclusive) and `to` (exclusive), epoch ms, bound the day a settlement is for. */
export async function listSettlements(
  tenant: Tenant,
  query: PageQuery & {
    merchantId?: string;
    status?: Settlement["status"];
    merchantSearch?: string;
    merchantNumber?: MerchantNumber;
    from?: number;
    to?: number;
  } = {},
): Promise<Page<Settlement>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.merchantId) {
    where.push("merchant_id = ?");
    binds.push(query.merchantId);
  }
  const typed = query.merchantSearch?.trim();
  if (typed) {
    // A typed name or code rather than a list of every merchant: a business may have thousands.
    const name = textContains(["name", "trading_name"], typed);
    where.push(`merchant_id IN (SELECT id FROM merchants WHERE business_id = ? AND (${name.sql} OR code = ? COLLATE NOCASE))`);
    binds.push(tenant.businessId, ...name.binds, typed);
  }
  if (query.merchantNumber?.plain) {
    const match = merchantNumberMatch(query.merchantNumber);
    where.push(`merchant_id IN (SELECT id FROM merchants WHERE business_id = ? AND ${match.sql})`);
    binds.push(tenant.businessId, ...match.binds);
  }
  if (query.status) {
    where.push("status = ?");
    binds.push(query.status);
  }
  if (query.from !== undefined && query.to !== undefined) {
    where.push("period_start >= ? AND period_start < ?");
    binds.push(query.from, query.to);
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

/** The business's settlements whose id or reference begins with `text` (any case), newest period first, at most `limit`. */
export async function findSettlements(tenant: Tenant, text: string, limit: number): Promise<Settlement[]> {
  const { db } = tenant;
  const id = textStartsWith("id", text);
  const reference = textStartsWith("reference", text);
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ? AND (${id.sql} OR ${reference.sql}) ORDER BY period_start DESC, id DESC LIMIT ?`)
    .bind(tenant.businessId, ...id.binds, ...reference.binds, Math.max(1, Math.floor(limit)))
    .all<Settlement>();
  return results;
}

/** A payment a settlement covers, with what the detail panel shows of it. */
export type CoveredTransaction = Pick<
  Transaction,
  "id" | "reference" | "channel" | "network" | "amount" | "fee" | "cardBin" | "cardLast4" | "customerMsisdn" | "createdAt"
>;

/**
 * The payments a settlement covers, oldest first, at most `limit`, and how many
 * there are in all. settlement_items has no business_id: it is reached through
 * the business's settlement, and the payments through the same business.
 */
export async function listSettlementTransactions(tenant: Tenant, settlementId: string, limit = 100): Promise<{ rows: CoveredTransaction[]; total: number }> {
  const { db } = tenant;
  const [covered, count] = await db.batch([
    db
      .prepare(
        `SELECT t.id, t.reference, t.channel, t.network, t.amount, t.fee, t.card_bin AS cardBin, t.card_last4 AS cardLast4,
           t.customer_msisdn AS customerMsisdn, t.created_at AS createdAt
         FROM settlements s JOIN settlement_items i ON i.settlement_id = s.id JOIN transactions t ON t.id = i.transaction_id AND t.business_id = s.business_id
         WHERE s.id = ? AND s.business_id = ? ORDER BY t.created_at, t.id LIMIT ?`,
      )
      .bind(settlementId, tenant.businessId, pageSize(limit)),
    db
      .prepare("SELECT COUNT(*) AS n FROM settlements s JOIN settlement_items i ON i.settlement_id = s.id WHERE s.id = ? AND s.business_id = ?")
      .bind(settlementId, tenant.businessId),
  ]);
  return { rows: (covered?.results ?? []) as CoveredTransaction[], total: (count?.results[0] as { n: number } | undefined)?.n ?? 0 };
}

export interface PayoutAttempt {
  attempt: number;
  outcome: "paid" | "failed";
  error: string | null;
  at: string;
}

/** Each attempt to pay a settlement out, first first. */
export async function listPayoutAttempts(tenant: Tenant, settlementId: string): Promise<PayoutAttempt[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare("SELECT attempt, outcome, error, at FROM payout_attempts WHERE business_id = ? AND settlement_id = ? ORDER BY attempt")
    .bind(tenant.businessId, settlementId)
    .all<PayoutAttempt>();
  return results;
}

/** A settlement as GET /api/v1/settlements lists it: with the rail that paid it out, where one did (migration 0031). */
/** A settlement as the Partner API lists it: the rail's fields are every settlement's now. */
export type ListedSettlement = Settlement;

/**
 * A page of the business's settlements, newest first by (created_at, id), read by settlements_by_created or
 * settlements_by_status_created (migration 0033). Times are ISO text as stored: from inclusive, to exclusive.
 * `after` is the last row's (created_at, id); `limit` rows are asked for plus one, to know if more follow.
 */
export async function listSettlementsPage(
  { businessId, db }: BusinessDb,
  filter: { status?: Settlement["status"]; from?: string; to?: string },
  after: readonly [createdAt: string, id: string] | null,
  limit: number,
): Promise<ListedSettlement[]> {
  const where = ["business_id = ?"];
  const binds: unknown[] = [businessId];
  if (filter.status) {
    where.push("status = ?");
    binds.push(filter.status);
  }
  if (filter.from !== undefined) {
    where.push("created_at >= ?");
    binds.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("created_at < ?");
    binds.push(filter.to);
  }
  if (after) {
    where.push("created_at <= ? AND (created_at < ? OR id < ?)");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM settlements
       WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(...binds, limit + 1)
    .all<ListedSettlement>();
  return results;
}
