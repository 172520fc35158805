// The one way the portal reads and writes its cookies (session, return URL, flash
// notice, OpenID Connect flow). Every cookie is HttpOnly, SameSite=Lax and Path=/;
// on https it is named `__Host-<name>` and Secure, so no subdomain or plain-http
// page can plant or overwrite it. Browsers refuse `__Host-` without https, so
// http://localhost (development, tests) uses the plain name.

/** The name `base` has on this request's origin: `__Host-pp_session` on https, `pp_session` on http. */
export function cookieName(request: Request, base: string): string {
  return isHttps(request) ? `__Host-${base}` : base;
}

/** The value of the cookie `base` (by its name on this origin), or undefined when the request has none. */
export function readCookie(request: Request, base: string): string | undefined {
  const name = cookieName(request, base);
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

// RFC 6265 cookie-octet: what a value may hold without quoting. Ours are JWTs and JWEs
// (base64url and dots); anything else is a bug that must not reach a header.
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** A Set-Cookie header value that stores `value` under `base` for `maxAgeSeconds`. */
export function serializeCookie(request: Request, base: string, value: string, maxAgeSeconds: number): string {
  if (!COOKIE_VALUE.test(value)) throw new Error(`Cookie ${base}: the value has characters a cookie cannot carry`);
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  return `${cookieName(request, base)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${isHttps(request) ? "; Secure" : ""}`;
}

/** The Set-Cookie header value that removes the cookie `base`. */
export function clearCookie(request: Request, base: string): string {
  return serializeCookie(request, base, "", 0);
}

/** Headers carrying several Set-Cookie values (one header each: they cannot be joined). */
export function setCookieHeaders(cookies: readonly string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/** The response with one more Set-Cookie header (a copy: a fetched response's headers cannot change). */
export function withSetCookie(response: Response, cookie: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.append("Set-Cookie", cookie);
  return copy;
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
