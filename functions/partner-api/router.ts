// The Partner API, /api/v1/...: JSON in and out, a Bearer API key
// per business (or the switch's platform key naming the business in PP-Business: ./credential.ts),
// answered by the Worker before Remix (no session, no cookies, no
// pages). A request is checked whole at the door (key, size, rate, card numbers,
// schema, the merchants it names) and then queued (PAYMENTS); the consumer
// (functions/payments/consumer.ts) writes it within seconds. Docs: docs/partner-api.md.
import * as v from "valibot";
import { jsonResponse } from "../platform/http";
import { countRequest, type RateLimit } from "../platform/rate-limit";
import { isBusinessMoving, MOVING_MESSAGE } from "../tenancy/tenant";
import { claimIdempotencyKey, releaseIdempotencyKey } from "./api-idempotency.db";
import { getPaymentByReference } from "../payments/api-payments.db";
import { cardNumberPlaces } from "../card-numbers/card-numbers";
import { authenticate, type Credential } from "./credential";
import { paymentView, refundsView } from "./views";
import { listRefundsByReference } from "../refunds/refunds.db";
import { openApiDocument } from "./openapi";
import {
  CLOCK_SKEW_MS,
  HeartbeatInput,
  IdempotencyKey,
  MAX_PAYMENT_AGE_MS,
  MAX_PAYMENTS_PER_REQUEST,
  PaymentBatchInput,
  PaymentInput,
  type ParsedPayment,
  Reference,
  ReversalInput,
  TerminalSerial,
  type Problem,
} from "./schemas";
import { resolvePayments, resolveTerminal } from "./resolve";
import { addEvidenceRequest, closeDisputeRequest, openDisputeRequest } from "../disputes/partner-api";
import { askRefundRequest } from "../refunds/partner-api";
import { badRequest, cardNumberRefusal, issuesOf, jsonBody, problem, type ApiDeps } from "./request";
import { finishProblem } from "./problems";
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER, versionOf, type ApiVersion } from "./versions";

export type { ApiDeps };
import { rejectionsRequest, reversalAnswer, waitingReversalsRequest } from "./rejections";
import {
  disputeRequest,
  eventRequest,
  eventsRequest,
  disputesListRequest,
  merchantsRequest,
  paymentsListRequest,
  pointsOfSaleRequest,
  refundRequest,
  refundsRequest,
  settlementsRequest,
  terminalsRequest,
} from "./lists";
import { resendFailedRequest } from "./webhook-endpoints";
import type { IngestMessage } from "../payments/consumer";
import { sha256Hex } from "../platform/sha256";
import { DAY_MS } from "../platform/time";

type Route =
  | { name: "payments" }
  | { name: "payment"; reference: string }
  | { name: "reversal"; reference: string }
  | { name: "heartbeat"; serial: string }
  | { name: "disputes" }
  | { name: "disputeClose"; id: string }
  | { name: "disputeEvidence"; id: string }
  | { name: "openapi" }
  | { name: "rejections" }
  | { name: "waitingReversals" }
  | { name: "listPayments" }
  | { name: "merchants" }
  | { name: "pointsOfSale" }
  | { name: "terminals" }
  | { name: "listDisputes" }
  | { name: "dispute"; id: string }
  | { name: "settlements" }
  | { name: "refunds" }
  | { name: "askRefund" }
  | { name: "refund"; id: string }
  | { name: "events" }
  | { name: "event"; id: string }
  | { name: "resendFailed"; id: string };

export const ROUTES: { method: string; pattern: RegExp; route: (m: RegExpExecArray) => Route }[] = [
  { method: "POST", pattern: /^\/api\/v1\/payments\/?$/, route: () => ({ name: "payments" }) },
  { method: "GET", pattern: /^\/api\/v1\/payments\/([^/]+)\/?$/, route: (m) => ({ name: "payment", reference: m[1]! }) },
  { method: "POST", pattern: /^\/api\/v1\/payments\/([^/]+)\/reversal\/?$/, route: (m) => ({ name: "reversal", reference: m[1]! }) },
  { method: "POST", pattern: /^\/api\/v1\/terminals\/([^/]+)\/heartbeats\/?$/, route: (m) => ({ name: "heartbeat", serial: m[1]! }) },
  { method: "GET", pattern: /^\/api\/v1\/openapi\.json$/, route: () => ({ name: "openapi" }) },
  { method: "POST", pattern: /^\/api\/v1\/disputes\/?$/, route: () => ({ name: "disputes" }) },
  { method: "POST", pattern: /^\/api\/v1\/disputes\/([^/]+)\/close\/?$/, route: (m) => ({ name: "disputeClose", id: m[1]! }) },
  { method: "POST", pattern: /^\/api\/v1\/disputes\/([^/]+)\/evidence\/?$/, route: (m) => ({ name: "disputeEvidence", id: m[1]! }) },
  // What was accepted and then not applied as sent (functions/partner-api/rejections.ts, decision 028).
  { method: "GET", pattern: /^\/api\/v1\/rejections\/?$/, route: () => ({ name: "rejections" }) },
  { method: "GET", pattern: /^\/api\/v1\/reversals\/waiting\/?$/, route: () => ({ name: "waitingReversals" }) },
  // The lists, with cursors (./lists.ts).
  { method: "GET", pattern: /^\/api\/v1\/payments\/?$/, route: () => ({ name: "listPayments" }) },
  { method: "GET", pattern: /^\/api\/v1\/merchants\/?$/, route: () => ({ name: "merchants" }) },
  { method: "GET", pattern: /^\/api\/v1\/points-of-sale\/?$/, route: () => ({ name: "pointsOfSale" }) },
  { method: "GET", pattern: /^\/api\/v1\/terminals\/?$/, route: () => ({ name: "terminals" }) },
  { method: "GET", pattern: /^\/api\/v1\/disputes\/?$/, route: () => ({ name: "listDisputes" }) },
  { method: "GET", pattern: /^\/api\/v1\/disputes\/([^/]+)\/?$/, route: (m) => ({ name: "dispute", id: m[1]! }) },
  { method: "GET", pattern: /^\/api\/v1\/settlements\/?$/, route: () => ({ name: "settlements" }) },
  { method: "GET", pattern: /^\/api\/v1\/refunds\/?$/, route: () => ({ name: "refunds" }) },
  // Asking for a refund (decided in the portal) and reading one's status (functions/refunds/partner-api.ts, ./lists.ts).
  { method: "POST", pattern: /^\/api\/v1\/refunds\/?$/, route: () => ({ name: "askRefund" }) },
  { method: "GET", pattern: /^\/api\/v1\/refunds\/([^/]+)\/?$/, route: (m) => ({ name: "refund", id: m[1]! }) },
  // The events feed and sending failed deliveries again (./lists.ts, ./webhook-endpoints.ts): a business's own key only.
  { method: "GET", pattern: /^\/api\/v1\/events\/?$/, route: () => ({ name: "events" }) },
  { method: "GET", pattern: /^\/api\/v1\/events\/([^/]+)\/?$/, route: (m) => ({ name: "event", id: m[1]! }) },
  { method: "POST", pattern: /^\/api\/v1\/webhook-endpoints\/([^/]+)\/resend-failed\/?$/, route: (m) => ({ name: "resendFailed", id: m[1]! }) },
];

function match(request: Request): Route | Response {
  const path = new URL(request.url).pathname;
  const candidates = ROUTES.filter((r) => r.pattern.test(path));
  if (candidates.length === 0) return problem("endpoint_not_found", `No such endpoint: ${path}`);
  const found = candidates.find((r) => r.method === request.method || (r.method === "GET" && request.method === "HEAD"));
  if (!found)
    return problem("method_not_allowed", `Use ${candidates.map((r) => r.method).join(" or ")} for ${path}`, undefined, {
      Allow: candidates.map((r) => r.method).join(", "),
    });
  let decoded: Route;
  try {
    decoded = found.route(found.pattern.exec(path)!);
    if ("reference" in decoded) decoded.reference = decodeURIComponent(decoded.reference);
    if ("serial" in decoded) decoded.serial = decodeURIComponent(decoded.serial);
    if ("id" in decoded) decoded.id = decodeURIComponent(decoded.id);
  } catch {
    return problem("endpoint_not_found", `No such endpoint: ${path}`);
  }
  return decoded;
}

/**
 * Queues the message once per Idempotency-Key: a repeat of the same request gets
 * the first answer again, the same key on another request is a 409.
 */
async function queueOnce(
  request: Request,
  deps: ApiDeps,
  { business, idempotencyKey }: Credential,
  bodyText: string,
  message: IngestMessage,
  count: number,
  answer: Record<string, unknown> = { accepted: count },
): Promise<Response> {
  const key = request.headers.get("Idempotency-Key");
  if (key === null) {
    await deps.queue.send(message, { contentType: "json" });
    return jsonResponse(answer, 202);
  }
  if (!v.is(IdempotencyKey, key)) return badRequest([{ path: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" }]);
  const requestHash = await sha256Hex(`${request.method} ${new URL(request.url).pathname}\n${bodyText}`);
  const kept = await claimIdempotencyKey(business, idempotencyKey(key), { requestHash, status: 202, body: JSON.stringify(answer) }, deps.now());
  if (kept) {
    if (kept.requestHash !== requestHash)
      return problem("idempotency_key_reused", "This Idempotency-Key was already used with another request. Use a new key for a new request.");
    return jsonResponse(JSON.parse(kept.body), kept.status, { "Idempotent-Replayed": "true" });
  }
  try {
    await deps.queue.send(message, { contentType: "json" });
  } catch (error) {
    await releaseIdempotencyKey(business, idempotencyKey(key));
    throw error;
  }
  return jsonResponse(answer, 202);
}

/** Checks "when it happened" against the portal's clock: not in the future, not older than the API takes. */
function timeErrors(paths: { path: string; at: number }[], now: number, maxAgeMs: number, skewMs: number): NonNullable<Problem["errors"]> {
  return paths.flatMap(({ path, at }) =>
    at > now + skewMs
      ? [{ path, message: "is in the future" }]
      : at < now - maxAgeMs
        ? [{ path, message: `is more than ${Math.round(maxAgeMs / DAY_MS)} days ago` }]
        : [],
  );
}

/** The items of a refused batch that pass the schema on their own, with their index. */
function validItems(items: unknown): { index: number; payment: ParsedPayment }[] {
  if (!Array.isArray(items) || items.length > MAX_PAYMENTS_PER_REQUEST) return [];
  return items.flatMap((item, index) => {
    const one = v.safeParse(PaymentInput, item);
    return one.success ? [{ index, payment: one.output }] : [];
  });
}

/** 200, not 202: nothing is queued, and the sender can tell its heartbeat was not applied. */
function staleHeartbeat(lastSeenAt: number): Response {
  const lastSeen = new Date(lastSeenAt).toISOString();
  return jsonResponse(
    {
      accepted: 0,
      applied: false,
      reason: "stale",
      message: `sent_at is older than this terminal's last heartbeat (${lastSeen}): it was not applied.`,
      last_seen_at: lastSeen,
    },
    200,
  );
}

/** The quota of a key, as the IETF RateLimit header fields name it (draft-ietf-httpapi-ratelimit-headers-10). */
const RATE_POLICY = "per-key";

/** What the answer's headers say of the key's quota: known once the request was counted. */
interface Counted {
  rate?: { remaining: number; resetSeconds: number };
  /** The version the request was answered as, once its key is known. */
  version?: ApiVersion;
}

export async function handlePartnerApi(request: Request, deps: ApiDeps): Promise<Response> {
  const counted: Counted = {};
  let response: Response;
  try {
    response = await answer(request, deps, counted);
  } catch (error) {
    // A business being moved to another database takes no writes for a moment; nothing was kept or queued.
    if (!isBusinessMoving(error)) throw error;
    response = problem("business_moving", MOVING_MESSAGE, undefined, { "Retry-After": "30" });
  }
  // A request refused before its body was read (no key, a suspended business): the Worker's door drains the body
  // (functions/platform/http.ts), so the connection is left clean for the next request.
  return withRateLimitHeaders(await finishProblem(response, new URL(request.url).origin, deps.requestId), deps.rateLimitPerMinute, counted);
}

/**
 * Every answer carries the policy (how many requests a key may send in how many seconds); an answer to a request that
 * was counted against a key also carries what is left of it and when the window ends. Requests refused before a key
 * is known (no key, an unknown path, a card number) use up no quota, so they say only the policy.
 */
function withRateLimitHeaders(response: Response, perMinute: number, counted: Counted): Response {
  const headers = new Headers(response.headers);
  // Every answer says which version it was answered as: before a key is known, the current one.
  headers.set(VERSION_HEADER, counted.version ?? CURRENT_API_VERSION);
  headers.set("RateLimit-Policy", `"${RATE_POLICY}";q=${perMinute};w=60`);
  if (counted.rate) headers.set("RateLimit", `"${RATE_POLICY}";r=${counted.rate.remaining};t=${counted.rate.resetSeconds}`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answer(request: Request, deps: ApiDeps, counted: Counted): Promise<Response> {
  // Before anything reads, answers with, stores or queues the path, the query or a header (the body: jsonBody).
  const places = cardNumberPlaces(request);
  if (places.length > 0) return cardNumberRefusal(places);
  const route = match(request);
  if (route instanceof Response) return route;
  // The description is public: a processor's developer reads it before having a key.
  if (route.name === "openapi") {
    // Its request examples are dated from now, so each runs as it is (functions/partner-api/openapi.ts examplesAt).
    return Response.json(openApiDocument(new URL(request.url).origin, { rateLimitPerMinute: deps.rateLimitPerMinute, now: deps.now() }), {
      headers: { "Cache-Control": "public, max-age=300" },
    });
  }

  // Which key, for which business (a platform key names it in PP-Business), and whether it may run this operation.
  const credential = await authenticate(request, deps, route.name);
  if (credential instanceof Response) return credential;
  const { business } = credential;
  const version = versionOf(request, credential.apiVersion);
  if (version === null) {
    return problem("unknown_version", `${VERSION_HEADER} names no version of this API. Versions: ${API_VERSIONS.join(", ")}; leave it out to use the key's.`, [
      { path: `header ${VERSION_HEADER.toLowerCase()}`, message: `must be one of ${API_VERSIONS.join(", ")}` },
    ]);
  }
  counted.version = version;

  const limit: RateLimit = { name: "api", max: deps.rateLimitPerMinute, windowMs: 60_000 };
  const rate = await countRequest(deps.core, limit, credential.rateClient, deps.now());
  counted.rate = { remaining: rate.remaining, resetSeconds: rate.resetSeconds };
  if (!rate.allowed) {
    return problem("rate_limited", `Too many requests for this key: at most ${limit.max} a minute.`, undefined, {
      "Retry-After": String(rate.retryAfterSeconds),
    });
  }

  switch (route.name) {
    case "payment": {
      if (!v.is(Reference, route.reference)) return problem("payment_not_found", "No payment with that reference.");
      const [held, refunds] = await Promise.all([getPaymentByReference(business, route.reference), listRefundsByReference(business, route.reference)]);
      return held ? jsonResponse({ ...paymentView(held), ...refundsView(refunds) }) : problem("payment_not_found", "No payment with that reference.");
    }
    case "payments": {
      const body = await jsonBody(request);
      if (body instanceof Response) return body;
      const json = body.json;
      const isBatch = typeof json === "object" && json !== null && !Array.isArray(json) && "payments" in json;
      const prefix = (i: number) => (isBatch ? `payments[${i}].` : "");
      const parsed = isBatch ? v.safeParse(PaymentBatchInput, json) : v.safeParse(PaymentInput, json);
      const errors = parsed.success ? [] : issuesOf(parsed.issues);
      // The items that pass the schema are checked further (time, repeats, parties) even when another item did not,
      // so one answer lists every problem of the request.
      const valid = parsed.success
        ? (isBatch ? (parsed.output as v.InferOutput<typeof PaymentBatchInput>).payments : [parsed.output as ParsedPayment]).map((payment, index) => ({
            index,
            payment,
          }))
        : isBatch
          ? validItems(json.payments)
          : [];
      const now = deps.now();
      errors.push(
        ...timeErrors(
          valid.map(({ index, payment }) => ({ path: `${prefix(index)}occurred_at`, at: payment.occurred_at })),
          now,
          MAX_PAYMENT_AGE_MS,
          CLOCK_SKEW_MS,
        ),
      );
      const seen = new Map<string, number>();
      for (const { index, payment } of valid) {
        const first = seen.get(payment.reference);
        if (first !== undefined) errors.push({ path: `${prefix(index)}reference`, message: `repeats ${prefix(first)}reference in the same request` });
        else seen.set(payment.reference, index);
      }
      const resolved = valid.length > 0 ? await resolvePayments(business, valid, prefix) : { errors: [], items: [] };
      errors.push(...resolved.errors);
      if (errors.length > 0) return badRequest(errors);
      const items = resolved.items;
      return queueOnce(request, deps, credential, body.text, { v: 1, businessId: business.businessId, receivedAt: now, payments: items }, items.length);
    }
    case "reversal": {
      if (!v.is(Reference, route.reference)) return problem("payment_not_found", "No payment with that reference.");
      const body = await jsonBody(request);
      if (body instanceof Response) return body;
      const parsed = v.safeParse(ReversalInput, body.json);
      if (!parsed.success) return badRequest(issuesOf(parsed.issues));
      const now = deps.now();
      const at = parsed.output.reversed_at;
      const errors = timeErrors([{ path: "reversed_at", at }], now, MAX_PAYMENT_AGE_MS, CLOCK_SKEW_MS);
      if (errors.length > 0) return badRequest(errors);
      // A reversal whose payment has not arrived yet is accepted: it waits for it, and the answer says so.
      const reversal = { reference: route.reference, reason: parsed.output.reason, reversedAt: Math.min(at, now) };
      const known = (await getPaymentByReference(business, route.reference)) !== null;
      const message: IngestMessage = { v: 1, businessId: business.businessId, receivedAt: now, reversals: [reversal] };
      return queueOnce(request, deps, credential, body.text, message, 1, reversalAnswer(known));
    }
    case "listPayments":
      return paymentsListRequest(request, business);
    case "merchants":
      return merchantsRequest(request, business);
    case "pointsOfSale":
      return pointsOfSaleRequest(request, business);
    case "terminals":
      return terminalsRequest(request, business);
    case "listDisputes":
      return disputesListRequest(request, business);
    case "dispute":
      return disputeRequest(request, business, route.id);
    case "events":
      return eventsRequest(request, business, version);
    case "event":
      return eventRequest(request, business, route.id, version);
    case "resendFailed":
      return resendFailedRequest(request, deps, business, route.id);
    case "settlements":
      return settlementsRequest(request, business);
    case "refunds":
      return refundsRequest(request, business);
    case "refund":
      return refundRequest(request, business, route.id);
    case "askRefund":
      return askRefundRequest(request, deps, credential);
    case "rejections":
      return rejectionsRequest(request, business);
    case "waitingReversals":
      return waitingReversalsRequest(request, business, deps.now());
    case "disputes":
      return openDisputeRequest(request, deps, credential);
    case "disputeClose":
      return closeDisputeRequest(request, deps, business, route.id);
    case "disputeEvidence":
      return addEvidenceRequest(request, deps, business, route.id);
    case "heartbeat": {
      if (!v.is(TerminalSerial, route.serial)) return problem("terminal_not_found", "No terminal with that serial.");
      const body = await jsonBody(request);
      if (body instanceof Response) return body;
      const parsed = v.safeParse(HeartbeatInput, body.json);
      if (!parsed.success) return badRequest(issuesOf(parsed.issues));
      const terminal = await resolveTerminal(business, route.serial);
      if (!terminal) return problem("terminal_not_found", "No terminal with that serial.");
      const now = deps.now();
      // A terminal's clock may run ahead: it was seen no later than now.
      const seenAt = Math.min(parsed.output.sent_at, now);
      // Older than what the portal holds: the consumer would keep the newer one, so say so now rather than 202.
      if (terminal.lastSeenAt !== null && seenAt < terminal.lastSeenAt) return staleHeartbeat(terminal.lastSeenAt);
      const beat = {
        terminalId: terminal.id,
        batteryPercent: parsed.output.battery_percent,
        signalPercent: parsed.output.signal_percent,
        softwareVersion: parsed.output.software_version,
        seenAt,
      };
      return queueOnce(request, deps, credential, body.text, { v: 1, businessId: business.businessId, receivedAt: now, heartbeats: [beat] }, 1);
    }
  }
}
