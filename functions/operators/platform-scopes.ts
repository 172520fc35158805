// What a platform key (the switch's credential, functions/operators/platform-keys.db.ts) may do: its scopes, and the
// scope each Partner API operation needs. Pure, so the router, the OpenAPI document and the platform's keys screen
// read one list. A business's own key has no scopes: it may do everything the API offers for its business.
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

/**
 * The scope each operation of functions/partner-api/router.ts needs, by its route's name. The router indexes it with
 * every route but the public OpenAPI document, so a new route without a scope does not compile. Rejections (requests
 * accepted and then not applied) are read with payments: they are what the switch sent, whatever it was. So are the
 * lists of what a payment names or becomes (merchants, points of sale, terminals, settlements, refunds): a payment's own
 * answer already carries its settlement and refunds, and the switch needs the parties to address payments. Disputes
 * are read with disputes.
 */
export const OPERATION_SCOPES = {
  payments: "payments",
  payment: "payments",
  listPayments: "payments",
  merchants: "payments",
  pointsOfSale: "payments",
  terminals: "payments",
  settlements: "payments",
  refunds: "payments",
  refund: "payments",
  rejections: "payments",
  reversal: "reversals",
  waitingReversals: "reversals",
  heartbeat: "heartbeats",
  disputes: "disputes",
  disputeClose: "disputes",
  listDisputes: "disputes",
  dispute: "disputes",
  disputeEvidence: "disputes",
} as const satisfies Record<string, PlatformScope>;
export type ScopedOperation = keyof typeof OPERATION_SCOPES;

/**
 * Operations only a business's own key may run, whatever a platform key's scopes: the business's events feed and its
 * webhook endpoints are its own integration's, not the switch's (a platform key is answered 403 business_key_required).
 * So is asking for a refund: it is asked in the name of the person of the business who made the key (a second person
 * approves it in the portal), and a platform key has no such person.
 */
export const BUSINESS_KEY_OPERATIONS = ["events", "event", "resendFailed", "askRefund"] as const;
export type BusinessKeyOperation = (typeof BUSINESS_KEY_OPERATIONS)[number];
export type ApiOperation = ScopedOperation | BusinessKeyOperation;

export function isBusinessKeyOperation(operation: ApiOperation): operation is BusinessKeyOperation {
  return (BUSINESS_KEY_OPERATIONS as readonly string[]).includes(operation);
}

export function scopeOf(operation: ScopedOperation): PlatformScope {
  return OPERATION_SCOPES[operation];
}

/** Whether a key holding `scopes` may run `operation`. */
export function allows(scopes: readonly PlatformScope[], operation: ScopedOperation): boolean {
  return scopes.includes(scopeOf(operation));
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
