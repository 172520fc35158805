// The operators' side of parked Partner API messages (decision 028), for `npm run ingest:replay`:
//   GET  /api/ingest/parked[?limit=N]            every database's parked messages, oldest first
//   POST /api/ingest/replay?id=prk_…[&id=…]      puts those back on the PAYMENTS queue
//   POST /api/ingest/replay?all=1[&limit=N]      the oldest N (100) of them
// with Authorization: Bearer <EVENTS_REPLAY_SECRET> (the operators' replay secret, shared with the events replay);
// without that secret the endpoints do not exist. A message is sent first and unparked after: a crash in between
// leaves it parked and queued, and the consumer's exactly-once reading makes the second copy a duplicate.
import * as v from "valibot";
import { allParkedMessages, parkedMessageById, unparkStatement, type ParkedWithBody } from "./ingest-parked.db";
import type { Db } from "../tenancy/tenant";
import { jsonResponse, notFound } from "../analytics/http";
import { errorText, logEvent } from "../plumbing/log";
import { ReplayLimit, sameSecret } from "../analytics/replay";

export const INGEST_OPS_PREFIX = "/api/ingest/";

const Limit = ReplayLimit;
const ParkedId = v.pipe(v.string(), v.regex(/^prk_[0-9a-f]{24}$/, "id must be a parked message id (prk_…)"));
const ReplayQuery = v.union([
  v.object({ ids: v.pipe(v.array(ParkedId), v.minLength(1), v.maxLength(100, "at most 100 ids at a time")), all: v.literal(false), limit: Limit }),
  v.object({ ids: v.pipe(v.array(ParkedId), v.length(0)), all: v.literal(true), limit: Limit }),
]);

export interface IngestOpsDeps {
  /** Every database that may hold parked messages (the core one and the shards), by binding name. */
  databases: { name: string; db: Db }[];
  queue: Queue;
  replaySecret: string | null;
  requestId: string;
}

/** What the listing shows an operator: no body (it may be long), its references and error. */
function listed(name: string, row: ParkedWithBody) {
  const { body: _body, ...rest } = row;
  return { ...rest, database: name };
}

export async function ingestOpsRequest(request: Request, deps: IngestOpsDeps): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\/$/, "");
  const known = path === "/api/ingest/parked" ? "GET" : path === "/api/ingest/replay" ? "POST" : null;
  if (!known || !deps.replaySecret) return notFound(request);
  if (request.method !== known) return jsonResponse({ message: `Use ${known} for ${path}` }, 405, { Allow: known });
  const given = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  if (!(await sameSecret(given, deps.replaySecret))) {
    return jsonResponse({ message: "A valid replay secret is required" }, 401, { "WWW-Authenticate": 'Bearer realm="ingest-replay"' });
  }
  try {
    if (known === "GET") {
      const limit = v.safeParse(Limit, url.searchParams.get("limit") ?? undefined);
      if (!limit.success) return jsonResponse({ message: limit.issues.map((i) => i.message).join("; ") }, 400);
      const parked = (
        await Promise.all(deps.databases.map(async ({ name, db }) => (await allParkedMessages(db, limit.output)).map((row) => listed(name, row))))
      )
        .flat()
        .sort((a, b) => a.parkedAt - b.parkedAt || a.id.localeCompare(b.id))
        .slice(0, limit.output);
      return jsonResponse({ parked });
    }
    const query = v.safeParse(ReplayQuery, {
      ids: url.searchParams.getAll("id"),
      all: url.searchParams.get("all") === "1",
      limit: url.searchParams.get("limit") ?? undefined,
    });
    if (!query.success) return jsonResponse({ message: "Name parked messages with id=prk_… (repeatable), or send all=1 (limit=N, default 100)." }, 400);
    const result = await replayParkedPayments(deps.databases, deps.queue, query.output.all ? { limit: query.output.limit } : { ids: query.output.ids });
    logEvent("info", "ingest.replayed", { requestId: deps.requestId, replayed: result.replayed.length, missing: result.missing.length });
    return jsonResponse(result);
  } catch (error) {
    logEvent("error", "ingest.replay_failed", { requestId: deps.requestId, error: errorText(error) });
    return jsonResponse({ message: `Replay failed; nothing parked was lost. Quote this id to support: ${deps.requestId}` }, 500);
  }
}

/**
 * Puts parked messages back on the PAYMENTS queue: the named ones, or the oldest `limit` of every database. Each is
 * sent first and unparked after (see above). Used by the operators' endpoint and by the platform's replay request.
 */
export async function replayParkedPayments(
  databases: readonly { db: Db }[],
  queue: Queue,
  which: { ids: readonly string[] } | { limit: number },
): Promise<{ replayed: string[]; missing: string[] }> {
  const found: { db: Db; row: ParkedWithBody }[] = [];
  const missing: string[] = [];
  if ("limit" in which) {
    for (const { db } of databases) for (const row of await allParkedMessages(db, which.limit)) found.push({ db, row });
    found.sort((a, b) => a.row.parkedAt - b.row.parkedAt);
    found.splice(which.limit);
  } else {
    for (const id of which.ids) {
      let hit: { db: Db; row: ParkedWithBody } | null = null;
      for (const { db } of databases) {
        const row = await parkedMessageById(db, id);
        if (row) hit = { db, row };
        if (hit) break;
      }
      if (hit) found.push(hit);
      else missing.push(id);
    }
  }
  for (const { db, row } of found) {
    await queue.send(JSON.parse(row.body) as unknown, { contentType: "json" });
    await unparkStatement(db, row.businessId, row.id).run();
  }
  return { replayed: found.map(({ row }) => row.id), missing };
}
