// npm run bench:pages -- [--size large|demo|tiny] [--runs 15] [--port 8799]
// Issue 6's numbers: the money screens' server time on `wrangler dev` over a
// seeded size (large: 1 000 000 payments). Seeds .wrangler/bench-<size> once
// (shared with bench:queries), signs in as the busiest business's Super
// Administrator (a session row and cookie made as the sign-in steps make
// them), starts the portal on that state and times each page, one request at
// a time, after a warm-up. Prints median and 95th percentile per page.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { mintSession } from "../../tests/support/sign-in";
import { SEED_SIZES } from "../seed/data";
import { migrateLocal, seedLocal, withLocalD1 } from "../seed/local";
import { servePortal } from "../lib/serve";

const { values } = parseArgs({
  options: { size: { type: "string", default: "large" }, runs: { type: "string", default: "15" }, port: { type: "string", default: "8799" } },
});
const size = v.parse(v.picklist(SEED_SIZES), values.size);
const runs = Math.min(200, Math.max(3, Number(values.runs) || 15));
const port = Number(values.port) || 8799;
const root = resolve(import.meta.dirname, "../..");
const state = join(root, `.wrangler/bench-${size}`);
const base = `http://127.0.0.1:${port}`;

if (!existsSync(join(state, "v3/d1"))) {
  const started = performance.now();
  console.log(`Seeding ${size} into ${state} (once)…`);
  await migrateLocal(state);
  await seedLocal(size, state);
  console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(0)} s.`);
} else {
  // An older bench state may predate the newest migrations.
  await migrateLocal(state);
}

const { cookie, business, payments } = await withLocalD1(state, async (db) => {
  const busiest = await db
    .prepare(
      `SELECT b.id, u.email, (SELECT COUNT(*) FROM transactions t WHERE t.business_id = b.id) AS n
       FROM businesses b JOIN memberships m ON m.business_id = b.id AND m.role = 'Super Administrator' AND m.status = 'active' JOIN users u ON u.id = m.user_id
       ORDER BY n DESC LIMIT 1`,
    )
    .first<{ id: string; email: string; n: number }>();
  if (!busiest) throw new Error("No business with a Super Administrator in the seed.");
  const session = await mintSession(db, base, busiest.email, busiest.id);
  return { cookie: session.cookieHeader, business: busiest.id, payments: busiest.n };
});

const { ready, stop } = servePortal(port, state);

async function get(path: string): Promise<{ ms: number; status: number; html: string }> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await response.text();
  return { ms: performance.now() - started, status: response.status, html };
}

/** The path of the page `hops` Next links after `path` (the keyset trail the pager builds). */
async function deepPage(path: string, hops: number): Promise<string> {
  let current = path;
  for (let i = 0; i < hops; i += 1) {
    const { html } = await get(current);
    const next = /<a class="pager__step" rel="next"[^>]*href="([^"]+)"/.exec(html)?.[1];
    if (!next) break;
    current = `/transactions${next.replace(/&amp;/g, "&").replace(/^\/transactions/, "")}`;
  }
  return current;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

try {
  await ready();
  const now = Date.now();
  const pages: [string, string][] = [
    ["dashboard", "/"],
    ["transactions, first page (7 days)", "/transactions"],
    ["transactions, first page, filtered", "/transactions?range=30d&status=successful&channel=card&network=VISA"],
    ["transactions, 30 days (totals)", "/transactions?range=30d"],
    ["transactions, search by reference", "/transactions?range=30d&q=NO-SUCH-REF"],
    ["transactions, page 20 (keyset trail)", await deepPage("/transactions?range=30d", 19)],
    ["report, one year by day", `/reports?range=custom&from=${day(now - 364 * 86_400_000)}&to=${day(now)}`],
    ["report, one year by merchant", `/reports?by=merchant&range=custom&from=${day(now - 364 * 86_400_000)}&to=${day(now)}`],
    ["merchant accounts (balances)", "/money/merchant-accounts"],
    ["merchant funds (30 days)", "/money/merchant-funds"],
    ["settlement history", "/money/settlement-history"],
  ];
  console.log(`${size}: measuring ${business} (${payments} payments) through wrangler dev at ${base}, ${runs} runs each\n`);
  console.log(`${"page".padEnd(40)} ${"median ms".padStart(10)} ${"p95 ms".padStart(8)}`);
  for (const [name, path] of pages) {
    const warm = await get(path);
    if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}`);
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) times.push((await get(path)).ms);
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(40)} ${quantile(times, 0.5).toFixed(1).padStart(10)} ${quantile(times, 0.95).toFixed(1).padStart(8)}`);
  }
} finally {
  stop();
}
process.exit(0);
