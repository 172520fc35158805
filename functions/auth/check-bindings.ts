// What a fresh check is for (docs/decisions/027-fresh-checks.md): a binding names the action and exactly what it acts
// on, so a check made for one request, amount or key never allows another; and the words the person reads for it.
import * as v from "valibot";
import { DEFAULT_PAGE_SIZE } from "../lists/page";
import { sha256Hex } from "../plumbing/sha256";

/** What a check is for: the action and exactly what it acts on, so a check made for one request never allows another. */
export const checkBindings = {
  decision: (requestId: string) => `decide:${requestId}`,
  /**
   * Several chosen requests decided at once from the queue: one check for exactly that set, approve or reject alike (as
   * for one request), bound to the hash of its ids (batchBinding); the ids travel beside it, named in the dialog.
   */
  decisions: (fingerprint: string) => `decide:batch:${fingerprint}`,
  transfer: (fromMerchantId: string, toKind: string, toId: string, amount: number) => `transfer:${fromMerchantId}:${toKind}:${toId}:${amount}`,
  refund: (transactionId: number, amount: number) => `refund:${transactionId}:${amount}`,
  /** Starting the business's settlement run now: it moves every merchant's cleared money towards its account (a money decision). */
  settlementRun: () => "settlement:run",
  apiKey: (action: "create" | "roll", subject: string) => `api-key:${action}:${subject}`,
  /**
   * Everything that decides where a business's signed data goes: making an endpoint, changing its URL or
   * event types (`edit`, bound to the endpoint and the hash of the new URL and types), enabling it again, rolling or
   * revealing its secret, and sending a delivery again (`resend`, bound to the delivery).
   */
  endpoint: (action: "create" | "edit" | "enable" | "roll" | "reveal" | "resend" | "resend-failed", subject: string) => `endpoint:${action}:${subject}`,
  /** A new passkey passes every later check: adding one needs a check by what the person already has. */
  addPasskey: () => "passkey:add",
  /** A new phone is a new way to sign in: asking for its code needs a check by what the person already has (decision 029). */
  addPhone: (msisdn: string) => `phone:add:${msisdn}`,
  /** An authenticator app passes every later check, as a passkey does: setting one up or removing it needs a check (decision 049). */
  addAuthenticator: () => "totp:add",
  removeAuthenticator: () => "totp:remove",
  /**
   * The code sent to the new phone itself: only functions/auth/phones.ts makes these (BINDING_PATTERN leaves them out,
   * so /auth/check can never send one to the person's old phone), and the number is in the binding.
   */
  provePhone: (msisdn: string) => `prove-phone:${msisdn}`,
  /** Platform staff deciding a platform request (onboarding, suspending, running a job now...). */
  platformDecision: (requestId: string) => `platform:decide:${requestId}`,
  /** Platform staff making, rolling or revoking the switch's platform key. */
  platformKey: (action: "create" | "roll" | "revoke", subject: string) => `platform:key:${action}:${subject}`,
} as const;

/**
 * The request a decision's binding names, so the check endpoint can ask whether the person may decide it before any
 * code is sent: one business request, a bulk decision (its ids come beside the binding, which is their hash: see
 * batchBinding), or a platform request; null for a binding that decides nothing.
 */
export function decisionOf(binding: string): { family: "business" | "platform"; requestId: string } | { family: "batch" } | null {
  if (binding.startsWith("decide:batch:")) return { family: "batch" };
  if (binding.startsWith("decide:")) return { family: "business", requestId: binding.slice("decide:".length) };
  if (binding.startsWith("platform:decide:")) return { family: "platform", requestId: binding.slice("platform:decide:".length) };
  return null;
}

/** A platform binding's check is made by platform staff, on the platform (the check endpoint's guard follows it). */
export function isPlatformBinding(binding: string): boolean {
  return binding.startsWith("platform:");
}

/** Free text a check is bound to (a key's name, an endpoint's URL), as a short hash: bindings stay short and plain. */
export async function fingerprintOf(text: string): Promise<string> {
  return (await sha256Hex(text.trim())).slice(0, 32);
}

/**
 * How many chosen requests one check covers at most: a page of the queue (25),
 * what a checker sees and ticks at once. The dialog names every one before the person confirms, so what a check allows
 * stays a list they have in front of them, never the whole queue.
 */
export const MOST_IN_ONE_CHECK = DEFAULT_PAGE_SIZE;

/** What a person reads when they chose more requests than one check covers. */
export const TOO_MANY_CHOSEN = `Choose at most ${MOST_IN_ONE_CHECK} requests at a time: one check covers up to ${MOST_IN_ONE_CHECK}.`;

/** A bulk decision's chosen requests, as the queue's form sends them and the check endpoint takes them. */
export const ChosenIds = v.pipe(
  v.array(v.pipe(v.string(), v.regex(/^[\w-]{1,80}$/, "Choose requests from the list."))),
  v.minLength(1, "Choose at least one request."),
  v.maxLength(MOST_IN_ONE_CHECK, TOO_MANY_CHOSEN),
);

/** The ids of a bulk decision as one set: each once, in one order, so the same choice makes the same binding. */
export function batchIds(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

/**
 * The binding of a check that covers exactly these requests: the hash of their ids (as a set), so a check made for
 * one choice never decides another, a part of it or more than it. The ids themselves would not fit the
 * 300 characters a binding is stored in (a request id may be 80), so they go beside it and are checked against it.
 */
export async function batchBinding(ids: readonly string[]): Promise<string> {
  return checkBindings.decisions(await fingerprintOf(batchIds(ids).join(",")));
}

/** What the person reads in the check dialog and the code's text message, by the binding's first words. */
const PURPOSES: Record<string, string> = {
  decide: "decide this request",
  "decide:batch": "decide the requests you chose",
  transfer: "ask for this transfer",
  refund: "ask for this refund",
  "settlement:run": "run the settlement now",
  "api-key:create": "make an API key",
  "api-key:roll": "roll an API key",
  "endpoint:create": "add a webhook endpoint",
  "endpoint:edit": "change a webhook endpoint",
  "endpoint:enable": "enable a webhook endpoint",
  "endpoint:resend": "send a delivery again",
  "endpoint:resend-failed": "send failed deliveries again",
  "endpoint:roll": "roll a webhook secret",
  "endpoint:reveal": "see a webhook secret",
  "passkey:add": "add a passkey",
  "phone:add": "add a phone number",
  "totp:add": "set up an authenticator app",
  "totp:remove": "remove your authenticator app",
  "prove-phone": "link this phone number to your account",
  "platform:decide": "decide this platform request",
  "platform:key": "manage a platform key",
};

export function purposeOf(binding: string): string {
  const [first = "", second = ""] = binding.split(":");
  return PURPOSES[`${first}:${second}`] ?? PURPOSES[first] ?? "go on";
}

/** A binding as the check endpoint takes it: one of the shapes above, nothing else. */
// Not prove-phone: that code goes to the phone being added, never to the one the person already has.
export const BINDING_PATTERN = /^(decide|transfer|refund|settlement|api-key|endpoint|passkey|phone|totp|platform):[^\s]{1,280}$/;
