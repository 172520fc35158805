import { withoutCardNumbers } from "../card-numbers/card-numbers";

// The Worker's one logger: one JSON line per happening, so Workers Logs can filter on fields. A log line is stored,
// and PCI DSS 3.4.1 counts logs (decision 031), so every line is written through the same mask: any text in it (a
// field's value or name, at any depth, a path, a message, a stack) and any number that looks like a card number keeps
// its shape with none of its digits. A caller cannot forget to mask, since no other way to write a line exists.

export type LogLevel = "info" | "warn" | "error";

/** JSON.stringify's replacer: each value is masked before it is written, each object's names with it. */
function masked(_name: string, value: unknown): unknown {
  if (typeof value === "string") return withoutCardNumbers(value);
  if (typeof value === "number" || typeof value === "bigint") {
    const text = String(value);
    const safe = withoutCardNumbers(text);
    return safe === text ? value : safe;
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.some(([name]) => withoutCardNumbers(name) !== name))
      return Object.fromEntries(entries.map(([name, inner]) => [withoutCardNumbers(name), inner]));
  }
  return value;
}

function write(level: LogLevel, line: Record<string, unknown>): void {
  const text = JSON.stringify(line, masked);
  if (level === "error") console.error(text);
  else if (level === "warn") console.warn(text);
  else console.log(text);
}

/** A happening and what to know of it: `fields` are written beside `level` and `event`. */
export function logEvent(level: LogLevel, what: string, fields: Record<string, unknown> = {}): void {
  write(level, { level, event: what, ...fields });
}

/** A request that failed: its method and path, and the error's name, message and stack. */
export function logError(requestId: string, request: Request, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const url = new URL(request.url);
  write("error", { level: "error", requestId, method: request.method, path: url.pathname, name: err.name, message: err.message, stack: err.stack });
}

/** An error as one line of text for a log field, masked as a line is. */
export function errorText(error: unknown): string {
  return withoutCardNumbers(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}
