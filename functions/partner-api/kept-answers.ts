// The Idempotency-Key of every Partner API write, in one place: the key read and checked, the request's hash, and the
// first answer given again (or a 409 for the key on another request). Two ways to keep the answer, because a queue
// message cannot join a D1 batch: a write queued for the consumer (payments, reversals, heartbeats: queueOnce) claims
// the key with its answer first and frees it if the message cannot be queued; a write done at once (opening a dispute,
// asking for a refund: idempotencyOf) keeps its answer in the same batch as the write (api_idempotency), so the key
// and what it made are one fact.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { sha256Hex } from "../plumbing/sha256";
import type { BusinessDb, RequestMeta } from "../tenancy/tenant";
import type { IngestMessage } from "../payments/consumer";
import { claimIdempotencyKey, keptAnswerOf, releaseIdempotencyKey, type KeptAnswer } from "./api-idempotency.db";
import type { Credential } from "./credential";
import { badRequest, problem, type ApiDeps } from "./request";
import { IdempotencyKey } from "./schemas";

/** Who the audit log says asked: the request's address, agent and id (no person: the key acted). */
export function apiMetaOf(request: Request, deps: ApiDeps): RequestMeta {
  return { ip: request.headers.get("CF-Connecting-IP"), userAgent: request.headers.get("User-Agent"), requestId: deps.requestId ?? null };
}

/** What a key already used answers now: the first answer again for the same request, a 409 for another. */
function replayOf(kept: KeptAnswer, requestHash: string): Response {
  if (kept.requestHash !== requestHash)
    return problem("idempotency_key_reused", "This Idempotency-Key was already used with another request. Use a new key for a new request.");
  return jsonResponse(JSON.parse(kept.body), kept.status, { "Idempotent-Replayed": "true" });
}

/** The first answer again for a repeated Idempotency-Key, a 409 for the key on another request, or null when the key is new. */
export async function keptAnswer(business: BusinessDb, key: string, requestHash: string): Promise<Response | null> {
  const kept = await keptAnswerOf(business, key);
  return kept ? replayOf(kept, requestHash) : null;
}

/**
 * The request's Idempotency-Key as the credential keeps it (a platform key's apart from the business's own) and the
 * hash of the request (method, path and body); or a 400 for a malformed key.
 */
async function keyOf(
  request: Request,
  idempotencyKey: Credential["idempotencyKey"],
  bodyText: string,
): Promise<{ key: string | null; requestHash: string } | Response> {
  const sent = request.headers.get("Idempotency-Key");
  if (sent !== null && !v.is(IdempotencyKey, sent)) return badRequest([{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }]);
  const key = sent === null ? null : idempotencyKey(sent);
  return { key, requestHash: await sha256Hex(`${request.method} ${new URL(request.url).pathname}\n${bodyText}`) };
}

/**
 * For a write done at once: the key and the request's hash, for the write to keep its answer with (keepAnswerStatement);
 * or the answer: a 400 for a malformed key, or the kept answer of a key already used.
 */
export async function idempotencyOf(
  request: Request,
  business: BusinessDb,
  idempotencyKey: Credential["idempotencyKey"],
  bodyText: string,
): Promise<{ key: string | null; requestHash: string } | Response> {
  const read = await keyOf(request, idempotencyKey, bodyText);
  if (read instanceof Response || read.key === null) return read;
  return (await keptAnswer(business, read.key, read.requestHash)) ?? read;
}

/**
 * For a write queued for the consumer: queues the message once per Idempotency-Key. A repeat of the same request gets
 * the first answer again, the same key on another request is a 409.
 */
export async function queueOnce(
  request: Request,
  deps: ApiDeps,
  { business, idempotencyKey }: Credential,
  bodyText: string,
  message: IngestMessage,
  count: number,
  answer: Record<string, unknown> = { accepted: count },
): Promise<Response> {
  const read = await keyOf(request, idempotencyKey, bodyText);
  if (read instanceof Response) return read;
  const { key, requestHash } = read;
  if (key !== null) {
    const kept = await claimIdempotencyKey(business, key, { requestHash, status: 202, body: JSON.stringify(answer) }, deps.now());
    if (kept) return replayOf(kept, requestHash);
  }
  try {
    await deps.queue.send(message, { contentType: "json" });
  } catch (error) {
    if (key !== null) await releaseIdempotencyKey(business, key);
    throw error;
  }
  return jsonResponse(answer, 202);
}
