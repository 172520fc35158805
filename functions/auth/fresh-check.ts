// A fresh check before what matters (docs/decisions/027-fresh-checks.md). Deciding any approval
// request, asking for a transfer or a refund, and making or rolling API keys and webhook endpoints need a check made
// within the last 5 minutes, in this session, for exactly that action: a passkey (functions/auth/passkeys.ts), or
// else a one-time code by SMS (under the rules of every code: functions/auth/one-time-codes.ts). The action uses the
// check up (once) just before it writes; without one it answers 428 with what the page needs to ask for one
// (app/components/forms/fresh-check.tsx), and the page sends the form again after.
// A business may require passkeys for every decision (business_policies, changed through an approval request).
// Each check made, each code sent or refused, and each check used is in the audit log.
import { data } from "@remix-run/cloudflare";
import { signInAuditStatement, ifChangedAuditStatement } from "../audit/audit.db";
import {
  getSecurityPolicy,
  insertFreshCheckStatement,
  giveBackFreshCheck,
  openFreshCheck,
  spendFreshCheckStatement,
  type CheckMethod,
  type CheckOwner,
} from "./fresh-checks.db";
import { isLinkedNumber } from "../team/people.db";
import type { Tenant } from "../tenancy/tenant";
import { iso, type AuthDeps } from "./deps";
import type { VerifiedSession } from "./guards";
import type { TenantRequest } from "../guards";
import { CODE_MESSAGES, codesLeft, SEND_BUDGETS, sendCode, verifyCode, type CodePhone, type CodePurpose } from "./one-time-codes";
import type { SessionData } from "./session";
import type { SmsPort } from "../sms/sms";
import { sha256Hex } from "../plumbing/sha256";

/** How long a check stands: NIST SP 800-63B's re-authentication for a sensitive action, kept short. */
export const FRESH_CHECK_MS = 5 * 60_000;

/** What a check is for: the action and exactly what it acts on, so a check made for one request never allows another. */
export const checkBindings = {
  decision: (requestId: string) => `decide:${requestId}`,
  /** Several requests decided at once from the queue: one check for the batch, bound to the hash of the decision and the ids. */
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
 * code is sent: one business request, a bulk decision (its ids are hashed, so only who decides can be asked), or a
 * platform request; null for a binding that decides nothing.
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

export interface CheckNeeded {
  binding: string;
  purpose: string;
  /** Only a passkey does (the business's policy for decisions). */
  passkeyOnly: boolean;
  /** What was posted, sent again once the check is made (the page's own fields: nothing it did not have). */
  fields: Record<string, string>;
  /** Where it was posted (path and query, Remix's own `index` and `_data` left out). */
  action: string;
}

const tooManyCodes = (minutes: number) => `Too many codes were sent. Try again in ${minutes} minutes.`;

export const CHECK_MESSAGES = {
  ...CODE_MESSAGES,
  noPhone: "No phone number is linked to your account: add a passkey in Settings → Security.",
  noPasskey: "You have no passkey yet: add one in Settings → Security, or use a code.",
  noSms: "Text messages cannot be sent right now. Use your passkey, or try again later.",
  // One sentence for both windows: in the middle of an action, which one is full changes nothing the person can do.
  phoneLimit: tooManyCodes,
  accountLimit: tooManyCodes,
  lockedOut: (minutes: number) => `Too many wrong codes. Checks by code are locked for ${minutes} minutes.`,
  passkeyOnly: "This business asks for a passkey for every decision: a code does not do.",
  ended: "Your session has ended. Sign in again.",
} as const;

/** The codes a check may still send this hour, and how many it has: what the dialog says, and a refusal's numbers. */
export interface CodesLeft {
  left: number;
  perHour: number;
}

export type CheckRefused = { ok: false; message: string; retryAfterSeconds?: number; codes?: CodesLeft };

function ownerOf(session: Pick<SessionData, "sid" | "sub">, businessId: string): CheckOwner {
  return { businessId, sessionId: session.sid, userId: session.sub };
}

/**
 * The owner of the platform staff's checks (decision 039): what fresh_checks stores in place of a business. Their
 * checks, codes and uses are audited on the platform's chain (the core database's entries of no business).
 */
export const PLATFORM_CHECKS = "platform";

/** The business whose audit chain a check's entries join: the platform's checks join none (the core's own chain). */
function auditedIn(owner: string): string | null {
  return owner === PLATFORM_CHECKS ? null : owner;
}

/** Who a check is for and what it asks: a business's person in their business, or platform staff on the platform. */
export interface CheckFor {
  deps: AuthDeps;
  session: VerifiedSession;
  /** The business, or PLATFORM_CHECKS. */
  owner: string;
  passkeyOnly: (binding: string) => Promise<boolean>;
}

export const tenantCheck = ({ deps, session, tenant }: TenantRequest): CheckFor => ({
  deps,
  session,
  owner: tenant.businessId,
  passkeyOnly: (binding) => passkeyOnlyFor(tenant, binding),
});

/** A platform staff member's checks: the same rules, owned by the platform. */
export function platformCheck(signedIn: { deps: AuthDeps; session: VerifiedSession }): CheckFor {
  // The platform's policy is the deployment's (PLATFORM_DECISIONS_NEED_PASSKEY): its staff cannot change it from a page.
  const decisionsNeedPasskey = signedIn.deps.config.platformDecisionsNeedPasskey;
  return {
    deps: signedIn.deps,
    session: signedIn.session,
    owner: PLATFORM_CHECKS,
    passkeyOnly: (binding) => Promise.resolve(decisionsNeedPasskey && binding.startsWith("platform:decide:")),
  };
}

/** Whether only a passkey does for this binding in this business. */
export async function passkeyOnlyFor(tenant: Tenant, binding: string): Promise<boolean> {
  return binding.startsWith("decide:") && (await getSecurityPolicy(tenant)).decisionsNeedPasskey;
}

/**
 * Uses up this session's fresh check for the binding: its id when there was one (the action goes on), else what the
 * page needs to ask for one. Call it after the form is read and checked, right before the action writes.
 */
async function spendCheckOrAsk(
  request: Request,
  { deps, session, owner: ownerId, passkeyOnly: needsPasskey }: CheckFor,
  binding: string,
  fields: Record<string, unknown>,
): Promise<{ checkId: string } | { needed: CheckNeeded }> {
  const passkeyOnly = await needsPasskey(binding);
  const now = iso(deps.now());
  const owner = ownerOf(session, ownerId);
  const used = await spendFreshCheckStatement(deps.db, owner, binding, now, passkeyOnly).first<{ id: string; method: CheckMethod }>();
  if (used) return { checkId: used.id };
  const posted: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (typeof value === "string" && name !== "submission") posted[name] = value;
  const url = new URL(request.url);
  for (const name of ["index", "_data"]) url.searchParams.delete(name);
  return { needed: { binding, purpose: purposeOf(binding), passkeyOnly, fields: posted, action: `${url.pathname.replace(/\.data$/, "")}${url.search}` } };
}

/** An action's answer that refused (a 4xx or 5xx returned rather than thrown). */
function refusedAnswer(answer: unknown): boolean {
  if (answer instanceof Response) return answer.status >= 400;
  const init = (answer as { init?: { status?: number } | null } | null)?.init;
  return typeof init?.status === "number" && init.status >= 400;
}

/**
 * Runs `act` under a fresh check for `binding`: without one, the 428 that asks for it and `act` does not run. A check
 * is used up by the action it allowed; if the action is refused (a rule of the business, a field), the check is given
 * back, so the person corrects the form without checking again. A thrown redirect is the action done.
 */
export function underFreshCheck<T>(
  request: Request,
  signedIn: TenantRequest,
  binding: string,
  fields: Record<string, unknown>,
  act: () => Promise<T>,
): Promise<T | ReturnType<typeof checkNeeded>> {
  return underCheck(request, tenantCheck(signedIn), binding, fields, act);
}

/** underFreshCheck for platform staff (functions/operators/guards.ts): the same check, owned by the platform. */
export function underPlatformCheck<T>(
  request: Request,
  signedIn: { deps: AuthDeps; session: VerifiedSession },
  binding: string,
  fields: Record<string, unknown>,
  act: () => Promise<T>,
): Promise<T | ReturnType<typeof checkNeeded>> {
  return underCheck(request, platformCheck(signedIn), binding, fields, act);
}

async function underCheck<T>(
  request: Request,
  signedIn: CheckFor,
  binding: string,
  fields: Record<string, unknown>,
  act: () => Promise<T>,
): Promise<T | ReturnType<typeof checkNeeded>> {
  const spent = await spendCheckOrAsk(request, signedIn, binding, fields);
  if ("needed" in spent) return checkNeeded(spent.needed);
  const { deps, owner, session } = signedIn;
  const giveBack = () => giveBackFreshCheck(deps.db, spent.checkId, owner);
  // The audit says which check allowed which action, once the action is done.
  const audited = () =>
    signInAuditStatement(
      { userId: session.sub, businessId: auditedIn(owner) },
      deps.db,
      deps.meta,
      { action: "auth.check.used", entity: "fresh_check", entityId: spent.checkId, after: { binding } },
      iso(deps.now()),
    ).run();
  try {
    const answer = await act();
    await (refusedAnswer(answer) ? giveBack() : audited());
    return answer;
  } catch (error) {
    await (error instanceof Response && error.status >= 300 && error.status < 400 ? audited() : giveBack());
    throw error;
  }
}

/**
 * For the JSON endpoints that are not forms (adding a passkey): whether the session holds an open check for the
 * binding, without using it (asked before the authenticator is), and using it up once the action is about to run.
 */
export async function hasOpenCheck(deps: AuthDeps, session: SessionData, binding: string): Promise<boolean> {
  if (!session.activeBusiness) return false;
  return (await openFreshCheck(deps.db, ownerOf(session, session.activeBusiness), binding, iso(deps.now()))) !== null;
}

/** Uses up the session's open check for the binding: its id, or null when there is none. */
export async function spendOpenCheck(deps: AuthDeps, session: SessionData, binding: string): Promise<string | null> {
  if (!session.activeBusiness) return null;
  const spent = await spendFreshCheckStatement(deps.db, ownerOf(session, session.activeBusiness), binding, iso(deps.now()), false).first<{ id: string }>();
  return spent?.id ?? null;
}

/** Gives a check back when the action it was used for did not happen. */
export async function giveBackCheck(deps: AuthDeps, session: SessionData, checkId: string): Promise<void> {
  if (session.activeBusiness) await giveBackFreshCheck(deps.db, checkId, session.activeBusiness);
}

/** What a JSON endpoint answers (428) when a check is needed first: the page's dialog makes it, then the page tries again. */
export function checkNeededJson(binding: string): Response {
  const check: CheckNeeded = { binding, purpose: purposeOf(binding), passkeyOnly: false, fields: {}, action: "" };
  return Response.json({ check, message: `Confirm it is you to ${purposeOf(binding)}.` }, { status: 428, headers: { "Cache-Control": "no-store" } });
}

/** The answer of an action that needs a check first: 428 (never kept by the form-sent-once store, so the resend runs). */
export function checkNeeded(needed: CheckNeeded) {
  return data({ check: needed }, { status: 428 });
}

/** Records a check made (by a passkey verified, or a code consumed in the same batch), audited; for the caller's batch. */
export function freshCheckStatements(
  deps: AuthDeps,
  session: Pick<SessionData, "sid" | "sub">,
  businessId: string,
  binding: string,
  method: CheckMethod,
  proofId: string,
  ifPreviousChanged = false,
): D1PreparedStatement[] {
  const now = deps.now();
  const id = crypto.randomUUID();
  return [
    insertFreshCheckStatement(
      deps.db,
      {
        id,
        businessId,
        sessionId: session.sid,
        userId: session.sub,
        binding,
        method,
        proofId,
        createdAt: iso(now),
        expiresAt: iso(now + FRESH_CHECK_MS),
      },
      ifPreviousChanged,
    ),
    ifChangedAuditStatement(
      { userId: session.sub, businessId: auditedIn(businessId) },
      deps.db,
      deps.meta,
      { action: "auth.check.passed", entity: "fresh_check", entityId: id, after: { binding, method } },
      iso(now),
    ),
  ];
}

/** The number a check code goes to: the one the person signed in with, else their first linked number. */
export async function checkPhone(deps: AuthDeps, session: SessionData): Promise<string | null> {
  const msisdn = session.selectedPhoneNumber ?? session.linkedNumbers[0] ?? null;
  if (!msisdn || !(await isLinkedNumber(deps.db, session.sub, msisdn))) return null;
  return msisdn;
}

/**
 * Codes for a check, and for a new phone's proof: each names the action it is for (a code sent for one never checks
 * another), asked for in a business. A check's codes come from a budget of their own (SEND_BUDGETS.check), apart from
 * sign-in's; their wrong codes count with every other purpose's.
 */
export const CHECK_CODES: CodePurpose = {
  stage: "business_chosen",
  budget: SEND_BUDGETS.check,
  audit: { sent: "auth.check.code_sent", sendFailed: "auth.check.code_send_failed", failure: "auth.check.code_failure", lockout: "auth.check.code_lockout" },
  messages: CHECK_MESSAGES,
  smsBody: (code, binding) => `Your Partners Portal code to ${purposeOf(binding ?? "")} is ${code}. It expires in 5 minutes. Never share it.`,
};

const askerOf = (session: VerifiedSession, owner: string) => ({ sessionId: session.sid, userId: session.sub, businessId: auditedIn(owner) });

/**
 * A phone's proof goes to a number that is not the person's yet: it keeps sign-in's tight budget per number, so no
 * account can text a stranger's phone a check's 30 times an hour.
 */
const budgetOf = (binding: string) => (binding.startsWith("prove-phone:") ? SEND_BUDGETS.signIn : SEND_BUDGETS.check);

/** A business's checks are asked for in the business; the platform's in whichever stage the staff member's session is. */
const codesFor = (session: VerifiedSession, owner: string, binding: string): CodePurpose => ({
  ...CHECK_CODES,
  budget: budgetOf(binding),
  stage: owner === PLATFORM_CHECKS ? session.stage : CHECK_CODES.stage,
});

/** The codes a check for `binding` may still send this hour to `msisdn` (the dialog says it before one is asked for). */
export function checkCodesLeft(deps: AuthDeps, session: VerifiedSession, binding: string, msisdn: string): Promise<CodesLeft> {
  return codesLeft(deps, budgetOf(binding), session.sub, msisdn);
}

/** Sends a code for a check, bound to `binding`. */
export async function sendCheckCode(
  deps: AuthDeps,
  session: VerifiedSession,
  businessId: string,
  binding: string,
  phone: CodePhone,
  sms: SmsPort | null,
): Promise<{ ok: true; resendAfterSeconds: number; codes: CodesLeft } | CheckRefused> {
  const sent = await sendCode(deps, codesFor(session, businessId, binding), askerOf(session, businessId), phone, binding, sms);
  if (sent.ok) return { ok: true, resendAfterSeconds: sent.resendAfterSeconds, codes: await checkCodesLeft(deps, session, binding, phone.msisdn) };
  // The budget's numbers go with its refusal, so the dialog says how many a check has and that none are left.
  if (sent.reason === "phoneLimit" || sent.reason === "accountLimit") return { ...sent, codes: await checkCodesLeft(deps, session, binding, phone.msisdn) };
  return sent;
}

/** Checks a typed code against the session's newest code for this binding; a right one makes the check (one batch). */
export async function verifyCheckCode(
  deps: AuthDeps,
  session: VerifiedSession,
  businessId: string,
  binding: string,
  typed: string,
): Promise<{ ok: true } | CheckRefused> {
  const checked = await verifyCode(deps, codesFor(session, businessId, binding), askerOf(session, businessId), binding, typed, (code) =>
    // Only if this request consumed the code (two requests with the right code: one check).
    freshCheckStatements(deps, session, businessId, binding, "sms", code.id, true),
  );
  return checked.ok ? { ok: true } : checked;
}
