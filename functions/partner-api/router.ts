// The Partner API, /api/v1/...: JSON in and out, a Bearer API key
// per business (or the switch's platform key naming the business in PP-Business: ./credential.ts),
// answered by the Worker before Remix (no session, no cookies, no
// pages). A request is checked at the door (card numbers, the route, key, version, rate) and then answered by its
// operation's handler (./operations.ts, the one table the routes, the scopes and the OpenAPI document are built from).
// Docs: docs/partner-api.md.
import { countRequest, type RateLimit } from "../plumbing/rate-limit";
import { cardNumberPlaces } from "../card-numbers/card-numbers";
import { authenticate } from "./credential";
import { openApiDocument } from "./openapi";
import { OPERATIONS } from "./operations";
import type { Operation } from "./operation";
import { cardNumberRefusal, problem, type ApiDeps } from "./request";
import { finishProblem, problemOfError } from "./problems";
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER, versionOf, type ApiVersion } from "./versions";

export type { ApiDeps };

interface Route {
  method: string;
  pattern: RegExp;
  /** The names of the path's parameters, in order. */
  params: string[];
  /** The operation answering it; null for the public OpenAPI document. */
  operation: Operation | null;
}

/** An operation's path as a pattern: each {parameter} one segment, a trailing slash allowed. */
function routeOf(operation: Operation): Route {
  const params = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return { method: operation.method, pattern: new RegExp(`^${operation.path.replace(/\{\w+\}/g, "([^/]+)")}/?$`), params, operation };
}

export const ROUTES: Route[] = [
  // The description is public: a processor's developer reads it before having a key.
  { method: "GET", pattern: /^\/api\/v1\/openapi\.json$/, params: [], operation: null },
  ...OPERATIONS.map(routeOf),
];

/** A path taken with several methods says them writes first ("POST, GET"). */
const methodOrder = (method: string) => (method === "POST" ? 0 : 1);

function match(request: Request): { route: Route; params: Record<string, string> } | Response {
  const path = new URL(request.url).pathname;
  const candidates = ROUTES.filter((r) => r.pattern.test(path));
  if (candidates.length === 0) return problem("endpoint_not_found", `No such endpoint: ${path}`);
  const found = candidates.find((r) => r.method === request.method || (r.method === "GET" && request.method === "HEAD"));
  if (!found) {
    const methods = candidates.map((r) => r.method).sort((a, b) => methodOrder(a) - methodOrder(b));
    return problem("method_not_allowed", `Use ${methods.join(" or ")} for ${path}`, undefined, { Allow: methods.join(", ") });
  }
  try {
    const values = found.pattern.exec(path)!.slice(1);
    return { route: found, params: Object.fromEntries(found.params.map((name, i) => [name, decodeURIComponent(values[i]!)])) };
  } catch {
    return problem("endpoint_not_found", `No such endpoint: ${path}`);
  }
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
    const refused = problemOfError(error);
    if (!refused) throw error;
    response = refused;
  }
  // A request refused before its body was read (no key, a suspended business): the Worker's door drains the body
  // (functions/plumbing/http.ts), so the connection is left clean for the next request.
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
  const found = match(request);
  if (found instanceof Response) return found;
  const { operation } = found.route;
  if (operation === null) {
    // Its request examples are dated from now, so each runs as it is (functions/partner-api/openapi-parts.ts examplesAt).
    return Response.json(openApiDocument(new URL(request.url).origin, { rateLimitPerMinute: deps.rateLimitPerMinute, now: deps.now() }), {
      headers: { "Cache-Control": "public, max-age=300" },
    });
  }

  // Which key, for which business (a platform key names it in PP-Business), and whether it may run this operation.
  const credential = await authenticate(request, deps, operation.access);
  if (credential instanceof Response) return credential;
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
  return operation.handler(request, { deps, credential, version, params: found.params });
}
