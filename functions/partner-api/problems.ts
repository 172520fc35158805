// Every refusal of the Partner API is an RFC 9457 problem (application/problem+json) with a stable `code`. The
// catalogue below is the one list: `problem()` takes only its codes, the API reference page lists every one under an
// anchor (#problem-<code>) which is the problem's `type`, and the OpenAPI document names them. The request id and the
// absolute `type` are added in one place on the way out (finishProblem), so no handler can forget them.
// `message` repeats `detail`: clients written before the problem format read it, and it costs a few bytes.
// What a domain's error means to the API's caller is said here too (problemOfError), so each operation names only
// which field or code its errors are about.
import { ForbiddenError, isBusinessMoving, MOVING_MESSAGE, NotFoundError, RuleError } from "../tenancy/tenant";

export const PROBLEMS = {
  validation_failed: {
    status: 400,
    title: "The request is not valid",
    explanation:
      "Every problem of the request is listed in `errors`, each with its JSON path (`payments[3].merchant`) and what is wrong there. Fix them all and send again.",
  },
  card_number: {
    status: 400,
    title: "The request holds a full card number",
    explanation:
      "A value, key, header, path or query looked like a full card number (13 to 19 digits passing the Luhn check). Nothing of the request was stored or logged. Send a card's BIN and last four only.",
  },
  body_not_utf8: { status: 400, title: "The body is not UTF-8", explanation: "Send the JSON body encoded as UTF-8." },
  body_not_json: { status: 400, title: "The body is not JSON", explanation: "The body could not be parsed as JSON." },
  repeated_key: {
    status: 400,
    title: "A key is repeated",
    explanation:
      "An object of the body has the same key twice (`errors` names where). JSON parsers keep one of the values and drop the other unseen, so the request is refused: send each key once.",
  },
  text_not_well_formed: {
    status: 400,
    title: "Text that is not Unicode",
    explanation:
      "A string of the body (`errors` names which) holds a lone surrogate (such as \\ud800 without its pair): it is not text. Send well-formed Unicode; an emoji or any character beyond U+FFFF is written as its pair, or as UTF-8.",
  },
  body_too_deep: { status: 400, title: "The body is nested too deeply", explanation: "No request of this API needs JSON nested more than 4 levels deep." },
  business_required: {
    status: 400,
    title: "Name the business",
    explanation: "A platform key acts for many businesses: name the one this request is for in the PP-Business header.",
  },
  unknown_version: {
    status: 400,
    title: "No such API version",
    explanation: "The PP-Version header names a version this API does not have. Leave it out to use the key's own version; docs/api-changelog.md lists them.",
  },
  unauthorized: {
    status: 401,
    title: "No valid API key",
    explanation:
      "Send Authorization: Bearer <key> with a live key. A revoked key, a previous key after its overlap ended, or a key never made all answer this.",
  },
  out_of_scope: { status: 403, title: "Outside the key's scopes", explanation: "The platform key may not run this operation: its scopes do not include it." },
  business_key_required: {
    status: 403,
    title: "A business's own key is needed",
    explanation:
      "The events feed, a business's webhook endpoints and asking for refunds are its own integration's: a platform key may not use them, whatever its scopes.",
  },
  key_maker_not_allowed: {
    status: 403,
    title: "The key's maker may not ask for refunds",
    explanation:
      "A refund asked through the API is asked in the name of the person who made the key, and an administrator other than them approves it. That person must still be an active member of the business whose role may ask for refunds: make a new key (Settings → Developers) as such a person.",
  },
  test_key_for_live_data: {
    status: 403,
    title: "A test key of live data",
    explanation:
      "pp_test_ keys act only for a business's test data (Settings → Developers in Test mode). This pp_test_ key was made before test mode existed, when development deployments made pp_test_ keys for live data: make a new key, a pp_live_ key for live data or a pp_test_ key in Test mode.",
  },
  not_your_business: {
    status: 403,
    title: "A business's key named another business",
    explanation: "A business's own key acts for its business only: leave PP-Business out, or name the key's own business.",
  },
  business_suspended: {
    status: 403,
    title: "The business is suspended",
    explanation: "The platform suspended this business: its own keys are refused until it is reactivated.",
  },
  business_closed: { status: 403, title: "The business is closed", explanation: "The business was closed: the API takes nothing more for it." },
  endpoint_not_found: { status: 404, title: "No such endpoint", explanation: "The path is not one of the API's. The OpenAPI document lists them all." },
  business_not_found: { status: 404, title: "No such business", explanation: "The business named in PP-Business is not one the platform holds." },
  payment_not_found: {
    status: 404,
    title: "No such payment",
    explanation: "No payment with that reference in this business. Another business's payment is answered the same way.",
  },
  terminal_not_found: {
    status: 404,
    title: "No such terminal",
    explanation: "No terminal with that serial in this business. Another business's terminal is answered the same way.",
  },
  event_not_found: {
    status: 404,
    title: "No such event",
    explanation: "No event with that id in this business in the feed's 30 days. Another business's event is answered the same way.",
  },
  webhook_endpoint_not_found: {
    status: 404,
    title: "No such webhook endpoint",
    explanation: "No webhook endpoint with that id in this business. Another business's endpoint is answered the same way.",
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: "The webhook endpoint is disabled",
    explanation: "Enable the endpoint (Settings → Developers) before sending deliveries to it again.",
  },
  dispute_not_found: {
    status: 404,
    title: "No such dispute",
    explanation: "No dispute with that id in this business. Another business's dispute is answered the same way.",
  },
  refund_not_found: {
    status: 404,
    title: "No such refund",
    explanation: "No refund with that id in this business. Another business's refund is answered the same way.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    explanation: "The path exists but not with this method: the Allow header lists the ones it takes.",
  },
  idempotency_key_reused: {
    status: 409,
    title: "Idempotency-Key used for another request",
    explanation: "The Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.",
  },
  dispute_already_closed: {
    status: 409,
    title: "The dispute is already closed",
    explanation: "The dispute was closed with another outcome; it cannot be closed again.",
  },
  dispute_not_answerable: {
    status: 409,
    title: "The dispute takes no more evidence",
    explanation:
      "The business already submitted its response, the dispute is closed, or its evidence due date has passed: as on the dispute's page, no file can be attached.",
  },
  reference_conflict: {
    status: 409,
    title: "Another payment holds this reference",
    explanation:
      "Answered 202 and then not applied: the portal already holds a payment with this reference and other content (or one that did not come through the API). The payment held is unchanged. A reference names one payment: send a new payment under a new reference. Listed at GET /api/v1/rejections.",
  },
  reversal_conflict: {
    status: 409,
    title: "The reversal does not fit its payment",
    explanation:
      "Answered 202 and then not applied: the payment was already reversed with another reason or time, it failed (no money moved), or it was refunded or disputed. Listed at GET /api/v1/rejections.",
  },
  body_too_large: {
    status: 413,
    title: "The body is too large",
    explanation: "Send at most 100 payments a request (256 KB); an evidence file is at most 10 MB.",
  },
  unsupported_media_type: {
    status: 415,
    title: "Send JSON",
    explanation: "Send the body with Content-Type: application/json (an evidence file: multipart/form-data).",
  },
  rate_limited: {
    status: 429,
    title: "Too many requests",
    explanation: "The key sent more requests in the window than its limit. Wait the seconds in Retry-After (or the RateLimit header's t) and send again.",
  },
  internal_error: {
    status: 500,
    title: "Something went wrong on the portal's side",
    explanation: "Nothing of the request was queued or applied. Send it again; if it keeps failing, quote the request_id to support.",
  },
  not_applied: {
    status: 500,
    title: "Accepted, then not applied",
    explanation:
      "Answered 202 and then not applied: a fault on the portal's side, and nothing of the request was applied. The operators are alerted and apply it again once the cause is fixed. Do not send it again under another reference: quote the rejection's id to support. Listed at GET /api/v1/rejections.",
  },
  business_moving: {
    status: 503,
    title: "The business is being moved",
    explanation: "The business's data is moving to another database for a moment. Nothing was kept or queued: send again after Retry-After.",
  },
  misconfigured: {
    status: 503,
    title: "The portal is not configured",
    explanation: "A setting of this deployment is missing or malformed. Nothing was queued; the portal's operators are told.",
  },
} as const satisfies Record<string, { status: number; title: string; explanation: string }>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Where a problem is explained: the API reference page's anchor for its code. */
export const PROBLEM_REFERENCE_PATH = "/developers/api";
export const problemAnchor = (code: ProblemCode) => `problem-${code}`;
export const problemType = (origin: string, code: ProblemCode) => `${origin}${PROBLEM_REFERENCE_PATH}#${problemAnchor(code)}`;

export interface ProblemError {
  path: string;
  message: string;
}

/** A problem answer. `type` is relative until finishProblem makes it absolute with the request's origin. */
export function problemResponse(code: ProblemCode, detail: string, errors?: ProblemError[], headers: Record<string, string> = {}): Response {
  const { status, title } = PROBLEMS[code];
  const body = { type: `${PROBLEM_REFERENCE_PATH}#${problemAnchor(code)}`, title, status, code, detail, message: detail, ...(errors ? { errors } : {}) };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": `${PROBLEM_CONTENT_TYPE}; charset=utf-8`, "Cache-Control": "no-store", ...headers },
  });
}

/** A request that is not valid: every problem with its path. */
export function validationProblem(errors: ProblemError[]): Response {
  return problemResponse("validation_failed", errors.length === 1 ? "The request has 1 problem." : `The request has ${errors.length} problems.`, errors);
}

/** The business's data is moving to another database: nothing was kept or queued, and the same request works shortly. */
export const movingProblem = () => problemResponse("business_moving", MOVING_MESSAGE, undefined, { "Retry-After": "30" });

/** How one operation names the domain's refusals in its request's terms. An error it does not name is the portal's fault. */
export interface DomainRefusals {
  /**
   * A rule of the domain was broken (RuleError, the screen's words): a 400 naming this field of the request (or the
   * field the error names itself, as a refund's amount or reason does), or a problem of its own code.
   */
  rule?: { path: string } | { code: ProblemCode };
  /** The key may not do this (ForbiddenError): a problem of its own code and words. */
  forbidden?: { code: ProblemCode; detail: string };
  /** What the request names is not this business's (NotFoundError): a 400 naming the field. */
  notFound?: { path: string; message: string };
}

/**
 * The API's answer to an error a domain threw while answering a request, or null when it is none of the refusals the
 * operation names: then it is the portal's fault, rethrown (a 500 that says nothing of the request). A business being
 * moved is every operation's 503.
 */
export function problemOfError(error: unknown, refusals: DomainRefusals = {}): Response | null {
  if (isBusinessMoving(error)) return movingProblem();
  const { rule, forbidden, notFound } = refusals;
  if (rule && error instanceof RuleError) {
    if ("code" in rule) return problemResponse(rule.code, error.message);
    const named = "field" in error && typeof error.field === "string" ? error.field : rule.path;
    return validationProblem([{ path: named, message: error.message }]);
  }
  if (forbidden && error instanceof ForbiddenError) return problemResponse(forbidden.code, forbidden.detail);
  if (notFound && error instanceof NotFoundError) return validationProblem([notFound]);
  return null;
}

/** On the way out: the absolute `type` and the request id in the body of a problem (other answers pass untouched). */
export async function finishProblem(response: Response, origin: string, requestId: string | undefined): Promise<Response> {
  if (!(response.headers.get("Content-Type") ?? "").startsWith(PROBLEM_CONTENT_TYPE)) return response;
  const body = await response.json<Record<string, unknown>>();
  const type = typeof body.type === "string" && body.type.startsWith("/") ? `${origin}${body.type}` : body.type;
  // The body grows (the absolute type, the request id): a length said for the old one must not go out with it.
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(JSON.stringify({ ...body, type, ...(requestId ? { request_id: requestId } : {}) }), { status: response.status, headers });
}
