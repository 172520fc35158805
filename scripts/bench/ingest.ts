// npm run bench:ingest [-- --port 8798 --seconds 10 --clients 8 --lag-seconds 20 --lag-rate 200 --write]
//
// How fast the Partner API takes and writes payments on `wrangler dev` (this machine; decision 016):
//   1. accepted/s: payments the API answers 202 for, in batches of 100, sent by
//      --clients clients at once for --seconds (each with its own key: the rate
//      limit is per key, and one key's 1,200 requests a minute would cap this
//      at 2,000 payments/s, which is the limit, not the Worker);
//   2. applied/s: how fast the PAYMENTS consumer writes them: today's payment
//      count in the transactions list (its totals, signed in as an
//      administrator), sampled every 250 ms, from the first new payment to the last;
//   3. lag: at a steady --lag-rate payments/s (batches of a tenth of that every
//      100 ms), the time from a payment's request until the API finds it
//      (GET /api/v1/payments/{reference}, which reads the same rows as the
//      list), for two payments a second (median, p95, max).
// Everything is read through the running Worker: a second process reading its
// SQLite file would make the Worker's own writes fail with SQLITE_BUSY.
// It seeds .wrangler/bench-ingest with the demo data once, makes fresh API keys
// for Kumasi Fresh Foods there, and starts the portal on that state (run
// `npm run build` first). Numbers, not assertions: nothing here fails on time.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { PaymentInput } from "#server/partner-api/schemas";
import { mintSession } from "../../tests/support/sign-in";
import { KUMASI_FRESH_FOODS } from "../seed/data";
import { migrateLocal, seedLocal, withLocalD1 } from "../seed/local";
import { makeDevelopmentKey, readWorld } from "../simulate/local";
import { makePayment, referenceOf, seededRandom } from "../simulate/traffic";
import { refuseTakenPort } from "../lib/port";
import { servePortal } from "../lib/serve";
import { measurementLog } from "../lib/measurements";

const { values } = parseArgs({
  options: {
    write: { type: "boolean", default: false },
    port: { type: "string", default: "8798" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "8" },
    "lag-seconds": { type: "string", default: "20" },
    "lag-rate": { type: "string", default: "200" },
  },
});
// `--write` puts what is printed below in docs/measurements.md, dated and with its commit.
const report = measurementLog("ingest", "npm run bench:ingest -- --write", values.write);
const port = Number(values.port) || 8798;
const seconds = Math.min(120, Math.max(1, Number(values.seconds) || 10));
const clients = Math.min(32, Math.max(1, Number(values.clients) || 8));
const lagSeconds = Math.min(300, Math.max(1, Number(values["lag-seconds"]) || 20));
const lagRate = Math.min(2000, Math.max(10, Number(values["lag-rate"]) || 200));
const DRAIN_LIMIT_MS = 180_000;
const LAG_SAMPLES_PER_SECOND = 2;
const root = resolve(import.meta.dirname, "../..");
const state = join(root, ".wrangler/bench-ingest");
const base = `http://127.0.0.1:${port}`;

await refuseTakenPort(port, "npm run bench:ingest");

if (!existsSync(join(root, "dist/worker/worker.js"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(2);
}
if (!existsSync(join(state, "v3/d1"))) {
  console.log(`Seeding the demo data into ${state} (once)…`);
  await migrateLocal(state);
  await seedLocal("demo", state);
} else {
  await migrateLocal(state);
}

/** Keys: one per sending client, one for the steady sender, and LOOKUP_KEYS for the look-ups (each key may send 1,200 requests a minute). */
const LOOKUP_KEYS = 4;
const { world, keys, cookie } = await withLocalD1(state, async (db) => {
  const world = await readWorld(db, KUMASI_FRESH_FOODS);
  const keys: string[] = [];
  for (let i = 0; i < clients + 1 + LOOKUP_KEYS; i++)
    keys.push(await makeDevelopmentKey(db, KUMASI_FRESH_FOODS, world, `bench:ingest ${new Date().toISOString()} #${i + 1}`));
  const admin = await db.prepare("SELECT email FROM users WHERE id = ?").bind(world.adminId).first<{ email: string }>();
  if (!admin) throw new Error("No administrator to sign in as.");
  const session = await mintSession(db, base, admin.email, KUMASI_FRESH_FOODS);
  return { world, keys, cookie: session.cookieHeader };
});

const { ready, stop } = servePortal(port, state);
process.on("SIGINT", () => process.exit(130));

const random = seededRandom(20261123);
const runId = Date.now().toString(36).toUpperCase();
let seq = 0;
const batchOf = (n: number): PaymentInput[] => Array.from({ length: n }, () => makePayment(random, world.places, referenceOf(runId, ++seq), Date.now()));

async function post(key: string, payments: PaymentInput[]): Promise<number> {
  const response = await fetch(`${base}/api/v1/payments`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ payments }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Today's payments of the business, as the transactions list's totals count them. */
async function listedToday(): Promise<number> {
  const response = await fetch(`${base}/transactions?range=today`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await response.text();
  // The count card reads "15 payments, 12 successful": the first number is every payment of the day.
  const count = /data-testid="totals"[\s\S]*?<dd>([\d,]+) payments?,/.exec(html)?.[1];
  if (response.status !== 200 || count === undefined) throw new Error(`/transactions answered ${response.status} without totals`);
  return Number(count.replace(/,/g, ""));
}

let lookups = 0;
/** Whether the portal holds the payment (GET /api/v1/payments/{reference}), the look-ups spread over their keys. */
async function held(reference: string): Promise<boolean> {
  const key = keys[clients + 1 + (lookups++ % LOOKUP_KEYS)]!;
  const response = await fetch(`${base}/api/v1/payments/${encodeURIComponent(reference)}`, { headers: { Authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  if (response.status !== 200 && response.status !== 404) throw new Error(`GET a payment answered ${response.status}`);
  return response.status === 200;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

try {
  await ready();
  {
    const count = listedToday;
    const baseline = await count();
    report.line(`${base}: Kumasi Fresh Foods (${baseline} payments today), ${world.places.length} points of sale; ${clients} clients, batches of 100\n`);

    // 1 and 2: as fast as the API takes them, while the consumer's progress is sampled.
    const statuses = new Map<number, number>();
    let accepted = 0;
    const samples: { at: number; rows: number }[] = [];
    const started = performance.now();
    const end = started + seconds * 1000;
    let sending = true;
    const sampler = (async () => {
      while (sending || (samples.at(-1)?.rows ?? 0) < accepted) {
        samples.push({ at: performance.now(), rows: (await count()) - baseline });
        if (performance.now() - started > seconds * 1000 + DRAIN_LIMIT_MS) break;
        await sleep(250);
      }
    })();
    const latencies: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const status = await post(keys[client]!, batchOf(100)).catch(() => 0);
          latencies.push(performance.now() - t0);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 202) accepted += 100;
          if (status === 429) await sleep(1000);
        }
      }),
    );
    const postedFor = (performance.now() - started) / 1000;
    sending = false;
    await sampler;
    latencies.sort((a, b) => a - b);
    const others = [...statuses].filter(([status]) => status !== 202).map(([status, n]) => `${status}: ${n}`);
    report.line(
      `accepted: ${accepted} payments in ${postedFor.toFixed(1)} s = ${(accepted / postedFor).toFixed(0)} payments/s ` +
        `(request p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p95 ${quantile(latencies, 0.95).toFixed(0)} ms${others.length ? `; other answers ${others.join(", ")}` : ""})`,
    );
    const first = samples.find((s) => s.rows > 0);
    const last = samples.at(-1)!;
    if (!first || last.rows === 0) {
      report.line("applied: none within the time allowed (is the PAYMENTS consumer running?)");
    } else {
      const applyingFor = (last.at - first.at) / 1000;
      const duringSend = samples.filter((s) => s.at <= end).at(-1)?.rows ?? 0;
      report.line(
        `applied: ${last.rows} of ${accepted} payments, ${(last.rows / Math.max(applyingFor, 0.2)).toFixed(0)} payments/s from the first row to the last ` +
          `(${duringSend} written while sending; all written ${((last.at - end) / 1000).toFixed(1)} s after the last request)`,
      );
    }

    // 3: the lag at a steady rate, once the queue is empty.
    const perTick = Math.max(1, Math.round(lagRate / 10));
    const pending = new Map<string, number>();
    const lags: number[] = [];
    let sent = 0;
    let refused = 0;
    let sendingLag = true;
    const lagStart = performance.now();
    const lagEnd = lagStart + lagSeconds * 1000;
    const watcher = (async () => {
      while (performance.now() < lagEnd + DRAIN_LIMIT_MS && (sendingLag || pending.size > 0)) {
        await Promise.all(
          [...pending].map(async ([reference, at]) => {
            if (await held(reference)) {
              lags.push(performance.now() - at);
              pending.delete(reference);
            }
          }),
        );
        await sleep(200);
      }
    })();
    const sends: Promise<unknown>[] = [];
    let tick = 0;
    while (performance.now() < lagEnd) {
      const payments = batchOf(perTick);
      const at = performance.now();
      const thisTick = tick;
      sends.push(
        post(keys[clients]!, payments).then((status) => {
          // Two payments a second are followed (the first of every fifth batch at 200/s): enough for a median and p95.
          if (status === 202 && thisTick % Math.max(1, Math.round(10 / LAG_SAMPLES_PER_SECOND)) === 0) pending.set(payments[0]!.reference, at);
          if (status !== 202) refused += payments.length;
        }),
      );
      sent += perTick;
      tick += 1;
      await sleep(Math.max(0, lagStart + tick * 100 - performance.now()));
    }
    await Promise.all(sends);
    sendingLag = false;
    await watcher;
    lags.sort((a, b) => a - b);
    report.line(
      `lag at ${lagRate} payments/s for ${lagSeconds} s (${sent} payments, batches of ${perTick} every 100 ms): ` +
        `median ${(quantile(lags, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(lags, 0.95) / 1000).toFixed(2)} s, max ${((lags.at(-1) ?? NaN) / 1000).toFixed(2)} s` +
        (pending.size > 0 ? `; ${pending.size} not visible after ${DRAIN_LIMIT_MS / 1000} s` : "") +
        (refused > 0 ? `; ${refused} refused` : ""),
    );
  }
  report.finish();
} finally {
  stop();
}
process.exit(0);
