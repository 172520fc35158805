// What a business move (functions/tenancy/shard-move.ts, decision 021) reads and writes: one business's rows, table by table,
// from the database it leaves to the one it goes to, then checked and removed from the first. These take the
// databases first: a move is the one piece of code that holds two databases of one business at once.
import type { Db } from "./tenant";

/** How a table's rows of one business are found, in the order a copy writes them (parents before children). */
interface TableCopy {
  table: string;
  /** The rows of the business: a FROM … WHERE whose one parameter is the business id; `t` is the table. */
  from: string;
  /** The key that orders the copy; a single integer or text column pages by it, anything else by offset. */
  key: readonly string[];
  /** Integer ids that are the database's own (its next row id): renumbered on the way in, above the target's. */
  renumber?: string;
  /** Columns holding another table's renumbered id. */
  follows?: Readonly<Record<string, string>>;
  /** Rows the target may already have (people, the business's row): kept as they are there. */
  shared?: boolean;
  /** Left on the database a business leaves (another business there may need them). */
  keep?: boolean;
}

const BY_BUSINESS = (table: string) => `${table} t WHERE t.business_id = ?`;

export const MOVED_TABLES: readonly TableCopy[] = [
  { table: "businesses", from: "businesses t WHERE t.id = ?", key: ["id"], shared: true },
  { table: "users", from: "users t WHERE t.id IN (SELECT user_id FROM memberships WHERE business_id = ?)", key: ["id"], shared: true, keep: true },
  {
    table: "user_phones",
    from: "user_phones t WHERE t.user_id IN (SELECT user_id FROM memberships WHERE business_id = ?)",
    key: ["user_id", "msisdn"],
    shared: true,
    keep: true,
  },
  { table: "memberships", from: BY_BUSINESS("memberships"), key: ["business_id", "user_id"] },
  { table: "merchants", from: BY_BUSINESS("merchants"), key: ["id"] },
  { table: "points_of_sale", from: BY_BUSINESS("points_of_sale"), key: ["id"] },
  { table: "terminals", from: BY_BUSINESS("terminals"), key: ["id"] },
  { table: "terminal_assignments", from: BY_BUSINESS("terminal_assignments"), key: ["id"], renumber: "id" },
  { table: "settlement_accounts", from: BY_BUSINESS("settlement_accounts"), key: ["id"] },
  { table: "approval_requests", from: BY_BUSINESS("approval_requests"), key: ["id"] },
  { table: "business_policies", from: BY_BUSINESS("business_policies"), key: ["id"] },
  { table: "ledger_accounts", from: BY_BUSINESS("ledger_accounts"), key: ["number"], renumber: "number" },
  { table: "transactions", from: BY_BUSINESS("transactions"), key: ["id"], renumber: "id" },
  { table: "transfers", from: BY_BUSINESS("transfers"), key: ["id"] },
  { table: "settlements", from: BY_BUSINESS("settlements"), key: ["id"] },
  {
    table: "settlement_items",
    from: "settlement_items t WHERE t.settlement_id IN (SELECT id FROM settlements WHERE business_id = ?)",
    key: ["settlement_id", "transaction_id"],
    follows: { transaction_id: "transactions" },
  },
  { table: "ledger_postings", from: BY_BUSINESS("ledger_postings"), key: ["id"], renumber: "id", follows: { transaction_id: "transactions" } },
  {
    table: "ledger_lines",
    from: "ledger_lines t WHERE t.posting IN (SELECT id FROM ledger_postings WHERE business_id = ?)",
    key: ["posting", "id"],
    renumber: "id",
    follows: { posting: "ledger_postings", account: "ledger_accounts" },
  },
  {
    table: "daily_rollups",
    from: BY_BUSINESS("daily_rollups"),
    key: ["business_id", "day", "merchant_id", "point_of_sale_id", "terminal_id", "channel", "network", "status"],
  },
  { table: "daily_merchant_totals", from: BY_BUSINESS("daily_merchant_totals"), key: ["business_id", "day", "merchant_id", "status"] },
  { table: "audit_log", from: BY_BUSINESS("audit_log"), key: ["id"], renumber: "id" },
  { table: "payout_attempts", from: BY_BUSINESS("payout_attempts"), key: ["id"], renumber: "id" },
  // Refunds point at their payment, renumbered on the way in.
  { table: "refunds", from: BY_BUSINESS("refunds"), key: ["id"], follows: { transaction_id: "transactions" } },
  { table: "refund_attempts", from: BY_BUSINESS("refund_attempts"), key: ["id"], renumber: "id" },
  { table: "api_keys", from: BY_BUSINESS("api_keys"), key: ["id"] },
  { table: "api_idempotency", from: BY_BUSINESS("api_idempotency"), key: ["business_id", "idempotency_key"] },
  { table: "payment_conflicts", from: BY_BUSINESS("payment_conflicts"), key: ["id"], renumber: "id" },
  { table: "pending_reversals", from: BY_BUSINESS("pending_reversals"), key: ["business_id", "reference"] },
  // Partner API messages parked by the consumer (decision 028): the business still sees them, an operator can replay them.
  { table: "ingest_parked", from: BY_BUSINESS("ingest_parked"), key: ["id"] },
  { table: "webhook_endpoints", from: BY_BUSINESS("webhook_endpoints"), key: ["id"] },
  { table: "webhook_events", from: BY_BUSINESS("webhook_events"), key: ["id"] },
  { table: "webhook_deliveries", from: BY_BUSINESS("webhook_deliveries"), key: ["id"] },
  { table: "webhook_attempts", from: BY_BUSINESS("webhook_attempts"), key: ["id"], renumber: "id" },
  // What is kept from closed days (decision 020): moved with its version, so nothing stale is ever read after a move back.
  // The cold archive's record of the business's months (decision 019); the objects stay in R2 under the business's id.
  { table: "archive_months", from: BY_BUSINESS("archive_months"), key: ["id"], renumber: "id" },
  {
    table: "archive_references",
    from: "archive_references t WHERE t.month_id IN (SELECT id FROM archive_months WHERE business_id = ?)",
    key: ["ref_hash", "month_id"],
    follows: { month_id: "archive_months" },
  },
  {
    table: "archive_account_sums",
    from: "archive_account_sums t WHERE t.month_id IN (SELECT id FROM archive_months WHERE business_id = ?)",
    key: ["month_id", "account_id"],
    follows: { month_id: "archive_months" },
  },
  { table: "closed_day_versions", from: BY_BUSINESS("closed_day_versions"), key: ["business_id"] },
  { table: "closed_day_cache", from: BY_BUSINESS("closed_day_cache"), key: ["business_id", "key"] },
  // Disputes (decision 023); the evidence files stay in R2 under the business's id.
  { table: "disputes", from: BY_BUSINESS("disputes"), key: ["id"], follows: { transaction_id: "transactions" } },
  { table: "dispute_evidence", from: BY_BUSINESS("dispute_evidence"), key: ["id"] },
  // Notices (decision 053), their deliveries and the people's choices.
  { table: "notifications", from: BY_BUSINESS("notifications"), key: ["id"] },
  { table: "notification_deliveries", from: BY_BUSINESS("notification_deliveries"), key: ["id"] },
  { table: "notification_preferences", from: BY_BUSINESS("notification_preferences"), key: ["business_id", "user_id", "kind", "channel"] },
];

type Row = Record<string, unknown>;

/** Every row of the business in a table, page by page (the order of its key). */
export async function* businessRows(db: Db, copy: TableCopy, businessId: string, pageSize: number): AsyncGenerator<Row[]> {
  const single = copy.key.length === 1;
  const order = copy.key.map((column) => `t.${column}`).join(", ");
  let after: unknown = null;
  for (let offset = 0; ; offset += pageSize) {
    const sql = single
      ? `SELECT t.* FROM ${copy.from} ${after === null ? "" : `AND t.${copy.key[0]} > ?`} ORDER BY ${order} LIMIT ?`
      : `SELECT t.* FROM ${copy.from} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const binds = single ? (after === null ? [businessId, pageSize] : [businessId, after, pageSize]) : [businessId, pageSize, offset];
    const { results } = await db
      .prepare(sql)
      .bind(...binds)
      .all<Row>();
    if (results.length === 0) return;
    yield results;
    if (results.length < pageSize) return;
    if (single) after = results.at(-1)![copy.key[0]!];
  }
}

/** The first id of the business's rows in `copy`'s renumbered column, and the target's last: what renumbering adds. */
export async function renumberOffset(from: Db, to: Db, copy: TableCopy, businessId: string): Promise<number> {
  if (!copy.renumber) return 0;
  const [first, last] = await Promise.all([
    from.prepare(`SELECT min(t.${copy.renumber}) AS n FROM ${copy.from}`).bind(businessId).first<number>("n"),
    to.prepare(`SELECT max(${copy.renumber}) AS n FROM ${copy.table}`).first<number>("n"),
  ]);
  if (first === null || last === null) return 0;
  return Math.max(0, last - first + 1);
}

/** Writes a page of rows into the target, with their ids moved by `offsets` (by table); people and the business's row are kept if there. */
export function insertRowsStatement(to: Db, copy: TableCopy, rows: readonly Row[], offsets: ReadonlyMap<string, number>): D1PreparedStatement {
  const columns = Object.keys(rows[0]!);
  const shifted = rows.map((row) => {
    const copyRow = { ...row };
    if (copy.renumber && typeof copyRow[copy.renumber] === "number")
      copyRow[copy.renumber] = (copyRow[copy.renumber] as number) + (offsets.get(copy.table) ?? 0);
    for (const [column, table] of Object.entries(copy.follows ?? {})) {
      if (typeof copyRow[column] === "number") copyRow[column] = copyRow[column] + (offsets.get(table) ?? 0);
    }
    return columns.map((column) => copyRow[column] ?? null);
  });
  const verb = copy.shared ? "INSERT OR IGNORE" : "INSERT";
  return to
    .prepare(`${verb} INTO ${copy.table} (${columns.join(", ")}) SELECT ${columns.map((_, i) => `value->>${i}`).join(", ")} FROM json_each(?)`)
    .bind(JSON.stringify(shifted));
}

/** Rows of the business per table, and per ledger account (by its text id: numbers differ between databases) the sum of its lines and its running sum. */
export async function businessFigures(db: Db, businessId: string): Promise<{ rows: Record<string, number>; accounts: Record<string, [number, number]> }> {
  const counted = MOVED_TABLES.filter((copy) => !copy.shared);
  const [accounts, ...counts] = await db.batch([
    db
      .prepare(
        `SELECT a.id, a.entry_sum AS running, coalesce((SELECT SUM(l.amount) FROM ledger_lines l WHERE l.account = a.number), 0) AS lines
         FROM ledger_accounts a WHERE a.business_id = ? ORDER BY a.id`,
      )
      .bind(businessId),
    ...counted.map((copy) => db.prepare(`SELECT COUNT(*) AS n FROM ${copy.from}`).bind(businessId)),
  ]);
  return {
    rows: Object.fromEntries(counted.map((copy, i) => [copy.table, (counts[i]?.results[0] as { n: number } | undefined)?.n ?? 0])),
    accounts: Object.fromEntries(((accounts?.results ?? []) as { id: string; running: number; lines: number }[]).map((a) => [a.id, [a.lines, a.running]])),
  };
}

/** Puts up (or changes) the fence that refuses every write of the business on this database (migration 0013). */
export async function setFence(db: Db, businessId: string, state: "moving" | "moved", at: string): Promise<void> {
  await db
    .prepare(
      "INSERT INTO shard_fences (business_id, state, since) VALUES (?, ?, ?) ON CONFLICT (business_id) DO UPDATE SET state = excluded.state, since = excluded.since",
    )
    .bind(businessId, state, at)
    .run();
}

export async function removeFence(db: Db, businessId: string): Promise<void> {
  await db.prepare("DELETE FROM shard_fences WHERE business_id = ?").bind(businessId).run();
}

/** Removes the business's rows from a database it left (children first, a page at a time); people stay. */
export async function removeBusinessRows(db: Db, businessId: string, pageSize: number): Promise<void> {
  for (const copy of [...MOVED_TABLES].reverse()) {
    if (copy.keep) continue;
    // Rows by their rowid, or (tables without one) by their key's first column: a page of parents' rows at a time.
    const withoutRowid = WITHOUT_ROWID.has(copy.table);
    const first = copy.key[0]!;
    const sql = withoutRowid
      ? `DELETE FROM ${copy.table} WHERE ${first} IN (SELECT t.${first} FROM ${copy.from} LIMIT ?)`
      : `DELETE FROM ${copy.table} WHERE rowid IN (SELECT t.rowid FROM ${copy.from} LIMIT ?)`;
    for (;;) {
      const result = await db.prepare(sql).bind(businessId, pageSize).run();
      if ((result.meta.changes ?? 0) === 0) break;
    }
  }
}

/** The moved tables SQLite keeps without a rowid (their migrations say WITHOUT ROWID). */
const WITHOUT_ROWID = new Set([
  "archive_references",
  "archive_account_sums",
  "closed_day_versions",
  "closed_day_cache",
  "settlement_items",
  "daily_rollups",
  "daily_merchant_totals",
  "api_idempotency",
  "pending_reversals",
  "ingest_parked",
  "ledger_lines",
  "notification_preferences",
]);
