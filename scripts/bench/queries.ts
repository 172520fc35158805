// npm run bench:queries -- [--size large|demo|tiny] [--runs 15] [--write]
// Seeds the size into its own state folder once (.wrangler/bench-<size>), then
// runs every list and report query of the screens through the data layer in
// workerd (Miniflare, real D1) and prints its median and 95th-percentile time
// and whether SQLite's plan avoids reading a large table whole.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import * as v from "valibot";
import type { Tenant } from "#server/tenancy/tenant";
import { isRole } from "#server/permissions";
import { SEED_SIZES } from "../seed/data";
import { migrateLocal, seedLocal } from "../seed/local";
import { d1Bindings } from "../lib/wrangler";
import { CATALOGUE, planOf, recordingDb, sampleOf, type Recorded } from "./query-catalogue";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: { write: { type: "boolean", default: false }, size: { type: "string", default: "large" }, runs: { type: "string", default: "15" } },
});
const size = v.parse(v.picklist(SEED_SIZES), values.size);
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog(`queries-${size}`, `npm run bench:queries -- --size ${size} --write`, values.write);
const runs = Math.min(200, Math.max(3, Number(values.runs) || 15));
const state = resolve(import.meta.dirname, "../..", `.wrangler/bench-${size}`);

if (!existsSync(join(state, "v3/d1"))) {
  const started = performance.now();
  console.log(`Seeding ${size} into ${state} (once)…`);
  await migrateLocal(state);
  await seedLocal(size, state);
  console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

const mf = new Miniflare({
  modules: true,
  script: "export default { fetch() { return new Response(null, { status: 204 }); } }",
  d1Databases: Object.fromEntries(d1Bindings().map((d) => [d.binding, d.id])),
  d1Persist: join(state, "v3/d1"),
  cf: false,
});
try {
  // The busiest business of any shard (decision 021: each business's rows are on one database).
  let busiest: { businessId: string; userId: string; role: string; n: number; db: D1Database } | null = null;
  for (const { binding } of d1Bindings().filter((d) => d.binding !== "DB")) {
    const shard = await mf.getD1Database(binding);
    const found = await shard
      .prepare(
        `SELECT b.id AS businessId, m.user_id AS userId, m.role,
          (SELECT COUNT(*) FROM transactions t WHERE t.business_id = b.id) AS n
         FROM businesses b JOIN memberships m ON m.business_id = b.id AND m.role = 'Super Administrator'
         ORDER BY n DESC LIMIT 1`,
      )
      .first<{ businessId: string; userId: string; role: string; n: number }>();
    if (found && (!busiest || found.n > busiest.n)) busiest = { ...found, db: shard };
  }
  if (!busiest || !isRole(busiest.role)) throw new Error("No business with a Super Administrator in the seed.");
  const db = busiest.db;
  const tenant: Tenant = { businessId: busiest.businessId, db, userId: busiest.userId, role: busiest.role };
  const sample = await sampleOf(tenant);
  const rows = await db
    .prepare("SELECT (SELECT COUNT(*) FROM transactions) AS tx, (SELECT COUNT(*) FROM ledger_entries) AS le")
    .first<{ tx: number; le: number }>();
  report.line(
    `${size}: ${rows?.tx} transactions, ${rows?.le} ledger entries; measuring ${busiest.businessId} (${busiest.n} transactions), ${runs} runs each\n`,
  );
  report.line(`${"query".padEnd(48)} ${"median ms".padStart(10)} ${"p95 ms".padStart(8)}  plan`);

  let scans = 0;
  for (const [name, run] of CATALOGUE) {
    const recorded: Recorded[] = [];
    await run({ ...tenant, db: recordingDb(db, recorded) }, sample); // warm-up, and the statements it sends
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      await run(tenant, sample);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const verdicts = await Promise.all(recorded.map((statement) => planOf(db, statement)));
    const bad = verdicts.flatMap((verdict) => verdict.scans);
    scans += bad.length;
    const median = times[Math.floor(times.length / 2)]!;
    const p95 = times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]!;
    report.line(
      `${name.padEnd(48)} ${median.toFixed(1).padStart(10)} ${p95.toFixed(1).padStart(8)}  ${bad.length ? `WHOLE-TABLE: ${bad.join("; ")}` : "index"}`,
    );
  }
  report.line(scans ? `\n${scans} whole-table reads.` : "\nEvery query is served by an index.");
  report.finish();
} finally {
  await mf.dispose();
}
