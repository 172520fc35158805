import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textContains } from "../lists/search";
import type { Tenant } from "../tenancy/tenant";
import type { Channel } from "../ledger/pricing";

export type TransactionStatus = "successful" | "failed" | "reversed";

export interface Transaction {
  id: number;
  reference: string;
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string | null;
  channel: Channel;
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
  // The rest are the ways one typed search can match (app/routes/transactions/transaction-search.ts): a payment that matches any of
  // them is found.
  reference?: string;
  /** The last characters of a reference, in either case; one shorter than REFERENCE_TAIL_MIN finds only itself. */
  referenceTail?: string;
  /** The customer's number as 233XXXXXXXXX. */
  customerMsisdn?: string;
  cardLast4?: string;
  /** The last four digits of the payer's phone, as the payer column shows them (233*****1180). */
  phoneLast4?: string;
  /** Pesewas. */
  amount?: number;
  /** Part of a merchant's name or trading name, or a reference written mostly in letters. */
  merchantSearch?: string;
}

/** The characters transactions_by_reference_tail keys (migration 0029): a shorter tail cannot be looked up by it. */
const REFERENCE_TAIL_MIN = 4;

/** Whether a filter searches: its totals must then be read from the payments, not the daily rollups. */
export function searches(filter: TransactionFilter): boolean {
  return (
    [filter.reference, filter.referenceTail, filter.customerMsisdn, filter.cardLast4, filter.phoneLast4, filter.merchantSearch?.trim()].some(Boolean) ||
    filter.amount !== undefined
  );
}

/** D1 takes at most 5 terms in a compound SELECT: the UNION of a search's branches. */
const MAX_BRANCHES = 5;

/** Where a list or a total reads payments: the table (with the index a branch must use) and the WHERE. */
interface Branch {
  from: string;
  sql: string;
  binds: unknown[];
}

/**
 * The reads of a filter: one, or for a search, one per way it can match (the payments of the merchants so named, of a
 * reference, of its tail, of a phone, a card's last four, an amount). An OR of these read every payment of the period
 * row by row; each branch alone reads an index, and the answer is their UNION (the search box makes at most 3).
 */
function branchesOf(tenant: Tenant, filter: TransactionFilter): Branch[] {
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  const equal: [string, unknown][] = [
    ["status", filter.status],
    ["channel", filter.channel],
    ["network", filter.network],
    ["merchant_id", filter.merchantId],
    ["point_of_sale_id", filter.pointOfSaleId],
    ["terminal_id", filter.terminalId],
  ];
  for (const [column, value] of equal) {
    if (value !== undefined && value !== "") {
      where.push(`${column} = ?`);
      binds.push(value);
    }
  }
  if (filter.from !== undefined) {
    where.push("created_at >= ?");
    binds.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push("created_at < ?");
    binds.push(filter.to);
  }
  const branch = (from: string, sql: string, more: unknown[]): Branch => ({ from, sql: [...where, sql].join(" AND "), binds: [...binds, ...more] });
  const branches: Branch[] = [];
  const word = filter.merchantSearch?.trim();
  if (word) {
    const name = textContains(["name", "trading_name"], word);
    // By merchant, then by time: a word no merchant's name has reads nothing (by time, it read the whole range).
    branches.push(
      branch("transactions INDEXED BY transactions_by_merchant", `merchant_id IN (SELECT id FROM merchants WHERE business_id = ? AND ${name.sql})`, [
        tenant.businessId,
        ...name.binds,
      ]),
    );
  }
  // A processor's reference may be mostly letters (SIMMWT7BG05T18): a word is also that reference, exactly (as typed,
  // or in capitals). An equality reads the unique (business, reference) key.
  const tail = filter.referenceTail?.trim();
  const longTail = tail && [...tail].length >= REFERENCE_TAIL_MIN ? tail : undefined;
  const exact = [filter.reference, word, word?.toUpperCase(), longTail ? undefined : tail, longTail ? undefined : tail?.toUpperCase()];
  const references = [...new Set(exact.filter((text): text is string => Boolean(text)))];
  if (references.length > 0) branches.push(branch("transactions", `reference IN (${references.map(() => "?").join(", ")})`, references));
  if (longTail) {
    // The index finds the references ending in the tail's last four characters (a handful a month), and the whole
    // tail is compared on those; upper() on both sides folds ASCII letters as the index does.
    branches.push(
      branch(
        "transactions INDEXED BY transactions_by_reference_tail",
        "upper(substr(reference, -4)) = upper(substr(?, -4)) AND upper(substr(reference, -length(?))) = upper(?)",
        [longTail, longTail, longTail],
      ),
    );
  }
  if (filter.customerMsisdn) branches.push(branch("transactions", "customer_msisdn = ?", [filter.customerMsisdn]));
  if (filter.cardLast4) branches.push(branch("transactions", "card_last4 = ?", [filter.cardLast4]));
  if (filter.phoneLast4) {
    branches.push(
      branch("transactions INDEXED BY transactions_by_msisdn_tail", "customer_msisdn IS NOT NULL AND substr(customer_msisdn, -4) = ?", [filter.phoneLast4]),
    );
  }
  if (filter.amount !== undefined) branches.push(branch("transactions INDEXED BY transactions_by_amount", "amount = ?", [filter.amount]));
  // Only a caller that asks for every way at once gets here; a D1 error would say less.
  if (branches.length > MAX_BRANCHES) throw new Error(`A transactions search reads at most ${MAX_BRANCHES} ways at once, not ${branches.length}.`);
  return branches.length > 0 ? branches : [{ from: "transactions", sql: where.join(" AND "), binds }];
}

export async function getTransaction(tenant: Tenant, id: number): Promise<Transaction | null> {
  const { db } = tenant;
  return db.prepare(`SELECT ${COLUMNS} FROM transactions WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Transaction>();
}

/** Where a payment was taken and where its money went: the names a payment's detail links by. */
export interface PaymentPlaces {
  pointOfSaleName: string | null;
  terminalSerial: string | null;
  /** The settlement that paid it out, if one has. */
  settlementId: string | null;
  settlementReference: string | null;
  settlementStatus: "pending" | "paid" | "failed" | null;
}

/** A payment of the business's places and settlement; null for a payment it does not have. */
export async function getPaymentPlaces(tenant: Tenant, id: number): Promise<PaymentPlaces | null> {
  const { db } = tenant;
  // settlement_items has no business_id: it is reached through this business's payment and settlement.
  return db
    .prepare(
      `SELECT p.name AS pointOfSaleName, tm.serial AS terminalSerial,
         s.id AS settlementId, s.reference AS settlementReference, s.status AS settlementStatus
       FROM transactions t
       LEFT JOIN points_of_sale p ON p.business_id = t.business_id AND p.id = t.point_of_sale_id
       LEFT JOIN terminals tm ON tm.business_id = t.business_id AND tm.id = t.terminal_id
       LEFT JOIN settlement_items si ON si.transaction_id = t.id
       LEFT JOIN settlements s ON s.business_id = t.business_id AND s.id = si.settlement_id
       WHERE t.business_id = ? AND t.id = ?`,
    )
    .bind(tenant.businessId, id)
    .first<PaymentPlaces>();
}

/** Newest first. */
export async function listTransactions(tenant: Tenant, query: TransactionFilter & PageQuery = {}): Promise<Page<Transaction>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const keyset = after ? " AND (created_at < ? OR (created_at = ? AND id < ?))" : "";
  const afterBinds = after ? [after[0], after[0], after[1]] : [];
  const branches = branchesOf(tenant, query).map(({ from, sql, binds }) => ({
    sql: `SELECT ${COLUMNS} FROM ${from} WHERE ${sql}${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`,
    binds: [...binds, ...afterBinds, size + 1],
  }));
  // Each branch takes its own newest page by its own index; the union is then one page again.
  const statement =
    branches.length === 1
      ? db.prepare(branches[0]!.sql).bind(...branches[0]!.binds)
      : db
          .prepare(`${branches.map((branch) => `SELECT * FROM (${branch.sql})`).join(" UNION ")} ORDER BY createdAt DESC, id DESC LIMIT ?`)
          .bind(...branches.flatMap((branch) => branch.binds), size + 1);
  const { results } = await statement.all<Transaction>();
  return toPage(results, size, (t) => [t.createdAt, t.id]);
}

export interface TransactionTotals {
  /** Every payment of the set, whatever its status. */
  count: number;
  /** Of them, the successful ones: gross, fees and net are theirs. */
  successful: number;
  /** Successful payments only: what actually moved. */
  gross: number;
  fees: number;
  net: number;
}

export async function transactionTotals(tenant: Tenant, filter: TransactionFilter = {}): Promise<TransactionTotals> {
  const { db } = tenant;
  const branches = branchesOf(tenant, filter);
  // A payment both branches find (its merchant's name and its reference match) counts once: UNION keeps one (id, …).
  const rows = branches.map(({ from, sql }) => `SELECT id, status, amount, fee FROM ${from} WHERE ${sql}`).join(" UNION ");
  const row = await db
    .prepare(
      `SELECT COUNT(*) AS count, coalesce(SUM(status = 'successful'), 0) AS successful,
        coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross,
        coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees
       FROM (${rows})`,
    )
    .bind(...branches.flatMap((branch) => branch.binds))
    .first<{ count: number; successful: number; gross: number; fees: number }>();
  const count = row?.count ?? 0;
  const successful = row?.successful ?? 0;
  const gross = row?.gross ?? 0;
  const fees = row?.fees ?? 0;
  return { count, successful, gross, fees, net: gross - fees };
}
