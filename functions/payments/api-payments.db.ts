// What the Partner API reads at the door: the merchants, points of sale and
// terminals a request names, in the key's business only (tenant first): another
// business's id reads exactly as an unknown one, so a key
// holder cannot learn that an id exists elsewhere. And one payment by reference.
import type { BusinessDb } from "../tenancy/tenant";
import type { Channel } from "../ledger/pricing";

export interface PartyRow {
  id: string;
  /** Merchants: the code; points of sale: the merchant; terminals: the point of sale they stand at. */
  link: string | null;
  /** Terminals: the serial. */
  serial?: string;
  code?: string;
  /** Terminals: the last heartbeat's time (epoch ms), or null. */
  lastSeenAt?: number | null;
}

export interface Parties {
  merchants: PartyRow[];
  pointsOfSale: PartyRow[];
  terminals: PartyRow[];
}

/** This business's merchants by id or code, points of sale by id, terminals by serial. */
export async function findParties({ businessId, db }: BusinessDb, names: { merchants: string[]; pointsOfSale: string[]; serials: string[] }): Promise<Parties> {
  const [merchants, pointsOfSale, terminals] = await db.batch<PartyRow>([
    db
      .prepare(
        `SELECT id, code AS link, code FROM merchants
         WHERE business_id = ?1 AND (id IN (SELECT value FROM json_each(?2)) OR code IN (SELECT value FROM json_each(?2)))`,
      )
      .bind(businessId, JSON.stringify(names.merchants)),
    db
      .prepare("SELECT id, merchant_id AS link FROM points_of_sale WHERE business_id = ?1 AND id IN (SELECT value FROM json_each(?2))")
      .bind(businessId, JSON.stringify(names.pointsOfSale)),
    db
      .prepare(
        "SELECT id, point_of_sale_id AS link, serial, last_seen_at AS lastSeenAt FROM terminals WHERE business_id = ?1 AND serial IN (SELECT value FROM json_each(?2))",
      )
      .bind(businessId, JSON.stringify(names.serials)),
  ]);
  return { merchants: merchants?.results ?? [], pointsOfSale: pointsOfSale?.results ?? [], terminals: terminals?.results ?? [] };
}

/** A payment as stored, with its settlement: what GET /api/v1/payments answers. ("Held" means only a dispute hold.) */
export interface StoredPayment {
  reference: string;
  merchantId: string;
  merchantCode: string;
  pointOfSaleId: string;
  terminalSerial: string | null;
  channel: Channel;
  network: string;
  amount: number;
  fee: number;
  status: "successful" | "failed" | "reversed";
  failureReason: string | null;
  cardBin: string | null;
  cardLast4: string | null;
  msisdn: string | null;
  createdAt: number;
  clearedAt: number | null;
  reversalReason: string | null;
  reversedAt: number | null;
  settlementId: string | null;
  settlementReference: string | null;
  settlementStatus: "pending" | "paid" | "failed" | null;
  settlementPaidAt: string | null;
}

/**
 * A payment as the API describes it, with its merchant's code and terminal's serial: the columns and joins the
 * GET answer and the ingest consumer (functions/payments/ingest.db.ts) both read. `t` is the payment.
 */
export const PAYMENT_COLUMNS = `t.reference, t.merchant_id AS merchantId, m.code AS merchantCode, t.point_of_sale_id AS pointOfSaleId, tm.serial AS terminalSerial,
  t.channel, t.network, t.amount, t.fee, t.status, t.failure_reason AS failureReason, t.card_bin AS cardBin, t.card_last4 AS cardLast4,
  t.customer_msisdn AS msisdn, t.created_at AS createdAt, t.cleared_at AS clearedAt, t.reversal_reason AS reversalReason, t.reversed_at AS reversedAt`;
export const PAYMENT_FROM = `transactions t
  JOIN merchants m ON m.id = t.merchant_id AND m.business_id = t.business_id
  LEFT JOIN terminals tm ON tm.id = t.terminal_id AND tm.business_id = t.business_id`;

/** One payment of the business by the processor's reference, with the settlement that paid it. */
export async function getPaymentByReference({ businessId, db }: BusinessDb, reference: string): Promise<StoredPayment | null> {
  return db
    .prepare(
      `SELECT ${PAYMENT_COLUMNS},
         s.id AS settlementId, s.reference AS settlementReference, s.status AS settlementStatus, s.paid_at AS settlementPaidAt
       FROM ${PAYMENT_FROM}
       LEFT JOIN settlement_items si ON si.transaction_id = t.id
       LEFT JOIN settlements s ON s.id = si.settlement_id AND s.business_id = t.business_id
       WHERE t.business_id = ? AND t.reference = ?`,
    )
    .bind(businessId, reference)
    .first<StoredPayment>();
}

/** What GET /api/v1/payments narrows to. Times are epoch ms: from inclusive, to exclusive. */
export interface ApiPaymentFilter {
  from?: number;
  to?: number;
  status?: StoredPayment["status"];
  merchantId?: string;
  channel?: Channel;
}

/** A payment of a list, with its row id (the page's key, and how its refunds are found). */
export type ListedPayment = StoredPayment & { id: number };

/**
 * A page of the business's payments, newest first by (created_at, id), with their settlements: one statement, read by
 * the index of the filter (transactions_by_status, _by_merchant, or _by_time; the rowid closes each of them, so the
 * order needs no sort). `after` is the last row's (created_at, id): the range on created_at bounds the index read, and
 * the id breaks ties, so page 1,000 reads what page 1 reads. `limit` rows are asked for plus one, to know if more follow.
 */
export async function listPaymentsPage(
  { businessId, db }: BusinessDb,
  filter: ApiPaymentFilter,
  after: readonly [createdAt: number, id: number] | null,
  limit: number,
): Promise<ListedPayment[]> {
  const where = ["t.business_id = ?"];
  const binds: unknown[] = [businessId];
  const equal: [string, unknown][] = [
    ["t.status", filter.status],
    ["t.merchant_id", filter.merchantId],
    ["t.channel", filter.channel],
  ];
  for (const [column, value] of equal) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    binds.push(value);
  }
  if (filter.from !== undefined) {
    where.push("t.created_at >= ?");
    binds.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("t.created_at < ?");
    binds.push(filter.to);
  }
  if (after) {
    where.push("t.created_at <= ? AND (t.created_at < ? OR t.id < ?)");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(
      `SELECT t.id, ${PAYMENT_COLUMNS},
         s.id AS settlementId, s.reference AS settlementReference, s.status AS settlementStatus, s.paid_at AS settlementPaidAt
       FROM ${PAYMENT_FROM}
       LEFT JOIN settlement_items si ON si.transaction_id = t.id
       LEFT JOIN settlements s ON s.id = si.settlement_id AND s.business_id = t.business_id
       WHERE ${where.join(" AND ")}
       ORDER BY t.created_at DESC, t.id DESC LIMIT ?`,
    )
    .bind(...binds, limit + 1)
    .all<ListedPayment>();
  return results;
}
