// Small pieces the analytics endpoints share: JSON answers and log lines.

const NO_STORE = "no-store, max-age=0";

/** A JSON answer that no cache keeps. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": NO_STORE, ...headers } });
}

/** 404 for a path under /api/events that does not exist (SPEC section 2 wording). */
export function notFound(request: Request): Response {
  return jsonResponse({ message: `Page not found: ${new URL(request.url).pathname}` }, 404);
}

/** 405 for GET/HEAD on an endpoint that only takes POST. */
export function methodNotAllowed(): Response {
  return jsonResponse({ message: "Use POST" }, 405, { Allow: "POST" });
}

/** One JSON line per happening, like functions/log.ts, so Workers Logs can filter on fields. */
export function logEvent(level: "info" | "warn" | "error", what: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, event: what, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
