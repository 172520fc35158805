// npm run ingest:replay [-- --url http://127.0.0.1:8787 | --remote] [--id prk_… …] [--all] [--limit 100]
//
// Partner API queue messages the consumer could not apply are parked in D1 (ingest_parked, decision 028), by the
// consumer's poison isolation or by the PAYMENTS dead-letter queue's consumer. Without --id or --all this lists them
// (every database); after the cause is fixed (a deploy), --id puts the named ones back on the PAYMENTS queue and --all
// the oldest --limit of them. Safe to run again: the consumer applies each payment once (functions/payments/ingest.db.ts), and
// a message that fails again is parked again.
//
// It talks to the running Worker (GET /api/ingest/parked, POST /api/ingest/replay) with the operators' replay
// secret from the environment: EVENTS_REPLAY_SECRET, the Worker's secret of that name. --url defaults to the local
// portal of `npm start`; --remote uses PORTAL_URL (the deployed portal's origin).
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    remote: { type: "boolean", default: false },
    id: { type: "string", multiple: true, default: [] },
    all: { type: "boolean", default: false },
    limit: { type: "string", default: "100" },
  },
});

const fail = (message: string, code = 2): never => {
  console.error(message);
  process.exit(code);
};

const secret = process.env.EVENTS_REPLAY_SECRET ?? fail("Set EVENTS_REPLAY_SECRET to the Worker's replay secret (see .dev.vars.example).");
if (values.remote && values.url) fail("Give --url or --remote, not both.");
const origin = values.remote
  ? (process.env.PORTAL_URL ?? fail("--remote needs PORTAL_URL, the deployed portal's origin."))
  : (values.url ?? "http://127.0.0.1:8787");
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1 || limit > 500) fail("--limit must be a whole number from 1 to 500.");
if (values.all && values.id.length > 0) fail("Give --id or --all, not both.");

async function call(path: string, method: "GET" | "POST"): Promise<Record<string, unknown>> {
  const url = new URL(path, origin);
  let response: Response;
  try {
    response = await fetch(url, { method, headers: { Authorization: `Bearer ${secret}` }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    return fail(`Could not reach ${url.origin}: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const why =
      response.status === 404
        ? "the Worker has no EVENTS_REPLAY_SECRET, or this is not the portal"
        : typeof body.message === "string"
          ? body.message
          : response.statusText;
    fail(`Refused (${response.status}): ${why}`, 1);
  }
  return body;
}

interface Parked {
  id: string;
  database: string;
  businessId: string;
  source: string;
  references: string[];
  error: string;
  attempts: number;
  parkedAt: number;
}

if (values.id.length === 0 && !values.all) {
  const { parked } = (await call(`/api/ingest/parked?limit=${limit}`, "GET")) as { parked: Parked[] };
  if (parked.length === 0) console.log("Nothing is parked.");
  for (const p of parked) {
    const refs = p.references.length > 0 ? p.references.join(", ") : "(no references)";
    console.log(`${p.id}  ${new Date(p.parkedAt).toISOString()}  ${p.database}  ${p.businessId || "(unknown business)"}  ${p.source}  attempts ${p.attempts}`);
    console.log(`    ${refs}`);
    console.log(`    ${p.error}`);
  }
  if (parked.length > 0) console.log(`\n${parked.length} parked. Replay with --id <id> (repeatable) or --all, after fixing the cause.`);
} else {
  const query = values.all ? `all=1&limit=${limit}` : values.id.map((id) => `id=${encodeURIComponent(id)}`).join("&");
  const result = (await call(`/api/ingest/replay?${query}`, "POST")) as { replayed: string[]; missing: string[] };
  console.log(
    `Put ${result.replayed.length} parked message(s) back on the PAYMENTS queue${result.replayed.length > 0 ? `: ${result.replayed.join(", ")}` : ""}.`,
  );
  if (result.missing.length > 0) {
    console.error(`Not parked (already replayed, or no such id): ${result.missing.join(", ")}`);
    process.exit(1);
  }
}
