// Seeds the local D1 (wrangler's state, or a --persist-to folder for tests)
// only when it is empty, so running `npm start` again never adds rows twice.
//
// Migrations are applied as `wrangler d1 migrations apply` does (migrateLocal says
// why not by it). The rows go through Miniflare's own D1 binding opened on the same state folder wrangler uses
// (<state>/v3/d1, keyed by the database id of wrangler.toml), so `wrangler dev`
// reads the very SQLite file written here. One `wrangler d1 execute --file`
// does not scale to a million payments; batches of json_each inserts do.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Miniflare } from "miniflare";
import { bindingsWorker, routedTestD1, testD1, type BindingsFetch } from "../../tests/support/bindings";
import { d1Bindings, shardIds } from "../lib/wrangler";
import type { SeedSize } from "./data";
import { generateSeed, startOfUtcDay } from "./generate";
import { insertSql, jsonSlices } from "./sql";
import { TABLE_ORDER, type Chunk, type TableName } from "./tables";

const ROOT = resolve(import.meta.dirname, "../..");
/** Characters of JSON per D1 batch (one transaction, one round trip). */
const BATCH_CHARS = 8_000_000;

/**
 * Applies the migrations to every database of wrangler.toml (the core one and each shard have one schema, decision 021)
 * as `wrangler d1 migrations apply --local` would: the same files in the same order, each in one batch with its row in
 * wrangler's `d1_migrations` table, so wrangler later sees them as applied. Done here, through one Miniflare for all
 * databases, because wrangler starts a runtime per migration: 28 migrations on three databases took a minute on this
 * 2-core machine, and four minutes under the test suite's load. SQLite reads each file whole (local D1 runs several
 * statements in one), so no splitter of ours can read one differently; tests/integration/local-migrations.test.ts
 * holds the schema to what wrangler makes.
 */
export async function migrateLocal(persistTo?: string): Promise<void> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  await withLocalDatabases(persistTo, async (databases) => {
    for (const binding of ["DB", ...databases.shards]) {
      const db = databases.byBinding(binding);
      await db.prepare(MIGRATIONS_TABLE).run();
      const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((row) => row.name));
      for (const name of files.filter((file) => !applied.has(file))) {
        try {
          await db.batch([db.prepare(readFileSync(join(MIGRATIONS_DIR, name), "utf8")), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name)]);
        } catch (error) {
          throw new Error(`Migration ${name} failed on ${binding}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
      }
    }
  });
}

const MIGRATIONS_DIR = join(ROOT, "migrations");
/** wrangler's own table (wrangler d1 migrations apply creates it with these columns). */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** The local databases of a state folder: the core one, each by binding, and the tests' routed view (tests/support/bindings.ts). */
export interface LocalDatabases {
  core: D1Database;
  byBinding: (binding: string) => D1Database;
  shards: string[];
  /** Statements go to the database of the business whose id they bind, or to the core one. */
  routed: D1Database;
}

/**
 * Opens the local D1 of a state folder (wrangler's default: .wrangler/state) for the length of `use`,
 * through the node-bindings Worker: Miniflare's own getD1Database() proxy can fail under CPU load
 * (tests/support/bindings.ts explains why).
 */
export async function withLocalD1<T>(persistTo: string | undefined, use: (db: D1Database) => Promise<T>): Promise<T> {
  return withLocalDatabases(persistTo, (databases) => use(databases.routed));
}

/** withLocalD1 with every database of the state folder (the seed writes each business to its shard). */
export async function withLocalDatabases<T>(persistTo: string | undefined, use: (databases: LocalDatabases) => Promise<T>): Promise<T> {
  const state = persistTo ? resolve(persistTo) : join(ROOT, ".wrangler/state");
  const core = d1Bindings()[0]!;
  const mf = new Miniflare({
    workers: [bindingsWorker({ d1Id: core.id, shardIds: shardIds(), compatibilityDate: "2026-04-01" })],
    d1Persist: join(state, "v3/d1"),
    cf: false,
    host: "127.0.0.1",
    port: 0,
  });
  try {
    await mf.ready;
    const send: BindingsFetch = (url, init) => mf.dispatchFetch(url, init as never) as unknown as Promise<Response>;
    return await use({
      core: testD1(send, "DB"),
      byBinding: (binding) => testD1(send, binding),
      shards: Object.keys(shardIds()).sort(),
      routed: routedTestD1(send, Object.keys(shardIds()).sort()),
    });
  } finally {
    await mf.dispose();
  }
}

async function businessCount(db: D1Database): Promise<number> {
  return (await db.prepare("SELECT COUNT(*) AS n FROM businesses").first<number>("n")) ?? 0;
}

export async function countBusinesses(persistTo?: string): Promise<number> {
  return withLocalDatabases(persistTo, (databases) => businessCount(databases.core));
}

/** Rows per seeded table, summed over the shards (the core database's copies of people and businesses are not counted twice). */
export async function tableCounts(persistTo?: string): Promise<Record<TableName, number>> {
  return withLocalDatabases(persistTo, async (databases) => {
    const counts = Object.fromEntries(TABLE_ORDER.map((table) => [table, 0])) as Record<TableName, number>;
    const core = await databases.core.batch(TABLE_ORDER.map((table) => databases.core.prepare(`SELECT COUNT(*) AS n FROM ${table}`)));
    for (const shard of databases.shards) {
      const db = databases.byBinding(shard);
      const results = await db.batch(TABLE_ORDER.map((table) => db.prepare(`SELECT COUNT(*) AS n FROM ${table}`)));
      TABLE_ORDER.forEach((table, i) => {
        if (!CORE_COPIES.has(table)) counts[table] += (results[i]?.results[0] as { n: number } | undefined)?.n ?? 0;
      });
    }
    TABLE_ORDER.forEach((table, i) => {
      if (CORE_COPIES.has(table)) counts[table] = (core[i]?.results[0] as { n: number } | undefined)?.n ?? 0;
    });
    return counts;
  });
}

/** Tables the core database holds for every business (sign-in reads them); their shard rows are copies. */
const CORE_COPIES = new Set<TableName>(["businesses", "users", "user_phones", "memberships"]);

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

/** Writes chunks to one database in order, one D1 batch at a time, building the next batch while the previous one commits. */
class ChunkWriter {
  private batch: D1PreparedStatement[] = [];
  private chars = 0;
  private inflight: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: D1Database) {}

  async add(chunk: Chunk): Promise<void> {
    const sql = insertSql(chunk.table);
    for (const slice of jsonSlices(chunk)) {
      this.batch.push(this.db.prepare(sql).bind(slice.json));
      this.chars += slice.json.length;
      if (this.chars >= BATCH_CHARS) await this.send();
    }
  }

  async finish(): Promise<void> {
    if (this.batch.length > 0) await this.send();
    await this.inflight;
  }

  private async send(): Promise<void> {
    const ready = this.batch;
    this.batch = [];
    this.chars = 0;
    await this.inflight;
    this.inflight = this.db.batch(ready);
    // Awaited before the next batch or at the end; marked handled meanwhile.
    this.inflight.catch(() => {});
  }
}

/**
 * Writes the generator's chunks to the databases: each business's rows to its shard, with a copy of its row, of the
 * people and of its memberships; the core database gets every business, person and membership, and the directory.
 */
async function writePlaced(databases: LocalDatabases, chunks: Iterable<Chunk>, onRows?: (table: TableName, rows: number) => void): Promise<void> {
  const writers = new Map<string, ChunkWriter>([["DB", new ChunkWriter(databases.core)]]);
  for (const shard of databases.shards) writers.set(shard, new ChunkWriter(databases.byBinding(shard)));
  const placement = new Map<string, string>();
  const settlementShard = new Map<string, string>();
  for (const chunk of chunks) {
    const rows = chunk.rows as unknown as Record<string, unknown>[];
    if (chunk.table === "businesses") {
      // Each business gets the next shard in turn.
      for (const row of rows) if (!placement.has(String(row.id))) placement.set(String(row.id), databases.shards[placement.size % databases.shards.length]!);
    }
    const destinations = new Map<string, Record<string, unknown>[]>();
    const to = (binding: string, row: Record<string, unknown>) => {
      const list = destinations.get(binding) ?? [];
      list.push(row);
      destinations.set(binding, list);
    };
    for (const row of rows) {
      if (chunk.table === "users" || chunk.table === "user_phones") {
        // People are few: every shard gets them all, so any business's members are there when it needs them.
        for (const binding of writers.keys()) to(binding, row);
        continue;
      }
      const businessId =
        chunk.table === "businesses"
          ? String(row.id)
          : chunk.table === "settlement_items"
            ? settlementShard.get(String(row.settlement_id))
            : String(row.business_id);
      const shard = chunk.table === "settlement_items" ? businessId : placement.get(businessId ?? "");
      if (!shard) throw new Error(`The seed placed no business for a ${chunk.table} row`);
      if (chunk.table === "settlements") settlementShard.set(String(row.id), shard);
      to(shard, row);
      if (CORE_COPIES.has(chunk.table)) to("DB", row);
    }
    for (const [binding, list] of destinations) await writers.get(binding)!.add({ table: chunk.table, rows: list } as unknown as Chunk);
    onRows?.(chunk.table, rows.length);
  }
  const at = new Date().toISOString();
  const directory = [...placement.entries()];
  for (let i = 0; i < directory.length; i += 30) {
    await databases.core.batch(
      directory
        .slice(i, i + 30)
        .map(([businessId, shard]) =>
          databases.core.prepare("INSERT INTO business_shards (business_id, shard, updated_at) VALUES (?, ?, ?)").bind(businessId, shard, at),
        ),
    );
  }
  for (const writer of writers.values()) await writer.finish();
}

/** Deletes every seeded row, children first: a failed seed leaves an empty database, not half of one. */
async function wipe(databases: LocalDatabases): Promise<void> {
  // ledger_entries is a view over the lines and their postings (migration 0012).
  const tables = [...TABLE_ORDER].reverse().flatMap((table) => (table === "ledger_entries" ? ["ledger_lines", "ledger_postings"] : [table]));
  for (const db of [databases.core, ...databases.shards.map(databases.byBinding)]) {
    await db.batch([
      db.prepare("DELETE FROM daily_merchant_totals"),
      db.prepare("DELETE FROM business_shards"),
      ...tables.map((table) => db.prepare(`DELETE FROM ${table}`)),
    ]);
  }
}

/** Returns whether it seeded (false: the database already had data). */
export async function seedLocal(size: SeedSize, persistTo?: string, options: SeedOptions = {}): Promise<boolean> {
  const clock = Date.now();
  const anchor = options.anchor ?? startOfUtcDay(clock);
  const now = options.now ?? (anchor === startOfUtcDay(clock) ? clock : anchor);
  const progress = options.progress ?? (size === "large" ? (line: string) => console.log(line) : false);
  return withLocalDatabases(persistTo, async (databases) => {
    if ((await businessCount(databases.core)) > 0) return false;
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
      await writePlaced(databases, generateSeed(size, anchor, now), onRows);
      for (const db of databases.shards.map(databases.byBinding)) {
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
      }
    } catch (error) {
      await wipe(databases).catch(() => {});
      throw error;
    }
    if (progress) progress(`  ${transactions.toLocaleString("en-GB")} transactions with their ledger, settlements and rollups in ${seconds()} s`);
    return true;
  });
}
