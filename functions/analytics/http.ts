// Small pieces the analytics endpoints share: JSON answers (functions/platform/http.ts) and log lines.

export { jsonResponse, methodNotAllowed, notFound } from "../platform/http";

/** One JSON line per happening, like functions/platform/log.ts, so Workers Logs can filter on fields. */
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
