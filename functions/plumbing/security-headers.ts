// Headers every response carries, and the CSP every HTML document carries.
// Remix's inline scripts run only with the per-request nonce.

export function contentSecurityPolicy(nonce: string, signInOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    ["form-action 'self'", ...signInOrigins].join(" "),
    "frame-ancestors 'none'",
  ].join("; ");
}

function isLocalhost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname.endsWith(".localhost");
}

/** Returns a response with the security headers set (a copy when the original is immutable). */
export function withSecurityHeaders(response: Response, request: Request, nonce: string, requestId: string, signInOrigins: readonly string[] = []): Response {
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  headers.set("X-Content-Type-Options", "nosniff");
  // A page may only tighten this (the sign-in callback's URL carries the authorization code).
  if (headers.get("Referrer-Policy") !== "no-referrer") headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  // A page may lower this for itself (the sign-in popup's callback must keep its opener).
  if (!headers.has("Cross-Origin-Opener-Policy")) headers.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  headers.set("X-Request-Id", requestId);
  if (!isLocalhost(new URL(request.url).hostname)) {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  // A document that sandboxes itself (the dev outbox's email view: no script at all) keeps its own, stricter policy.
  if (headers.get("Content-Type")?.startsWith("text/html") && !/^sandbox;/.test(headers.get("Content-Security-Policy") ?? "")) {
    headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, signInOrigins));
  }
  return secured;
}
