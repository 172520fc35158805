// npm run bench:storage -- [--size large|demo|tiny] [--state <folder>] [--write]
// Seeds the size into its own state folder once (.wrangler/bench-<size>, shared
// with bench:queries and bench:pages), then prints what the data costs on disk:
// bytes per payment by table and by index, summed over every D1 database in the
// state (the core DB and any shards), each database's own total, and the whole.
// (scripts/lib/dbstat.ts reads the SQLite files: D1 has no dbstat table.)
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { SEED_SIZES } from "../seed/data";
import { storageOf } from "../lib/dbstat";
import { migrateLocal, seedLocal } from "../seed/local";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: { write: { type: "boolean", default: false }, size: { type: "string", default: "large" }, state: { type: "string" } },
});
const size = v.parse(v.picklist(SEED_SIZES), values.size);
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog(`storage-${size}`, `npm run bench:storage -- --size ${size} --write`, values.write);
const state = resolve(import.meta.dirname, "../..", values.state ?? `.wrangler/bench-${size}`);

if (!values.state && !existsSync(join(state, "v3/d1"))) {
  const started = performance.now();
  console.log(`Seeding ${size} into ${state} (once)…`);
  await migrateLocal(state);
  await seedLocal(size, state);
  console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

const bytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

const stats = storageOf(join(state, "v3/d1"));
const payments = stats.reduce((sum, s) => sum + s.payments, 0);
const per = (n: number) => (payments > 0 ? (n / payments).toFixed(1) : "-");

report.line(
  `${values.state ? "" : `${size} `}(${relative(process.cwd(), state) || "."}): ${payments.toLocaleString("en-GB")} payments in ${stats.length} database file(s)\n`,
);
report.line(`${"file".padEnd(72)} ${"payments".padStart(10)} ${"size".padStart(10)} ${"free".padStart(9)} ${"on disk".padStart(10)}`);
for (const s of stats) {
  const total = s.pages * s.pageSize;
  report.line(
    `${basename(s.file).padEnd(72)} ${s.payments.toLocaleString("en-GB").padStart(10)} ${bytes(total).padStart(10)} ${bytes(s.freePages * s.pageSize).padStart(9)} ${bytes(s.diskBytes).padStart(10)}`,
  );
}

// Summed across files: a table or index of the same name in every shard is one line.
const summed = new Map<string, { bytes: number; table: string; type: string }>();
for (const s of stats) {
  for (const [name, [size, table, type]] of Object.entries(s.objects)) {
    const line = summed.get(name) ?? { bytes: 0, table, type };
    line.bytes += size;
    summed.set(name, line);
  }
}
const tables = new Map<string, { own: number; indexes: [string, number][] }>();
for (const [name, line] of summed) {
  const table = tables.get(line.table) ?? { own: 0, indexes: [] };
  if (line.type === "index") table.indexes.push([name, line.bytes]);
  else table.own += line.bytes;
  tables.set(line.table, table);
}
const ranked = [...tables].map(([name, t]) => ({ name, ...t, total: t.own + t.indexes.reduce((a, [, b]) => a + b, 0) })).sort((a, b) => b.total - a.total);
const pageTotal = stats.reduce((sum, s) => sum + s.pages * s.pageSize, 0);
const used = [...summed.values()].reduce((sum, line) => sum + line.bytes, 0);

report.line(`\n${"table / index".padEnd(56)} ${"bytes".padStart(12)} ${"B/payment".padStart(10)}`);
for (const t of ranked) {
  if (t.total < 64 * 1024 && payments > 100_000) continue;
  report.line(`${t.name.padEnd(56)} ${bytes(t.total).padStart(12)} ${per(t.total).padStart(10)}`);
  report.line(`${"  (rows)".padEnd(56)} ${bytes(t.own).padStart(12)} ${per(t.own).padStart(10)}`);
  for (const [index, size] of t.indexes.sort((a, b) => b[1] - a[1]))
    report.line(`${`  ${index}`.padEnd(56)} ${bytes(size).padStart(12)} ${per(size).padStart(10)}`);
}
const small = ranked.filter((t) => t.total < 64 * 1024 && payments > 100_000);
if (small.length > 0) {
  const rest = small.reduce((sum, t) => sum + t.total, 0);
  report.line(`${`${small.length} tables under 64 KB each, with their indexes`.padEnd(56)} ${bytes(rest).padStart(12)} ${per(rest).padStart(10)}`);
}
report.line(`\n${"in tables and indexes".padEnd(56)} ${bytes(used).padStart(12)} ${per(used).padStart(10)}`);
report.line(`${"database files (pages, free ones included)".padEnd(56)} ${bytes(pageTotal).padStart(12)} ${per(pageTotal).padStart(10)}`);
report.line(`${"on disk (files and write-ahead logs)".padEnd(56)} ${bytes(stats.reduce((s, f) => s + f.diskBytes, 0)).padStart(12)}`);
report.finish();
