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
