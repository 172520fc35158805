// Seeds the local D1 (wrangler's state, or a --persist-to folder for tests)
// only when it is empty, so running `npm start` again never adds rows twice.
//
// Migrations go through `wrangler d1 migrations apply`. The rows go through
// Miniflare's own D1 binding opened on the same state folder wrangler uses
// (<state>/v3/d1, keyed by the database id of wrangler.toml), so `wrangler dev`
// reads the very SQLite file written here. One `wrangler d1 execute --file`
// does not scale to a million payments; batches of json_each inserts do.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Miniflare } from "miniflare";
import { bindingsWorker, testD1 } from "../../tests/support/bindings";
import { capture } from "../lib/run";
import { wranglerEnv } from "../lib/wrangler";
import type { SeedSize } from "./data";
import { generateSeed, startOfUtcDay } from "./generate";
import { insertSql, jsonSlices } from "./sql";
import { TABLE_ORDER, type Chunk, type TableName } from "./tables";

const ROOT = resolve(import.meta.dirname, "../..");
/** Characters of JSON per D1 batch (one transaction, one round trip). */
const BATCH_CHARS = 8_000_000;

function persistArgs(persistTo?: string): string[] {
  return persistTo ? ["--persist-to", persistTo] : [];
}

export async function migrateLocal(persistTo?: string): Promise<void> {
  await capture("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persistArgs(persistTo)], {
    env: wranglerEnv({ WRANGLER_LOG: "error", CI: "true" }),
  });
}

/** The database id of the DB binding in wrangler.toml: local state is keyed by it. */
function databaseId(): string {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const id = /^\s*database_id\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!id) throw new Error("wrangler.toml has no d1 database_id");
  return id;
}

/**
 * Opens the local D1 of a state folder (wrangler's default: .wrangler/state) for the length of `use`,
 * through the node-bindings Worker: Miniflare's own getD1Database() proxy can fail under CPU load
 * (tests/support/bindings.ts explains why).
 */
export async function withLocalD1<T>(persistTo: string | undefined, use: (db: D1Database) => Promise<T>): Promise<T> {
  const state = persistTo ? resolve(persistTo) : join(ROOT, ".wrangler/state");
  const mf = new Miniflare({
    workers: [bindingsWorker({ d1Id: databaseId(), compatibilityDate: "2026-04-01" })],
    d1Persist: join(state, "v3/d1"),
    cf: false,
    host: "127.0.0.1",
    port: 0,
  });
  try {
    await mf.ready;
    return await use(testD1((url, init) => mf.dispatchFetch(url, init as never) as unknown as Promise<Response>));
  } finally {
    await mf.dispose();
  }
}

async function businessCount(db: D1Database): Promise<number> {
  return (await db.prepare("SELECT COUNT(*) AS n FROM businesses").first<number>("n")) ?? 0;
}

export async function countBusinesses(persistTo?: string): Promise<number> {
  return withLocalD1(persistTo, businessCount);
}

/** Rows per seeded table. */
export async function tableCounts(persistTo?: string): Promise<Record<TableName, number>> {
  return withLocalD1(persistTo, async (db) => {
    const results = await db.batch(TABLE_ORDER.map((table) => db.prepare(`SELECT COUNT(*) AS n FROM ${table}`)));
    return Object.fromEntries(TABLE_ORDER.map((table, i) => [table, (results[i]?.results[0] as { n: number } | undefined)?.n ?? 0])) as Record<
      TableName,
      number
    >;
  });
}

export interface SeedOptions {
  /** Epoch ms of the start of a UTC day; default: today (UTC). */
  anchor?: number;
  /**
   * When the data ends, within the anchor's day; default: the current time when the anchor is today (so the dashboard
   * has a "today so far"), else the anchor itself (a fixed anchor gives the same rows whenever it is seeded).
   */
  now?: number;
  /** Progress lines; default: printed for `large`, silent otherwise. */
  progress?: ((line: string) => void) | false;
}

/** Writes chunks in order, one D1 batch at a time, building the next batch while the previous one commits. */
export async function writeChunks(db: D1Database, chunks: Iterable<Chunk>, onRows?: (table: TableName, rows: number) => void): Promise<void> {
  const statements = new Map<TableName, string>();
  let batch: D1PreparedStatement[] = [];
  let chars = 0;
  let inflight: Promise<unknown> = Promise.resolve();
  const send = async () => {
    const ready = batch;
    batch = [];
    chars = 0;
    await inflight;
    inflight = db.batch(ready);
    // Awaited before the next batch or at the end; marked handled meanwhile.
    inflight.catch(() => {});
  };
  for (const chunk of chunks) {
    let sql = statements.get(chunk.table);
    if (!sql) statements.set(chunk.table, (sql = insertSql(chunk.table)));
    for (const slice of jsonSlices(chunk)) {
      batch.push(db.prepare(sql).bind(slice.json));
      chars += slice.json.length;
      if (chars >= BATCH_CHARS) await send();
    }
    onRows?.(chunk.table, chunk.rows.length);
  }
  if (batch.length > 0) await send();
  await inflight;
}

/** Deletes every seeded row, children first: a failed seed leaves an empty database, not half of one. */
async function wipe(db: D1Database): Promise<void> {
  // ledger_entries is a view over the lines and their postings (migration 0012).
  const tables = [...TABLE_ORDER].reverse().flatMap((table) => (table === "ledger_entries" ? ["ledger_lines", "ledger_postings"] : [table]));
  await db.batch([db.prepare("DELETE FROM daily_merchant_totals"), ...tables.map((table) => db.prepare(`DELETE FROM ${table}`))]);
}

/** Returns whether it seeded (false: the database already had data). */
export async function seedLocal(size: SeedSize, persistTo?: string, options: SeedOptions = {}): Promise<boolean> {
  const clock = Date.now();
  const anchor = options.anchor ?? startOfUtcDay(clock);
  const now = options.now ?? (anchor === startOfUtcDay(clock) ? clock : anchor);
  const progress = options.progress ?? (size === "large" ? (line: string) => console.log(line) : false);
  return withLocalD1(persistTo, async (db) => {
    if ((await businessCount(db)) > 0) return false;
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
    let transactions = 0;
    let lastReport = started;
    const onRows = (table: TableName, rows: number) => {
      if (!progress || table !== "transactions") return;
      transactions += rows;
      const now = performance.now();
      if (now - lastReport >= 5_000) {
        lastReport = now;
        progress(`  ${transactions.toLocaleString("en-GB")} transactions written (${seconds()} s)`);
      }
    };
    try {
      await writeChunks(db, generateSeed(size, anchor, now), onRows);
      // The rollups per merchant and day (migration 0008), from the rollups just written.
      await db
        .prepare(
          `INSERT INTO daily_merchant_totals (business_id, day, merchant_id, status, count, amount, fee)
           SELECT business_id, day, merchant_id, status, SUM(count), SUM(amount), SUM(fee) FROM daily_rollups GROUP BY business_id, day, merchant_id, status`,
        )
        .run();
      // The accounts' running sums (migration 0007), from the lines just written: one pass over them (no index reads lines by account).
      await db
        .prepare(
          `UPDATE ledger_accounts SET entry_sum = sums.total
           FROM (SELECT account, SUM(amount) AS total FROM ledger_lines GROUP BY account) AS sums WHERE sums.account = ledger_accounts.number`,
        )
        .run();
    } catch (error) {
      await wipe(db).catch(() => {});
      throw error;
    }
    if (progress) progress(`  ${transactions.toLocaleString("en-GB")} transactions with their ledger, settlements and rollups in ${seconds()} s`);
    return true;
  });
}
