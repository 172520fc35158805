// POST /api/events/replay (Authorization: Bearer <EVENTS_REPLAY_SECRET>): puts
// parked events (analytics_parked, filled by the dead-letter queue's consumer)
// back on the EVENTS queue, at most `limit` per call. `npm run events:replay`
// calls it until nothing is left.
//
// Each parked row is sent first and deleted after, and only if it was not parked
// again meanwhile (generation): a crash in between leaves it parked and already
// queued, and the consumer's de-duplication drops the second copy. Events that
// were relayed meanwhile are removed without sending.
import * as v from "valibot";
import { countParked, parkedRows, unparkStatement, type ParkedRow } from "./analytics-events.db";
import type { EventsConfig } from "../env";
import { jsonResponse, notFound } from "./http";
import { errorText, logEvent } from "../plumbing/log";
import { parseQueueMessage } from "./schema";

export const REPLAY_LIMIT_DEFAULT = 100;
/** Messages per Queue.sendBatch: 10 events of at most 16 KB stay far below the 256 KB batch limit. */
const SEND_CHUNK = 10;

/** ?limit= of a replay (this one's and the Partner API's parked messages'): 1 to 500, 100 when absent. */
export const ReplayLimit = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,4}$/, "limit must be a whole number"),
    v.transform(Number),
    v.minValue(1, "limit must be at least 1"),
    v.maxValue(500, "limit must be at most 500"),
  ),
  String(REPLAY_LIMIT_DEFAULT),
);

const ReplayQuery = v.object({ limit: ReplayLimit });

export interface ReplayResult {
  /** Put back on the queue. */
  replayed: number;
  /** Removed without sending: already relayed, or not a valid message. */
  skipped: number;
  /** Still parked after this call. */
  remaining: number;
}

export async function replayParked(db: D1Database, queue: Queue, limit: number): Promise<ReplayResult> {
  const results = await parkedRows(db, limit);
  const remove = (rows: ParkedRow[]) => (rows.length === 0 ? Promise.resolve() : db.batch(rows.map((row) => unparkStatement(db, row.hash, row.generation))));

  const send: { row: ParkedRow; body: unknown }[] = [];
  const skip: ParkedRow[] = [];
  for (const row of results) {
    const parsed = row.status === "relayed" ? null : await parseQueueMessage(JSON.parse(row.message_json) as unknown);
    if (parsed?.success) send.push({ row, body: parsed.message });
    else skip.push(row);
  }
  for (let i = 0; i < send.length; i += SEND_CHUNK) {
    const chunk = send.slice(i, i + SEND_CHUNK);
    await queue.sendBatch(chunk.map(({ body }) => ({ body, contentType: "json" as const })));
    await remove(chunk.map(({ row }) => row));
  }
  await remove(skip);
  const left = await countParked(db);
  return { replayed: send.length, skipped: skip.length, remaining: left ?? 0 };
}

const encoder = new TextEncoder();

/** Compares two secrets in time that does not depend on where they differ. */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([given, expected].map(async (text) => new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)))));
  let difference = 0;
  for (let i = 0; i < a!.length; i += 1) difference |= a![i]! ^ b![i]!;
  return difference === 0;
}

export async function replayRequest(request: Request, deps: { db: D1Database; queue: Queue; config: EventsConfig; requestId: string }): Promise<Response> {
  // Without a secret the endpoint does not exist.
  if (!deps.config.replaySecret) return notFound(request);
  const given = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  if (!(await sameSecret(given, deps.config.replaySecret))) {
    return jsonResponse({ message: "A valid replay secret is required" }, 401, { "WWW-Authenticate": 'Bearer realm="events-replay"' });
  }
  const query = v.safeParse(ReplayQuery, { limit: new URL(request.url).searchParams.get("limit") ?? undefined });
  if (!query.success) return jsonResponse({ message: query.issues.map((issue) => issue.message).join("; ") }, 400);
  try {
    const result = await replayParked(deps.db, deps.queue, query.output.limit);
    logEvent("info", "analytics.replayed", { requestId: deps.requestId, ...result });
    return jsonResponse(result);
  } catch (error) {
    logEvent("error", "analytics.replay_failed", { requestId: deps.requestId, error: errorText(error) });
    return jsonResponse({ message: `Replay failed; nothing was lost. Quote this id to support: ${deps.requestId}` }, 500);
  }
}
