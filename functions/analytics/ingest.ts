// POST /api/events: the browser's analytics queue sends one event at a time.
// Checks, in order (cheapest first, and nothing is enqueued unless all pass):
//   403  not from this site's own pages (Origin / Sec-Fetch-Site)
//   413  a body over 16 KB (by Content-Length, then while reading)
//   429  over 120 events per minute from this client (Retry-After)
//   400  not JSON, or not a valid event: every problem, with its path
//   202  {"accepted": true}: { hash, event, receivedAt } is on the EVENTS queue.
// The same event posted twice is accepted twice; the consumer relays it once.
// The user and business fields are the session's, never the browser's: anyone
// can post an event, so a claimed identity would let one person speak for another.
import { readBodyUpTo } from "../plumbing/http";
import { jsonResponse } from "./http";
import { errorText, logEvent } from "../plumbing/log";
import { isSameOriginRequest } from "../auth/origin";
import { EVENTS_RATE_LIMIT, clientKey, countRequest, dropEndedWindows } from "../plumbing/rate-limit";
import type { SignedInIdentity } from "../auth/identity";
import { MAX_BODY_BYTES, eventHash, parseIncomingEvent, type AnalyticsEvent, type EventsQueueMessage } from "./schema";

export interface IngestDeps {
  db: D1Database;
  queue: Queue;
  waitUntil(promise: Promise<unknown>): void;
  requestId: string;
  /** Who is signed in, and in which business; null when not fully signed in (the login pages send events too). */
  identity(): Promise<SignedInIdentity | null>;
  /** The session's email when nobody is fully signed in yet (the pages before a business is chosen); null without a session. */
  sessionEmail(): Promise<string | null>;
  now?: number;
}

const tooLarge = () => jsonResponse({ message: `The event is larger than ${MAX_BODY_BYTES / 1024} KB` }, 413);

/** The event with the server's user and business in place of whatever the browser claimed. */
function withIdentity(event: AnalyticsEvent, identity: SignedInIdentity | null, email: string | null): AnalyticsEvent {
  return {
    ...event,
    userEmail: identity?.user.employeeEmail ?? email,
    userName: identity?.user.employeeName ?? null,
    userId: identity?.user.msisdn ?? null,
    userGender: identity?.user.employeeGender ?? null,
    extrasObject: { businessName: identity?.business.businessName ?? null, businessId: identity?.business.businessId ?? null },
  };
}

function badRequest(message: string, issues: { path: string; message: string }[]): Response {
  return jsonResponse({ message, issues }, 400);
}

export async function acceptEvent(request: Request, deps: IngestDeps): Promise<Response> {
  const now = deps.now ?? Date.now();
  if (!isSameOriginRequest(request)) {
    return jsonResponse({ message: "Events are accepted only from this site's own pages" }, 403);
  }
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) return tooLarge();

  const client = clientKey(request.headers.get("CF-Connecting-IP"));
  try {
    const decision = await countRequest(deps.db, EVENTS_RATE_LIMIT, client, now);
    if (!decision.allowed) {
      return jsonResponse({ message: `Too many events: at most 120 a minute. Try again in ${decision.retryAfterSeconds} s.` }, 429, {
        "Retry-After": String(decision.retryAfterSeconds),
      });
    }
    if (decision.newWindow) deps.waitUntil(dropEndedWindows(deps.db, EVENTS_RATE_LIMIT, now).catch(() => undefined));
  } catch (error) {
    // Counting failed (D1 unavailable): accept rather than lose the event.
    logEvent("error", "analytics.rate_limit_failed", { requestId: deps.requestId, error: errorText(error) });
  }

  let text: string;
  try {
    const bytes = await readBodyUpTo(request, MAX_BODY_BYTES);
    if (bytes === null) return tooLarge();
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return badRequest("The body is not valid UTF-8 JSON", [{ path: "body", message: "must be a JSON object in UTF-8" }]);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    return badRequest("The body is not valid JSON", [{ path: "body", message: "must be a JSON object" }]);
  }
  const parsed = parseIncomingEvent(input, now);
  if (!parsed.success) {
    const list = parsed.problems.map((problem) => `${problem.path} ${problem.message}`).join("; ");
    const count = parsed.problems.length;
    return badRequest(`The event is not valid (${count} ${count === 1 ? "problem" : "problems"}): ${list}`, parsed.problems);
  }

  // Looked up only for a valid event: a refused one costs no session read.
  let identity: SignedInIdentity | null = null;
  let email: string | null = null;
  try {
    identity = await deps.identity();
    if (!identity) email = await deps.sessionEmail();
  } catch (error) {
    // Sign-in state unreadable (D1 unavailable): keep the event, as nobody's.
    logEvent("error", "analytics.identity_failed", { requestId: deps.requestId, error: errorText(error) });
  }
  const event = withIdentity(parsed.event, identity, email);
  const message: EventsQueueMessage = { hash: await eventHash(event), event, receivedAt: new Date(now).toISOString() };
  try {
    await deps.queue.send(message, { contentType: "json" });
  } catch (error) {
    logEvent("error", "analytics.enqueue_failed", { requestId: deps.requestId, hash: message.hash, error: errorText(error) });
    return jsonResponse({ message: "Events cannot be accepted right now. Try again later." }, 503, { "Retry-After": "60" });
  }
  return jsonResponse({ accepted: true }, 202);
}
