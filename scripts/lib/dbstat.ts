// What the SQLite files of a local D1 state folder hold, per table and index, from
// SQLite's dbstat table. D1 has no dbstat ("no such table", in Miniflare too), so
// the files under <state>/v3/d1 are opened read-only by the machine's python3 (its
// sqlite3 module has dbstat), or the sqlite3 command-line shell without python3.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** One SQLite file's page use: per b-tree (table or index) its bytes, and the rows of its payments. */
export interface FileStat {
  file: string;
  pageSize: number;
  pages: number;
  freePages: number;
  /** Bytes on disk: the file and its write-ahead log. */
  diskBytes: number;
  payments: number;
  /** name -> [bytes of its pages, table it belongs to, "table" | "index", bytes of its rows' content alone] */
  objects: Record<string, [bytes: number, table: string, type: string, payload: number]>;
}

const PYTHON = String.raw`
import json, sqlite3, sys
out = []
for path in sys.argv[1:]:
    db = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
    kinds = {name: [table, type] for name, table, type in db.execute("SELECT name, tbl_name, type FROM sqlite_schema WHERE type IN ('table', 'index')")}
    objects = {}
    for name, size, payload in db.execute("SELECT name, SUM(pgsize), SUM(payload) FROM dbstat GROUP BY name"):
        table, type = kinds.get(name, [name, "table"])
        objects[name] = [size, table, type, payload]
    has = db.execute("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'transactions'").fetchone()
    payments = db.execute("SELECT COUNT(*) FROM transactions").fetchone()[0] if has else 0
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    out.append({"file": path, "pageSize": page_size, "pages": pages, "freePages": free, "payments": payments, "objects": objects})
    db.close()
print(json.dumps(out))
`;

/** Every D1 database file of a state folder (Miniflare's metadata.sqlite is its own bookkeeping, not a database). */
function databaseFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return databaseFiles(path);
    return entry.name.endsWith(".sqlite") && entry.name !== "metadata.sqlite" ? [path] : [];
  });
}

function hasCommand(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The same numbers through the sqlite3 shell, one file at a time. */
function viaShell(path: string): Omit<FileStat, "diskBytes"> {
  const query = (sql: string) => execFileSync("sqlite3", ["-readonly", "-json", path, sql], { encoding: "utf8" }).trim();
  const json = <T>(sql: string): T[] => {
    const text = query(sql);
    return text ? (JSON.parse(text) as T[]) : [];
  };
  const kinds = new Map(json<{ name: string; tbl_name: string; type: string }>("SELECT name, tbl_name, type FROM sqlite_schema").map((r) => [r.name, r]));
  const objects: FileStat["objects"] = {};
  for (const row of json<{ name: string; bytes: number; payload: number }>(
    "SELECT name, SUM(pgsize) AS bytes, SUM(payload) AS payload FROM dbstat GROUP BY name",
  )) {
    const kind = kinds.get(row.name);
    objects[row.name] = [row.bytes, kind?.tbl_name ?? row.name, kind?.type ?? "table", row.payload];
  }
  const [numbers] = json<{ pageSize: number; pages: number; freePages: number; payments: number }>(
    `SELECT (SELECT page_size FROM pragma_page_size) AS pageSize, (SELECT page_count FROM pragma_page_count) AS pages,
       (SELECT freelist_count FROM pragma_freelist_count) AS freePages,
       ${kinds.has("transactions") ? "(SELECT COUNT(*) FROM transactions)" : "0"} AS payments`,
  );
  return { file: path, objects, ...numbers! };
}

export function storageOf(folder: string): FileStat[] {
  const files = databaseFiles(folder);
  if (files.length === 0) throw new Error(`No D1 database under ${folder}: seed it first.`);
  const walBytes = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
  const stats: Omit<FileStat, "diskBytes">[] = hasCommand("python3")
    ? (JSON.parse(execFileSync("python3", ["-c", PYTHON, ...files], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })) as Omit<FileStat, "diskBytes">[])
    : files.map(viaShell);
  return stats.map((stat) => ({ ...stat, diskBytes: statSync(stat.file).size + walBytes(stat.file) }));
}

/**
 * Bytes of row and index content per payment over every database of a state folder: SQLite's payload, without the
 * pages' fill and overhead, so it is exact on a small database too (where whole pages hide a column or an index).
 */
export function payloadPerPayment(folder: string): number {
  const stats = storageOf(folder);
  const payments = stats.reduce((sum, s) => sum + s.payments, 0);
  // The schema (tables, indexes, triggers) and the migrations' log are a fixed cost per database, the same for one
  // payment or a million: with several databases (decision 021) they would swamp a small seed's figure.
  const fixed = new Set(["sqlite_schema", "d1_migrations", "sqlite_autoindex_d1_migrations_1"]);
  const payload = stats.reduce((sum, s) => sum + Object.entries(s.objects).reduce((a, [name, [, , , bytes]]) => a + (fixed.has(name) ? 0 : bytes), 0), 0);
  return payload / payments;
}
