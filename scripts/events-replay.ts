// npm run events:replay [-- --url https://portal.example.com] [--limit 100]
//
// Puts analytics events parked by the dead-letter queue (table analytics_parked:
// their last retry failed, e.g. the events service was down for hours) back on
// the EVENTS queue, through POST /api/events/replay on the running Worker. The
// secret comes from the environment: EVENTS_REPLAY_SECRET, the same value as the
// Worker's secret (`npx wrangler secret put EVENTS_REPLAY_SECRET`).
//
// Safe to run again at any time: an event that was relayed meanwhile is removed
// without sending, and the consumer de-duplicates by hash, so nothing is relayed
// twice. The default URL is the local portal of `npm start`.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:8787" },
    limit: { type: "string", default: "100" },
  },
});

const secret = process.env.EVENTS_REPLAY_SECRET;
if (!secret) {
  console.error("Set EVENTS_REPLAY_SECRET to the Worker's replay secret (see .dev.vars.example).");
  process.exit(2);
}
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
  console.error("--limit must be a whole number from 1 to 500.");
  process.exit(2);
}
const endpoint = new URL(`/api/events/replay?limit=${limit}`, values.url);

interface ReplayResult {
  replayed: number;
  skipped: number;
  remaining: number;
}

const MAX_CALLS = 1000;
let replayed = 0;
let skipped = 0;
let remaining = 0;
for (let call = 1; call <= MAX_CALLS; call += 1) {
  let response: Response;
  try {
    response = await fetch(endpoint, { method: "POST", headers: { Authorization: `Bearer ${secret}` }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    console.error(`Could not reach ${endpoint.origin}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const body = (await response.json().catch(() => ({}))) as Partial<ReplayResult> & { message?: string };
  if (!response.ok) {
    const why = response.status === 404 ? "the Worker has no EVENTS_REPLAY_SECRET, or this is not the portal" : (body.message ?? response.statusText);
    console.error(`Replay refused (${response.status}): ${why}`);
    process.exit(1);
  }
  replayed += body.replayed ?? 0;
  skipped += body.skipped ?? 0;
  remaining = body.remaining ?? 0;
  if (remaining === 0 || (body.replayed ?? 0) + (body.skipped ?? 0) === 0) break;
}
console.log(`Replayed ${replayed} parked event(s); removed ${skipped} already relayed; ${remaining} still parked.`);
if (remaining > 0) process.exit(1);
