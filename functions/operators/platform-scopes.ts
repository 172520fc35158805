// What a platform key (the switch's credential, functions/operators/platform-keys.db.ts) may do: its scopes. The scope
// each Partner API operation needs is in its row of functions/partner-api/operations.ts; the platform's keys screen and
// the OpenAPI document read the scopes from here. A business's own key has no scopes: it may do everything the API
// offers for its business.
import * as v from "valibot";

export const PLATFORM_SCOPES = ["payments", "reversals", "heartbeats", "disputes"] as const;
export type PlatformScope = (typeof PLATFORM_SCOPES)[number];

/** What each scope lets the switch do, in the words the keys screen and the OpenAPI document use. */
export const SCOPE_WORDS: Record<PlatformScope, string> = {
  payments:
    "Send payments and read them; list the business's merchants, points of sale, terminals, settlements and refunds, and what was accepted but not applied",
  reversals: "Reverse payments and list reversals waiting for their payment",
  heartbeats: "Send terminals' heartbeats",
  disputes: "Open, close, list and read disputes, and attach evidence to them",
};

/** Whether a key holding `scopes` may run an operation that needs `scope` (functions/partner-api/operations.ts). */
export function allows(scopes: readonly PlatformScope[], scope: PlatformScope): boolean {
  return scopes.includes(scope);
}

/** Scopes as a form or the database gives them: at least one, each known, each once, in PLATFORM_SCOPES's order. */
export const PlatformScopes = v.pipe(
  v.array(v.picklist(PLATFORM_SCOPES, "Choose scopes from the list.")),
  v.minLength(1, "Choose at least one scope."),
  v.transform((scopes) => PLATFORM_SCOPES.filter((scope) => scopes.includes(scope))),
);

/** The stored JSON array, read back; anything unknown in it is dropped rather than granted. */
export function scopesOf(json: string): PlatformScope[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  return Array.isArray(value) ? PLATFORM_SCOPES.filter((scope) => value.includes(scope)) : [];
}
