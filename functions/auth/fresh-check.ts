// A fresh check before what matters (docs/decisions/027-fresh-checks.md). Deciding any approval
// request, asking for a transfer or a refund, and making or rolling API keys and webhook endpoints need a check made
// within the last 5 minutes, in this session, for exactly that action: a passkey (functions/passkeys/), or
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
import { CODE_MESSAGES, codesLeft, SEND_BUDGETS, type CodePhone, type CodePurpose } from "./one-time-codes";
import { sendCode } from "./send-code";
import { verifyCode } from "./verify-code";
import type { SessionData } from "./session";
import type { SmsPort } from "../sms/sms";
import { purposeOf } from "./check-bindings";

/** How long a check stands: NIST SP 800-63B's re-authentication for a sensitive action, kept short. */
export const FRESH_CHECK_MS = 5 * 60_000;

// What a check is for is its own module; the check's rules here are what most callers import it with.
export {
  BINDING_PATTERN,
  batchBinding,
  batchIds,
  checkBindings,
  ChosenIds,
  decisionOf,
  fingerprintOf,
  isPlatformBinding,
  MOST_IN_ONE_CHECK,
  purposeOf,
  TOO_MANY_CHOSEN,
} from "./check-bindings";

export interface CheckNeeded {
  binding: string;
  purpose: string;
  /** Only a passkey does (the business's policy for decisions). */
  passkeyOnly: boolean;
  /** What was posted, sent again once the check is made (the page's own fields: nothing it did not have). */
  fields: Record<string, string>;
  /** Where it was posted (path and query, Remix's own `index` and `_data` left out). */
  action: string;
  /** A bulk decision's requests, which the dialog names and /auth/check checks against the binding (batchBinding). */
  covers?: string[];
}

/** What an action's check is for: its binding, and for a bulk decision the ids that binding is the hash of. */
export type CheckTarget = string | { binding: string; covers: string[] };

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
  target: CheckTarget,
  fields: Record<string, unknown>,
): Promise<{ checkId: string } | { needed: CheckNeeded }> {
  const { binding, covers } = typeof target === "string" ? { binding: target, covers: undefined } : target;
  const passkeyOnly = await needsPasskey(binding);
  const now = iso(deps.now());
  const owner = ownerOf(session, ownerId);
  const used = await spendFreshCheckStatement(deps.db, owner, binding, now, passkeyOnly).first<{ id: string; method: CheckMethod }>();
  if (used) return { checkId: used.id };
  const posted: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (typeof value === "string" && name !== "submission") posted[name] = value;
  const url = new URL(request.url);
  for (const name of ["index", "_data"]) url.searchParams.delete(name);
  const action = `${url.pathname.replace(/\.data$/, "")}${url.search}`;
  return { needed: { binding, purpose: purposeOf(binding), passkeyOnly, fields: posted, action, ...(covers ? { covers } : {}) } };
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
  binding: CheckTarget,
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
  target: CheckTarget,
  fields: Record<string, unknown>,
  act: () => Promise<T>,
): Promise<T | ReturnType<typeof checkNeeded>> {
  const spent = await spendCheckOrAsk(request, signedIn, target, fields);
  const binding = typeof target === "string" ? target : target.binding;
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
  covers?: readonly string[],
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
      // A bulk decision's check names its requests in the audit log: its binding is only their hash.
      { action: "auth.check.passed", entity: "fresh_check", entityId: id, after: { binding, method, ...(covers ? { requests: covers } : {}) } },
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
  covers?: readonly string[],
): Promise<{ ok: true } | CheckRefused> {
  const checked = await verifyCode(deps, codesFor(session, businessId, binding), askerOf(session, businessId), binding, typed, (code) =>
    // Only if this request consumed the code (two requests with the right code: one check).
    freshCheckStatements(deps, session, businessId, binding, "sms", code.id, true, covers),
  );
  return checked.ok ? { ok: true } : checked;
}
