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
