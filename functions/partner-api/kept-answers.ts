// The Idempotency-Key of a Partner API write that is done at once (opening a dispute, asking for a refund), not
// queued: its answer is kept in the same batch as the write (api_idempotency), so the key and what it made are one
// fact. Shared by every such handler; the payments' claim-then-queue is router.ts's queueOnce.
import * as v from "valibot";
import { jsonResponse } from "../platform/http";
import { sha256Hex } from "../platform/sha256";
import type { BusinessDb, RequestMeta } from "../tenancy/tenant";
import { keptAnswerOf } from "./api-idempotency.db";
import type { Credential } from "./credential";
import { badRequest, problem, type ApiDeps } from "./request";
import { IdempotencyKey } from "./schemas";

/** Who the audit log says asked: the request's address, agent and id (no person: the key acted). */
export function apiMetaOf(request: Request, deps: ApiDeps): RequestMeta {
  return { ip: request.headers.get("CF-Connecting-IP"), userAgent: request.headers.get("User-Agent"), requestId: deps.requestId ?? null };
}

/** The first answer again for a repeated Idempotency-Key, a 409 for the key on another request, or null when the key is new. */
export async function keptAnswer(business: BusinessDb, key: string, requestHash: string): Promise<Response | null> {
  const kept = await keptAnswerOf(business, key);
  if (!kept) return null;
  if (kept.requestHash !== requestHash)
    return problem("idempotency_key_reused", "This Idempotency-Key was already used with another request. Use a new key for a new request.");
  return jsonResponse(JSON.parse(kept.body), kept.status, { "Idempotent-Replayed": "true" });
}

/**
 * The request's Idempotency-Key as the credential keeps it (a platform key's apart from the business's own) and the
 * hash of the request; or the answer: a 400 for a malformed key, or the kept answer of a key already used.
 */
export async function idempotencyOf(
  request: Request,
  business: BusinessDb,
  idempotencyKey: Credential["idempotencyKey"],
  bodyText: string,
): Promise<{ key: string | null; requestHash: string } | Response> {
  const sent = request.headers.get("Idempotency-Key");
  if (sent !== null && !v.is(IdempotencyKey, sent)) return badRequest([{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }]);
  const key = sent === null ? null : idempotencyKey(sent);
  const requestHash = await sha256Hex(`${request.method} ${new URL(request.url).pathname}\n${bodyText}`);
  if (key !== null) {
    const replay = await keptAnswer(business, key, requestHash);
    if (replay) return replay;
  }
  return { key, requestHash };
}
