// npm run simulate [-- --url http://localhost:8787 --rate 5 --seconds 60 --seed 7]
//
// Traffic for the demo business's test mode (Kumasi Fresh Foods, Test mode: decision 045) through the public
// Partner API of a running portal (`npm start` in another terminal): payments on
// every mobile-money network and card scheme, about 8% failed with a reason, a
// few reversals of earlier payments, heartbeats from most terminals, and some
// terminals that stop heartbeating (they turn silent on the terminals screen).
//   --url      the portal (default http://127.0.0.1:$PORT, PORT 8787: where `npm start` listens)
//   --rate     payments per second (default 5); above 10/s they go in batches of up to 100
//   --seconds  stop after this long (default: run until Ctrl+C)
//   --seed     repeat a run's choices
//   PP_API_KEY=pp_live_… sends with that key to the demo business's live data instead
// The API key: a pp_test_ key of the demo business's test data (opened on the first run, with its starter
// merchant, point of sale and terminal), made on the first run by writing its hash into the local D1 (PP_STATE_DIR, as `npm start` uses it) and
// kept in .wrangler/simulator-keys.json (gitignored) for the next runs; made
// again when the database was reset. PP_API_KEY=... uses that key instead.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { hashKey, KEY_PATTERN } from "#server/partner-api/keys";
import type { PaymentInput } from "#server/partner-api/schemas";
import { MAX_PAYMENTS_PER_REQUEST } from "#server/partner-api/schemas";
import { findKeyByHash } from "#server/partner-api/api-keys.db";
import { KUMASI_FRESH_FOODS } from "./seed/data";
import { isTestBusiness, testBusinessOf } from "#server/tenancy/test-mode";
import { openTestBusinessInCore, openTestBusinessRows } from "#server/tenancy/test-mode.db";
import { withLocalDatabases } from "./seed/local";
import { makeHeartbeat, makePayment, makeReversal, referenceOf, REVERSAL_SHARE, seededRandom, SILENT_SHARE } from "./simulate/traffic";
import { makeDevelopmentKey, readWorld, type World } from "./simulate/local";

const ROOT = resolve(import.meta.dirname, "..");
const KEY_FILE = join(ROOT, ".wrangler/simulator-keys.json");
const KEY_NAME = "Simulator (npm run simulate)";
/**
 * Test data only: the simulator's payments never reach the demo business's live lists, balances or settlements. A key
 * given in PP_API_KEY names its own data: a pp_live_ key's traffic goes to the live business, at its own merchants.
 */
const BUSINESS = process.env.PP_API_KEY?.startsWith("pp_live_") ? KUMASI_FRESH_FOODS : testBusinessOf(KUMASI_FRESH_FOODS);
/** A terminal heartbeats this often. */
const HEARTBEAT_EVERY_MS = 30_000;
/** At most this many requests wait for an answer at once; more payments wait in the backlog. */
const MAX_IN_FLIGHT = 8;
const TICK_MS = 100;

const { values } = parseArgs({
  options: {
    url: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? "8787"}` },
    rate: { type: "string", default: "5" },
    seconds: { type: "string" },
    seed: { type: "string" },
  },
});
const base = new URL(values.url);
const rate = Number(values.rate);
const seconds = values.seconds === undefined ? Infinity : Number(values.seconds);
if (!(rate > 0 && rate <= 5000) || !(seconds > 0)) {
  console.error("--rate takes payments per second (more than 0, at most 5000); --seconds a positive number.");
  process.exit(2);
}
const stateDir = process.env.PP_STATE_DIR || undefined;
const random = seededRandom(values.seed === undefined ? Date.now() : Number(values.seed));

// --- the world, and the key, from the local D1

function savedKeys(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(KEY_FILE, "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

/** The saved key while the database still knows it; otherwise a new one, its hash written to D1. */
async function ensureKey(db: D1Database, world: World): Promise<{ key: string; made: boolean }> {
  const stateKey = resolve(stateDir ?? join(ROOT, ".wrangler/state"));
  const keys = savedKeys();
  const saved = keys[stateKey];
  if (saved && KEY_PATTERN.test(saved)) {
    const holder = await findKeyByHash({ businessId: BUSINESS, db }, await hashKey(saved), Date.now());
    if (holder?.businessId === BUSINESS && !holder.suspended) return { key: saved, made: false };
  }
  const secret = await makeDevelopmentKey(db, BUSINESS, world, KEY_NAME);
  mkdirSync(dirname(KEY_FILE), { recursive: true });
  writeFileSync(KEY_FILE, JSON.stringify({ ...keys, [stateKey]: secret }, null, 2) + "\n", { mode: 0o600 });
  return { key: secret, made: true };
}

if (!existsSync(resolve(stateDir ?? join(ROOT, ".wrangler/state")))) {
  console.error("No local state yet: start the portal with `npm start` first (it migrates and seeds the local D1).");
  process.exit(2);
}
const { world, key } = await withLocalDatabases(stateDir, async (databases) => {
  // Test mode opens as the business menu opens it: its place in the core directory, then its rows beside the demo business.
  const at = new Date().toISOString();
  if (isTestBusiness(BUSINESS)) {
    const shard = await openTestBusinessInCore(databases.core, KUMASI_FRESH_FOODS, at);
    if (!shard) throw new Error("The demo business is not in the local D1 (or is being moved): is it seeded (npm start)?");
    await openTestBusinessRows(databases.byBinding(shard), BUSINESS, at);
  }
  // From here on, statements find the test business's database by the id they bind.
  const db = databases.routed;
  const world = await readWorld(db, BUSINESS);
  if (world.places.length === 0) throw new Error("The demo business's test mode has no active points of sale.");
  const envKey = process.env.PP_API_KEY;
  if (envKey) return { world, key: envKey };
  const { key, made } = await ensureKey(db, world);
  console.log(made ? `Made a pp_test_ key for the demo business's test mode (kept in ${KEY_FILE}).` : `Using the pp_test_ key kept in ${KEY_FILE}.`);
  return { world, key };
});

try {
  await fetch(new URL("/builds/latest.json?t=0", base));
} catch {
  console.error(`Nothing answers at ${base.origin}: start the portal with \`npm start\` first.`);
  process.exit(2);
}

// --- sending

const stats = { payments: 0, accepted: 0, failedRequests: 0, heartbeats: 0, reversals: 0, silent: 0 };
const problems = new Map<string, number>();
let pausedUntil = 0;
let inFlight = 0;

/** Sends one request, again after Retry-After when the key is over its limit (with the same Idempotency-Key). */
async function send(path: string, body: unknown, count: number): Promise<boolean> {
  const idempotencyKey = randomUUID();
  inFlight += 1;
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(new URL(path, base), {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
        body: JSON.stringify(body),
      }).catch(() => null);
      if (response?.status === 429) {
        const wait = Math.max(1, Number(response.headers.get("Retry-After")) || 1) * 1000;
        pausedUntil = Math.max(pausedUntil, Date.now() + wait);
        await response.arrayBuffer();
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      const text = response ? await response.text() : "";
      if (response?.status === 202) {
        stats.accepted += count;
        return true;
      }
      stats.failedRequests += 1;
      const problem = response
        ? `${response.status} ${path.replace(/\/[^/]+\/(reversal|heartbeats)$/, "/…/$1")}: ${text.slice(0, 300)}`
        : `no answer from ${base.origin}`;
      // Each kind of refusal once, on its own line, so the progress line stays readable.
      if (!problems.has(problem)) process.stdout.write(`\n${problem}\n`);
      problems.set(problem, (problems.get(problem) ?? 0) + 1);
      return false;
    }
    stats.failedRequests += 1;
    return false;
  } finally {
    inFlight -= 1;
  }
}

const runId = Date.now().toString(36).toUpperCase();
let seq = 0;
let due = 0;
const reversalsDue: { at: number; reference: string }[] = [];
// Each terminal's next heartbeat, spread over the first interval; the silent ones stop after 10 to 60 s.
const started = Date.now();
const heartbeatsOf = world.terminals.map((terminal) => ({
  terminal,
  next: started + Math.floor(random() * HEARTBEAT_EVERY_MS),
  stopsAt: random() < SILENT_SHARE ? started + 10_000 + Math.floor(random() * 50_000) : Infinity,
}));
const silentCount = heartbeatsOf.filter((h) => h.stopsAt !== Infinity).length;
// One batch per tick at most this big: a steady stream, not bursts.
const batchSize = Math.min(MAX_PAYMENTS_PER_REQUEST, Math.max(1, Math.ceil((rate * TICK_MS) / 1000)));

let stopping = false;
let stopAsked = 0;
// Ctrl+C reaches this process twice (from the terminal, and relayed by tsx): only a second press, later, stops at once.
process.on("SIGINT", () => {
  if (stopping && Date.now() - stopAsked > 1000) process.exit(130);
  if (!stopping) stopAsked = Date.now();
  stopping = true;
});
process.on("SIGTERM", () => (stopping = true));

const tty = process.stdout.isTTY;
let lastLine = 0;
function progress(final = false) {
  const elapsed = (Date.now() - started) / 1000;
  const line =
    `${elapsed.toFixed(0)} s · sent ${stats.payments} payments · accepted ${stats.accepted} · failed requests ${stats.failedRequests} · ` +
    `${(stats.accepted / Math.max(1, elapsed)).toFixed(1)}/s · ${stats.reversals} reversals · ${stats.heartbeats} heartbeats · ${stats.silent}/${silentCount} terminals silent`;
  if (tty) process.stdout.write(`\r\x1b[K${line}${final ? "\n" : ""}`);
  else if (final || Date.now() - lastLine >= 5000) {
    console.log(line);
    lastLine = Date.now();
  }
}

console.log(
  `Sending to ${base.origin}/api/v1 for ${KUMASI_FRESH_FOODS}${isTestBusiness(BUSINESS) ? " in Test mode" : ""}: ${rate} payments/s${batchSize > 1 ? ` in batches of up to ${batchSize}` : ""}, ` +
    `${world.places.length} points of sale, ${world.terminals.length} terminals (${silentCount} will go silent). Stop with Ctrl+C.`,
);
let last = Date.now();
while (!stopping && Date.now() - started < seconds * 1000) {
  await new Promise((r) => setTimeout(r, TICK_MS));
  const now = Date.now();
  due += ((now - last) / 1000) * rate;
  last = now;
  if (now < pausedUntil) continue;
  // Payments: a backlog builds while too many requests wait; it is sent when they come back.
  while (due >= 1 && inFlight < MAX_IN_FLIGHT) {
    const n = Math.min(batchSize, Math.floor(due));
    due -= n;
    const payments: PaymentInput[] = Array.from({ length: n }, () => makePayment(random, world.places, referenceOf(runId, ++seq), now));
    stats.payments += n;
    for (const payment of payments) {
      if (payment.status === "successful" && random() < REVERSAL_SHARE) {
        reversalsDue.push({ at: now + 3_000 + Math.floor(random() * 15_000), reference: payment.reference });
      }
    }
    void send("/api/v1/payments", n === 1 ? payments[0] : { payments }, n);
  }
  for (let i = reversalsDue.length - 1; i >= 0; i--) {
    const reversal = reversalsDue[i]!;
    if (reversal.at > now || inFlight >= MAX_IN_FLIGHT) continue;
    reversalsDue.splice(i, 1);
    stats.reversals += 1;
    void send(`/api/v1/payments/${encodeURIComponent(reversal.reference)}/reversal`, makeReversal(random, now), 0);
  }
  for (const beat of heartbeatsOf) {
    if (beat.next > now || inFlight >= MAX_IN_FLIGHT) continue;
    if (now >= beat.stopsAt) {
      if (beat.next !== Infinity) stats.silent += 1;
      beat.next = Infinity;
      continue;
    }
    beat.next = now + HEARTBEAT_EVERY_MS;
    stats.heartbeats += 1;
    void send(`/api/v1/terminals/${encodeURIComponent(beat.terminal.serial)}/heartbeats`, makeHeartbeat(random, beat.terminal, now), 0);
  }
  progress();
}

// Let the requests on their way come back (at most 10 s), then say what happened.
const deadline = Date.now() + 10_000;
while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
progress(true);
if (problems.size > 0) {
  console.log("Refused requests:");
  for (const [problem, count] of problems) console.log(`  ${count} × ${problem.split("\n")[0]}`);
}
process.exit(stats.failedRequests > 0 && stats.accepted === 0 ? 1 : 0);
