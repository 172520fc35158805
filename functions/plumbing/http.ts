import { data } from "@remix-run/cloudflare";

export interface NotFoundData {
  message: string;
}

/** An unknown route: 404 with the path alone (SPEC section 2). */
export function routeNotFound(request: Request): never {
  throw data<NotFoundData>({ message: `Page not found: ${new URL(request.url).pathname}` }, { status: 404 });
}

/**
 * A known route whose page-level check failed (an id that is not this
 * business's, a page not available here): 404 with the full path and query.
 */
export function pageNotFound(request: Request): never {
  const url = new URL(request.url);
  throw data<NotFoundData>({ message: `Page Not Found: ${url.pathname}${url.search}` }, { status: 404 });
}

// Resource routes (no page of their own) answer in JSON.

const NO_STORE = "no-store, max-age=0";

/** A JSON answer that no cache keeps. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": NO_STORE, ...headers } });
}

/**
 * 403 from a resource route a person opens in the browser (a CSV export's link): the portal's own 403 page as a
 * document (`context.forbiddenDocument`, drawn by the UI from the words the shell's page uses), never the JSON a
 * resource route would otherwise answer.
 */
export function forbiddenPage(context: { forbiddenDocument: (message: string) => string }, message: string): Response {
  return new Response(context.forbiddenDocument(message), {
    status: 403,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** 404 from a resource route (no page to render), in SPEC section 2's words. */
export function notFound(request: Request): Response {
  return jsonResponse({ message: `Page not found: ${new URL(request.url).pathname}` }, 404);
}

/** 405 for GET/HEAD on an endpoint that only takes POST. */
export function methodNotAllowed(): Response {
  return jsonResponse({ message: "Use POST" }, 405, { Allow: "POST" });
}

/** Messages by input name; `form` for what concerns the whole form. */
export type FieldErrors = Record<string, string>;

/**
 * The one answer of an action that refuses what was posted (status 400): the
 * messages by field, what was typed (so the form keeps it) and, on a page with
 * several forms, which one was sent.
 */
export interface Refusal<V = null> {
  intent?: string;
  errors: FieldErrors;
  values: V;
}

export function refuse<V = null>(errors: FieldErrors, values: V = null as V, intent?: string) {
  return data<Refusal<V>>(intent === undefined ? { errors, values } : { intent, errors, values }, { status: 400 });
}

/**
 * A request body's bytes, or null as soon as it passes `max` bytes (the rest is never read, whatever Content-Length
 * said): the Partner API and the analytics ingest refuse an over-size body so.
 */
export async function readBodyUpTo(request: Request, max: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// What a request's body may do at the door, before anything reads it, and after the answer is made.
// - A GET or HEAD carries no meaning in a body (RFC 9110 9.3.1): one sent anyway is dropped and the request answered
//   as without it. Remix copies each request into a new Request, and a GET with a body cannot be made: that threw,
//   and every page answered 500 to it.
// - A body nobody read (a 401 before the body, a 413 on Content-Length, a page that takes no form) is read to its end
//   and dropped before the answer goes. Left in the connection, `wrangler dev`'s proxy answered the next POST, from
//   anyone, 503; cancelling the stream (body.cancel()) was not enough there, reading it is. The platform holds a body
//   to 100 MB, so this is bounded, and it is bytes passed through, not held.

/** Headers that describe a body, dropped with it. */
const BODY_HEADERS = ["Content-Length", "Content-Type", "Content-Encoding", "Transfer-Encoding"];

/** The request as it is answered: a GET or HEAD without its body (the door drains it: discardBody), anything else as it came. */
export function withoutIgnoredBody<R extends Request>(request: R): R {
  if (request.body === null || (request.method !== "GET" && request.method !== "HEAD")) return request;
  const headers = new Headers(request.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  // The same request otherwise, Cloudflare's facts about it (request.cf) included.
  return new Request(request.url, { method: request.method, headers, redirect: request.redirect, signal: request.signal, cf: request.cf }) as unknown as R;
}

/** Reads and drops what is left of a body nobody read. A body being read, or read already, is its reader's. */
export async function discardBody(request: Request): Promise<void> {
  const body = request.body;
  if (body === null || request.bodyUsed || body.locked) return;
  const reader = body.getReader();
  try {
    for (;;) if ((await reader.read()).done) break;
  } catch {
    // The client went away: nothing left to drop.
  }
}
