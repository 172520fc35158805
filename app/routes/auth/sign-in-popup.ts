// The message the sign-in popup sends its opener, and the opener's checks on
// it: the exact origin, the very popup it opened, and the shape.
import { isSignInFailure, type SignInFailure } from "#server/auth/sign-in-messages";

export const SIGN_IN_MESSAGE_TYPE = "partners-portal:sign-in";

export type SignInMessage =
  { type: typeof SIGN_IN_MESSAGE_TYPE; ok: true; next: "/authenticate" } | { type: typeof SIGN_IN_MESSAGE_TYPE; ok: false; code: SignInFailure };

/**
 * The sign-in outcome carried by a message event, or null when the event is not
 * one: from another origin (even a look-alike), from a window other than the
 * popup, or not shaped like an outcome.
 */
export function readSignInMessage(event: Pick<MessageEvent, "origin" | "source" | "data">, expected: { origin: string; popup: unknown }): SignInMessage | null {
  if (event.origin !== expected.origin) return null;
  if (expected.popup === null || event.source !== expected.popup) return null;
  const data: unknown = event.data;
  if (typeof data !== "object" || data === null) return null;
  const candidate = data as Record<string, unknown>;
  if (candidate.type !== SIGN_IN_MESSAGE_TYPE) return null;
  if (candidate.ok === true && candidate.next === "/authenticate") return { type: SIGN_IN_MESSAGE_TYPE, ok: true, next: "/authenticate" };
  if (candidate.ok === false && isSignInFailure(candidate.code)) return { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: candidate.code };
  return null;
}
