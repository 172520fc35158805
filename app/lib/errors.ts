import { isEmpty } from "#app/lib/forms/validation";

export const DEFAULT_ERROR_MESSAGE = "Action Failed. Please check connectivity and try again";

function messageAt(value: unknown, path: readonly string[]): string | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  // A blank message would show an empty alert: treat it as none.
  return typeof current === "string" && current.trim() !== "" ? current : undefined;
}

/**
 * The message of the generic error handler (SPEC section 8): the error's
 * data.message, then its response.data.message, then its own message, then
 * the fallback. Undefined when none has one.
 */
export function errorMessage(error: unknown, fallback?: string): string | undefined {
  return (
    messageAt(error, ["data", "message"]) ??
    messageAt(error, ["response", "data", "message"]) ??
    messageAt(error, ["message"]) ??
    (isEmpty(fallback) || fallback.trim() === "" ? undefined : fallback)
  );
}

/** What browsers say when fetch got no answer: Chromium, Firefox, Safari, and Node's fetch. */
const NO_ANSWER = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed|fetch failed)$/;

/**
 * Whether fetch got no answer at all (offline, reset, DNS): a TypeError with the
 * browser's words for it. A server error is an answer, and a TypeError from a
 * bug in the page ("Cannot read properties of undefined") is not this.
 */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && NO_ANSWER.test(error.message);
}
