// What the cold archive (functions/archive/) reads and writes in D1: a month's
// payments with their ledger entries and settlement items, the month's figures
// (the manifest's numbers, counted by SQL to check the object against), the
// archived months, the reference index, and the deletes and re-inserts.
// docs/decisions/019-cold-archive.md.
import type { BusinessDb, Db, Tenant } from "../tenancy/tenant";
import type { Channel } from "../ledger/pricing";

/** A payment as D1 holds it, column by column: what the archive keeps and a restore writes back. */
export interface PaymentRow {
  id: number;
  business_id: string;
  reference: string;
  merchant_id: string;
  point_of_sale_id: string;
  terminal_id: string | null;
  channel: Channel;
  network: string;
  amount: number;
  fee: number;
  status: "successful" | "failed" | "reversed";
  card_bin: string | null;
  card_last4: string | null;
  customer_msisdn: string | null;
  created_at: number;
  cleared_at: number | null;
  failure_reason: string | null;
  reversed_at: number | null;
  reversal_reason: string | null;
  fingerprint: string | null;
}

/** A ledger entry as D1 holds it. */
export interface EntryRow {
  id: number;
  business_id: string;
  posting_id: string;
  account_id: string;
  amount: number;
  transaction_id: number;
  transfer_id: string | null;
  settlement_id: string | null;
  memo: string;
  posted_at: number;
}

// Every column, named: a column added to these tables must be added here (the restore test compares whole rows).
const PAYMENT_COLUMNS = [
  "id",
  "business_id",
  "reference",
  "merchant_id",
  "point_of_sale_id",
  "terminal_id",
  "channel",
  "network",
  "amount",
  "fee",
  "status",
  "card_bin",
  "card_last4",
  "customer_msisdn",
  "created_at",
  "cleared_at",
  "failure_reason",
  "reversed_at",
  "reversal_reason",
  "fingerprint",
] as const satisfies readonly (keyof PaymentRow)[];
const ENTRY_COLUMNS = [
  "id",
  "business_id",
  "posting_id",
  "account_id",
  "amount",
  "transaction_id",
  "transfer_id",
  "settlement_id",
  "memo",
  "posted_at",
] as const satisfies readonly (keyof EntryRow)[];

/** A month in epoch ms: [from, to). */
export interface MonthSpan {
  from: number;
  to: number;
}

export interface MonthPage {
  payments: PaymentRow[];
  entries: EntryRow[];
  /** Settlement id by payment id. */
  items: { transaction_id: number; settlement_id: string }[];
}

/** Every business, for the daily job. */
export async function archiveBusinessIds(db: Db): Promise<string[]> {
  return (await db.prepare("SELECT id FROM businesses ORDER BY id").all<{ id: string }>()).results.map((b) => b.id);
}

/** The first payment's time in [from, before), or null: the next month the job has to look at. */
export async function firstPaymentAt({ businessId, db }: BusinessDb, from: number, before: number): Promise<number | null> {
  const row = await db
    .prepare("SELECT MIN(created_at) AS at FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ?")
    .bind(businessId, from, before)
    .first<{ at: number | null }>();
  return row?.at ?? null;
}

const PAGE_IDS = `SELECT id FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ? AND id <= ?
  AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ?`;

/**
 * One page of the month's payments (created_at, id order) with their entries and settlement items, read in one
 * batch (one snapshot). Only ids up to maxId: what the object holds is what a delete may remove.
 */
export async function readMonthPage(
  { businessId, db }: BusinessDb,
  span: MonthSpan,
  maxId: number,
  after: { createdAt: number; id: number } | null,
  limit: number,
): Promise<MonthPage> {
  const keyset = after ? [after.createdAt, after.createdAt, after.id] : [-1, -1, -1];
  const binds = [businessId, span.from, span.to, maxId, ...keyset, limit];
  const [payments, entries, items] = await db.batch([
    db.prepare(`SELECT ${PAYMENT_COLUMNS.join(", ")} FROM transactions WHERE id IN (${PAGE_IDS}) ORDER BY created_at, id`).bind(...binds),
    db
      .prepare(`SELECT ${ENTRY_COLUMNS.join(", ")} FROM ledger_entries WHERE business_id = ? AND transaction_id IN (${PAGE_IDS}) ORDER BY transaction_id, id`)
      .bind(businessId, ...binds),
    // settlement_items has no business_id: it is reached through this business's payments.
    db.prepare(`SELECT transaction_id, settlement_id FROM settlement_items WHERE transaction_id IN (${PAGE_IDS})`).bind(...binds),
  ]);
  return {
    payments: (payments?.results ?? []) as PaymentRow[],
    entries: (entries?.results ?? []) as EntryRow[],
    items: (items?.results ?? []) as MonthPage["items"],
  };
}

/** The highest payment id of the month now: the snapshot's bound (later rows are not archived, nor deleted). */
export async function monthMaxId({ businessId, db }: BusinessDb, span: MonthSpan): Promise<number | null> {
  const row = await db
    .prepare("SELECT MAX(id) AS id FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ?")
    .bind(businessId, span.from, span.to)
    .first<{ id: number | null }>();
  return row?.id ?? null;
}

/** The manifest's numbers. */
export interface MonthFigures {
  payments: number;
  successful: number;
  gross: number;
  fees: number;
  amountSum: number;
  feeSum: number;
  entries: number;
  entryDebits: number;
  settlementItems: number;
  /** Per ledger account: how many of the month's entries it has and their sum. */
  accounts: { accountId: string; entries: number; amount: number }[];
}

/** The month's figures as SQL counts them, independently of the pages the object was written from. */
export async function monthFigures({ businessId, db }: BusinessDb, span: MonthSpan, maxId: number): Promise<MonthFigures> {
  const month = "SELECT id FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ? AND id <= ?";
  const binds = [businessId, span.from, span.to, maxId];
  const [payments, accounts, entries, items] = await db.batch([
    db
      .prepare(
        `SELECT COUNT(*) AS payments, coalesce(SUM(status = 'successful'), 0) AS successful,
           coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross, coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees,
           coalesce(SUM(amount), 0) AS amountSum, coalesce(SUM(fee), 0) AS feeSum
         FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ? AND id <= ?`,
      )
      .bind(...binds),
    db
      .prepare(
        `SELECT account_id AS accountId, COUNT(*) AS entries, SUM(amount) AS amount FROM ledger_entries
         WHERE business_id = ? AND transaction_id IN (${month}) GROUP BY account_id ORDER BY account_id`,
      )
      .bind(businessId, ...binds),
    db
      .prepare(
        `SELECT COUNT(*) AS n, coalesce(SUM(CASE WHEN amount > 0 THEN amount END), 0) AS debits FROM ledger_entries WHERE business_id = ? AND transaction_id IN (${month})`,
      )
      .bind(businessId, ...binds),
    db.prepare(`SELECT COUNT(*) AS n FROM settlement_items WHERE transaction_id IN (${month})`).bind(...binds),
  ]);
  const totals = payments?.results[0] as Omit<MonthFigures, "entries" | "entryDebits" | "settlementItems" | "accounts">;
  const entryRows = entries?.results[0] as { n: number; debits: number } | undefined;
  return {
    ...totals,
    entries: entryRows?.n ?? 0,
    entryDebits: entryRows?.debits ?? 0,
    settlementItems: (items?.results[0] as { n: number } | undefined)?.n ?? 0,
    accounts: (accounts?.results ?? []) as MonthFigures["accounts"],
  };
}

export interface ArchiveMonth {
  id: number;
  month: string;
  objectKey: string;
  status: "deleting" | "archived";
  payments: number;
  successful: number;
  gross: number;
  fees: number;
  amountSum: number;
  feeSum: number;
  entries: number;
  entryDebits: number;
  settlementItems: number;
  maxId: number;
  bytes: number;
  sha256: string;
  archivedAt: number;
}

const MONTH_COLUMNS = `id, month, object_key AS objectKey, status, payments, successful, gross, fees, amount_sum AS amountSum, fee_sum AS feeSum,
  entries, entry_debits AS entryDebits, settlement_items AS settlementItems, max_id AS maxId, bytes, sha256, archived_at AS archivedAt`;

export async function getArchiveMonth({ businessId, db }: BusinessDb, month: string): Promise<ArchiveMonth | null> {
  return db.prepare(`SELECT ${MONTH_COLUMNS} FROM archive_months WHERE business_id = ? AND month = ?`).bind(businessId, month).first<ArchiveMonth>();
}

/** The business's archived months, newest first (the transactions screen; a business has one row a month at most). */
export async function listArchiveMonths(tenant: Tenant): Promise<ArchiveMonth[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(`SELECT ${MONTH_COLUMNS} FROM archive_months WHERE business_id = ? ORDER BY month DESC`)
    .bind(tenant.businessId)
    .all<ArchiveMonth>();
  return results;
}

/** One archived month of the signed-in business, or null (another business's month is as absent as one never archived). */
export async function findArchiveMonth(tenant: Tenant, month: string): Promise<ArchiveMonth | null> {
  return getArchiveMonth(tenant, month);
}

/** Months whose rows are still being deleted (a run stopped halfway): the job finishes them first. */
export async function monthsDeleting({ businessId, db }: BusinessDb): Promise<ArchiveMonth[]> {
  const { results } = await db
    .prepare(`SELECT ${MONTH_COLUMNS} FROM archive_months WHERE business_id = ? AND status = 'deleting' ORDER BY month`)
    .bind(businessId)
    .all<ArchiveMonth>();
  return results;
}

/** References hashed per statement: a JSON parameter well under D1's 2 MB value limit. */
const HASHES_PER_STATEMENT = 5_000;

export type NewArchiveMonth = Omit<ArchiveMonth, "id" | "status" | "archivedAt">;

/**
 * Records a verified month in one batch: the month ('deleting': its rows go next), the reference index and the
 * per-account sums. Nothing is deleted before this has committed.
 */
export async function recordArchiveMonth(
  { businessId, db }: BusinessDb,
  record: NewArchiveMonth,
  figures: MonthFigures,
  refHashes: readonly number[],
  now: number,
): Promise<void> {
  const monthId = "(SELECT id FROM archive_months WHERE business_id = ? AND month = ?)";
  const statements = [
    db
      .prepare(
        `INSERT INTO archive_months (business_id, month, object_key, status, payments, successful, gross, fees, amount_sum, fee_sum, entries, entry_debits,
           settlement_items, max_id, bytes, sha256, archived_at)
         VALUES (?, ?, ?, 'deleting', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        businessId,
        record.month,
        record.objectKey,
        record.payments,
        record.successful,
        record.gross,
        record.fees,
        record.amountSum,
        record.feeSum,
        record.entries,
        record.entryDebits,
        record.settlementItems,
        record.maxId,
        record.bytes,
        record.sha256,
        now,
      ),
  ];
  const unique = [...new Set(refHashes)];
  for (let start = 0; start < unique.length; start += HASHES_PER_STATEMENT) {
    statements.push(
      db
        .prepare(`INSERT OR IGNORE INTO archive_references (ref_hash, month_id) SELECT value, ${monthId} FROM json_each(?)`)
        .bind(businessId, record.month, JSON.stringify(unique.slice(start, start + HASHES_PER_STATEMENT))),
    );
  }
  if (figures.accounts.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO archive_account_sums (month_id, account_id, entries, amount)
           SELECT ${monthId}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)`,
        )
        .bind(businessId, record.month, JSON.stringify(figures.accounts.map((a) => [a.accountId, a.entries, a.amount]))),
    );
  }
  await db.batch(statements);
}

/**
 * Deletes up to `limit` of the archived month's payments (ids up to the object's max id) with their entries and
 * settlement items, in one batch; when none was left, marks the month archived. Returns how many payments it deleted.
 */
export async function deleteArchivedBatch({ businessId, db }: BusinessDb, month: ArchiveMonth, span: MonthSpan, limit: number): Promise<number> {
  const ids = "SELECT id FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ? AND id <= ? ORDER BY created_at, id LIMIT ?";
  const binds = [businessId, span.from, span.to, month.maxId, limit];
  const results = await db.batch([
    // ledger_entries is a view over postings and their lines (migration 0012): the lines go first, then their postings.
    db
      .prepare(`DELETE FROM ledger_lines WHERE posting IN (SELECT id FROM ledger_postings WHERE business_id = ? AND transaction_id IN (${ids}))`)
      .bind(businessId, ...binds),
    db.prepare(`DELETE FROM ledger_postings WHERE business_id = ? AND transaction_id IN (${ids})`).bind(businessId, ...binds),
    db.prepare(`DELETE FROM settlement_items WHERE transaction_id IN (${ids})`).bind(...binds),
    db.prepare(`DELETE FROM transactions WHERE business_id = ? AND id IN (${ids})`).bind(businessId, ...binds),
  ]);
  const deleted = results[3]?.meta.changes ?? 0;
  if (deleted === 0) {
    await db.prepare("UPDATE archive_months SET status = 'archived' WHERE business_id = ? AND id = ?").bind(businessId, month.id).run();
  }
  return deleted;
}

/** Rows per restore statement (one JSON parameter each). */
const RESTORE_ROWS_PER_STATEMENT = 500;

function insertFromJson(db: Db, table: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (let start = 0; start < rows.length; start += RESTORE_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + RESTORE_ROWS_PER_STATEMENT).map((row) => columns.map((c) => row[c] ?? null));
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) SELECT ${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?)`,
        )
        .bind(JSON.stringify(chunk)),
    );
  }
  return statements;
}

/**
 * Puts archived payments back exactly (same ids, same columns), with their entries and settlement items, in one
 * batch. Rows still present (a month whose delete had not finished) are left as they are. Every row must be the
 * business's own: the caller checked the object is the business's month.
 */
export async function restoreRows({ businessId, db }: BusinessDb, page: MonthPage): Promise<void> {
  if (page.payments.some((p) => p.business_id !== businessId) || page.entries.some((e) => e.business_id !== businessId)) {
    throw new Error("An archived row of another business: refusing to restore it");
  }
  await db.batch([
    ...insertFromJson(db, "transactions", PAYMENT_COLUMNS, page.payments as unknown as Record<string, unknown>[]),
    ...insertFromJson(db, "ledger_entries", ENTRY_COLUMNS, page.entries as unknown as Record<string, unknown>[]),
    ...insertFromJson(db, "settlement_items", ["settlement_id", "transaction_id"], page.items),
  ]);
}

/** Forgets a restored month: its references, its account sums and its row. */
export async function forgetArchiveMonth({ businessId, db }: BusinessDb, month: ArchiveMonth): Promise<void> {
  const mine = "month_id IN (SELECT id FROM archive_months WHERE business_id = ? AND id = ?)";
  await db.batch([
    db.prepare(`DELETE FROM archive_references WHERE ${mine}`).bind(businessId, month.id),
    db.prepare(`DELETE FROM archive_account_sums WHERE ${mine}`).bind(businessId, month.id),
    db.prepare("DELETE FROM archive_months WHERE business_id = ? AND id = ?").bind(businessId, month.id),
  ]);
}

/** The business's archived months that may hold a payment whose reference hashes to one of these (newest first). */
export async function archiveMonthsForReferences(tenant: Tenant, refHashes: readonly number[]): Promise<ArchiveMonth[]> {
  const { db } = tenant;
  if (refHashes.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT ${MONTH_COLUMNS} FROM archive_months WHERE business_id = ?
         AND id IN (SELECT month_id FROM archive_references WHERE ref_hash IN (SELECT value FROM json_each(?))) ORDER BY month DESC`,
    )
    // One JSON array, not a ? per hash: D1 binds at most 100 parameters a statement.
    .bind(tenant.businessId, JSON.stringify([...refHashes]))
    .all<ArchiveMonth>();
  return results;
}
