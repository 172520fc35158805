// npm run bench:pages -- [--size large|demo|tiny] [--runs 15] [--port 8799] [--write]
// Whether the money screens stay fast on a large business: their server time on `wrangler dev` over a
// seeded size (large: 1 000 000 payments). Seeds .wrangler/bench-<size> once
// (shared with bench:queries), signs in as the busiest business's Super
// Administrator (a session row and cookie made as the sign-in steps make
// them), starts the portal on that state and times each page, one request at
// a time, after a warm-up. Prints median and 95th percentile per page, and the
// medians of the Worker's Server-Timing (functions/plumbing/timing.ts): total, session,
// loader, D1 and render, and the D1 round trips per request.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { mintSession } from "../../tests/support/sign-in";
import { SEED_SIZES } from "../seed/data";
import { migrateLocal, seedLocal, withLocalD1 } from "../seed/local";
import { refuseTakenPort } from "../lib/port";
import { servePortal } from "../lib/serve";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    size: { type: "string", default: "large" },
    runs: { type: "string", default: "15" },
    port: { type: "string", default: "8799" },
  },
});
const size = v.parse(v.picklist(SEED_SIZES), values.size);
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog(`pages-${size}`, `npm run bench:pages -- --size ${size} --write`, values.write);
const runs = Math.min(200, Math.max(3, Number(values.runs) || 15));
const port = Number(values.port) || 8799;
const root = resolve(import.meta.dirname, "../..");
const state = join(root, `.wrangler/bench-${size}`);
const base = `http://127.0.0.1:${port}`;

await refuseTakenPort(port, "npm run bench:pages");

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

/** The Worker's own account of a request (functions/plumbing/timing.ts): ms per phase, and D1 round trips. */
interface ServerTiming {
  phases: Map<string, number>;
  queries: number;
}

function serverTiming(header: string | null): ServerTiming {
  const phases = new Map<string, number>();
  let queries = Number.NaN;
  for (const metric of (header ?? "").split(",")) {
    const [name, ...params] = metric.trim().split(";");
    const dur = params.find((p) => p.startsWith("dur="));
    if (name && dur) phases.set(name, Number(dur.slice(4)));
    const desc = /desc="(\d+) quer/.exec(params.join(";"));
    if (name === "d1" && desc) queries = Number(desc[1]);
  }
  return { phases, queries };
}

async function get(path: string): Promise<{ ms: number; status: number; html: string; timing: ServerTiming }> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await response.text();
  return { ms: performance.now() - started, status: response.status, html, timing: serverTiming(response.headers.get("Server-Timing")) };
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
  report.line(`${size}: measuring ${business} (${payments} payments) through wrangler dev at ${base}, ${runs} runs each\n`);
  // The client's time (median, p95), then the Worker's Server-Timing medians: total and its phases, and D1 round trips.
  const columns = ["total", "session", "loader", "d1", "render"];
  report.line(
    `${"page".padEnd(40)} ${"median ms".padStart(10)} ${"p95 ms".padStart(8)} │ ${columns.map((c) => c.padStart(8)).join(" ")} ${"D1 trips".padStart(8)}`,
  );
  let timed = true;
  for (const [name, path] of pages) {
    const warm = await get(path);
    if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}`);
    const times: number[] = [];
    const phases = new Map<string, number[]>(columns.map((c) => [c, []]));
    const trips: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const { ms, timing } = await get(path);
      times.push(ms);
      for (const column of columns) phases.get(column)!.push(timing.phases.get(column) ?? Number.NaN);
      trips.push(timing.queries);
    }
    timed &&= !Number.isNaN(trips[0]!);
    const median = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const breakdown = columns.map((c) => median(phases.get(c)!).toFixed(1).padStart(8)).join(" ");
    times.sort((a, b) => a - b);
    report.line(
      `${name.padEnd(40)} ${quantile(times, 0.5).toFixed(1).padStart(10)} ${quantile(times, 0.95).toFixed(1).padStart(8)} │ ${breakdown} ${String(median(trips)).padStart(8)}`,
    );
  }
  if (!timed) report.line('\nNo Server-Timing header: set SERVER_TIMING = "on" (wrangler.toml [vars]) to see where the time goes.');
  report.finish();
} finally {
  stop();
}
process.exit(0);
