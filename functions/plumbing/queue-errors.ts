// Which errors of a queue consumer say nothing about the message (decision 028): D1 or the network was busy, and
// the same message will go through later. Everything else is taken to be the message's own (poison) and isolated.
// Worded as D1 and workerd word them
// (D1_ERROR ... "overloaded", "storage operation exceeded timeout", "Network connection lost", SQLITE_BUSY).
const TRANSIENT =
  /\b(?:SQLITE_BUSY|database is locked|overloaded|too many requests|timed? ?out|timeout|network connection lost|connection (?:lost|reset|closed)|internal error|temporarily unavailable|try again|reset because its code was updated|D1 DB is overloaded)\b/i;

/** Whether an error is one of D1 or the network, not of the message (decision 028). */
export function isTransient(error: unknown): boolean {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  const text = error instanceof Error ? `${error.message} ${cause instanceof Error ? cause.message : typeof cause === "string" ? cause : ""}` : String(error);
  return TRANSIENT.test(text);
}
