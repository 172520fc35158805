// /auth/check: where the fresh-check dialog (app/components/forms/fresh-check.tsx) makes a check for one action (
// point 2; functions/auth/fresh-check.ts). JSON in and out, for a signed-in person in their business; the action the
// check is for checks its own permission when it runs, and a decision's is asked here too, before any factor: nobody is
// sent a code for a decision they may not take (their own request, one already decided, a role that decides nothing).
// GET says what this person may check with and how many codes are left this hour; POST asks for a passkey's options or
// takes its answer, sends a code, or takes a code. Each is limited per account and per address (429 with Retry-After).
// A bulk decision's check comes with the ids of its requests, checked against its binding (their hash): the dialog
// names them, each one the person may not decide is said before any factor, and the audit log names them.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import {
  batchBinding,
  batchIds,
  BINDING_PATTERN,
  CHECK_MESSAGES,
  checkCodesLeft,
  ChosenIds,
  checkPhone,
  decisionOf,
  freshCheckStatements,
  isPlatformBinding,
  platformCheck,
  purposeOf,
  sendCheckCode,
  tenantCheck,
  verifyCheckCode,
  type CheckFor,
  type CheckRefused,
} from "#server/auth/fresh-check";
import { authLimited, CHECK_CODE_SEND_LIMITS, CHECK_CODE_VERIFY_LIMITS, PASSKEY_LIMITS, tooManyJson, type AuthLimitPair } from "#server/auth/limits";
import { hasAuthenticator, verifyAuthenticatorCheck } from "#server/authenticator/authenticator-app";
import { hasPasskey, relyingPartyOf } from "#server/passkeys/passkeys";
import { passkeyCheckOptions, verifyPasskeyCheck } from "#server/passkeys/passkey-assertions";
import { smsPortFor } from "#server/sms/sms";
import { requireTenant, type TenantRequest } from "#server/guards";
import { requirePlatform, type PlatformRequest } from "#server/operators/guards";
import { PLATFORM_SPECS } from "#server/operators/kinds";
import { whyNotDecidePlatform } from "#server/operators/requests";
import { coveredRequests, pageRun, whyNotDecide, type CoveredRequest } from "#server/decisions/business";
import { CHANGE_MESSAGES } from "#server/decisions/business-run";
import { can } from "#server/permissions";
import { jsonResponse, methodNotAllowed } from "#server/plumbing/http";
import { maskPhone } from "#app/lib/forms/phone";

const Binding = v.pipe(v.string("Say what the check is for."), v.regex(BINDING_PATTERN, "That check is not for anything the portal does."));

const Code = v.pipe(v.string(CHECK_MESSAGES.malformed), v.maxLength(20, CHECK_MESSAGES.malformed));
const Covers = { binding: Binding, ids: v.optional(ChosenIds) };

const CheckPost = v.variant("intent", [
  v.object({ intent: v.literal("passkey-options"), ...Covers }),
  // The authenticator's answer is checked whole by the WebAuthn library (functions/passkeys/passkey-assertions.ts).
  v.object({ intent: v.literal("passkey"), ...Covers, response: v.record(v.string(), v.unknown()) }),
  v.object({ intent: v.literal("send-code"), ...Covers }),
  v.object({ intent: v.literal("code"), ...Covers, code: Code }),
  // A code from the person's authenticator app (decision 049): nothing is sent.
  v.object({ intent: v.literal("totp"), ...Covers, code: Code }),
]);

const NOT_THESE = "That check is not for these requests. Choose them again and decide.";

/**
 * The requests a binding covers: for a bulk decision, the ids given, which must be exactly those it is the hash of
 * (else the refusal); for any other binding, none (ids given with it are refused, as meaning nothing).
 */
async function coversOf(binding: string, ids: readonly string[] | undefined): Promise<{ ok: true; ids: string[] | null } | { ok: false }> {
  if (decisionOf(binding)?.family !== "batch") return ids === undefined ? { ok: true, ids: null } : { ok: false };
  if (!ids) return { ok: false };
  const chosen = batchIds(ids);
  return (await batchBinding(chosen)) === binding ? { ok: true, ids: chosen } : { ok: false };
}

/** Why the person may not take the action a check is for (null when they may), and a bulk decision's requests named. */
type WhyNot = { refusal: string | null; requests?: CoveredRequest[] };

/** Who makes a check, and why they may not take the action it is for. */
type Checker = CheckFor & { whyNot: (binding: string, covers: string[] | null) => Promise<WhyNot> };

/** Said when none of a bulk decision's requests can be decided by this person (each one's reason is listed). */
const NONE_DECIDABLE = "None of the requests you chose can be decided by you.";

/** A business's decision: the decision core's own rules and words, asked before the check (each of a bulk decision's). */
function businessWhyNot(signedIn: TenantRequest, context: LoaderFunctionArgs["context"]) {
  return async (binding: string, covers: string[] | null): Promise<WhyNot> => {
    const decision = decisionOf(binding);
    if (decision?.family === "batch") {
      if (!can(signedIn.tenant.role, "decide:approval")) return { refusal: CHANGE_MESSAGES.mayNotDecide };
      const requests = await coveredRequests(pageRun(context, signedIn), covers ?? []);
      return { refusal: requests.every((request) => request.refusal !== null) ? NONE_DECIDABLE : null, requests };
    }
    if (decision?.family === "business") return { refusal: await whyNotDecide(pageRun(context, signedIn), decision.requestId) };
    return { refusal: null };
  };
}

function platformWhyNot(signedIn: PlatformRequest, context: LoaderFunctionArgs["context"]) {
  return async (binding: string): Promise<WhyNot> => {
    const decision = decisionOf(binding);
    return { refusal: decision?.family === "platform" ? await whyNotDecidePlatform({ ...signedIn, context }, decision.requestId, PLATFORM_SPECS) : null };
  };
}

/**
 * Who makes the check: a person in their business, or platform staff for a platform action (decision 039). Each guard
 * refuses the other: a business's people cannot check for the platform, nor staff without a business for a business.
 */
async function checker(request: Request, context: LoaderFunctionArgs["context"], binding: unknown): Promise<Checker> {
  if (typeof binding === "string" && isPlatformBinding(binding)) {
    const staff = await requirePlatform(request, context, "platform:view");
    return { ...platformCheck(staff), whyNot: platformWhyNot(staff, context) };
  }
  const signedIn = await requireTenant(request, context, null);
  return { ...tenantCheck(signedIn), whyNot: businessWhyNot(signedIn, context) };
}

/**
 * What the dialog offers: the person's passkey, their authenticator app, and a code to the masked number, the last two
 * unless the business asks for a passkey.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const binding = query.get("binding") ?? "";
  const { deps, session, passkeyOnly: needsPasskey, whyNot } = await checker(request, context, binding);
  const parsed = v.safeParse(Binding, binding);
  if (!parsed.success) return jsonResponse({ message: parsed.issues[0].message }, 400);
  const ids = query.has("ids") ? v.safeParse(ChosenIds, (query.get("ids") ?? "").split(",")) : null;
  if (ids && !ids.success) return jsonResponse({ message: ids.issues[0].message }, 400);
  const covers = await coversOf(parsed.output, ids?.output);
  if (!covers.ok) return jsonResponse({ message: NOT_THESE }, 400);
  const [{ refusal, requests }, passkeyOnly, phone, passkey, authenticator] = await Promise.all([
    whyNot(parsed.output, covers.ids),
    needsPasskey(parsed.output),
    checkPhone(deps, session),
    relyingPartyOf(deps) ? hasPasskey(deps.db, session.sub) : Promise.resolve(false),
    hasAuthenticator(deps, session.sub),
  ]);
  const texted = phone && !passkeyOnly ? phone : null;
  return jsonResponse({
    purpose: purposeOf(parsed.output),
    refusal,
    ...(requests ? { requests } : {}),
    passkeyOnly,
    passkey,
    authenticator: authenticator && !passkeyOnly,
    phone: texted ? maskPhone(texted) : null,
    codes: texted ? await checkCodesLeft(deps, session, parsed.output, texted) : null,
  });
}

function refused(refusal: CheckRefused, status = 400): Response {
  const headers: Record<string, string> = refusal.retryAfterSeconds ? { "Retry-After": String(refusal.retryAfterSeconds) } : {};
  const numbers = refusal.codes ? { codes: refusal.codes } : {};
  return jsonResponse({ message: refusal.message, ...numbers }, refusal.retryAfterSeconds ? 429 : status, headers);
}

async function limited({ deps, session }: CheckFor, request: Request, pair: AuthLimitPair): Promise<Response | null> {
  const wait = await authLimited(deps.db, request, pair, session.sub, deps.now());
  return wait === null ? null : tooManyJson(wait);
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = null;
  }
  const signedIn = await checker(request, context, (body as { binding?: unknown } | null)?.binding);
  const { deps, session, owner } = signedIn;
  if (body === null) return jsonResponse({ message: "That request was not understood. Reload the page and try again." }, 400);
  const parsed = v.safeParse(CheckPost, body);
  if (!parsed.success) return jsonResponse({ message: parsed.issues[0].message }, 400);
  const post = parsed.output;
  const covered = await coversOf(post.binding, post.ids);
  if (!covered.ok) return jsonResponse({ message: NOT_THESE }, 400);
  const covers = covered.ids ?? undefined;
  if (post.intent === "passkey-options" || post.intent === "send-code") {
    // Before any factor is asked for: a decision the person may not take is refused with its reason, and no code sent.
    const { refusal } = await signedIn.whyNot(post.binding, covered.ids);
    if (refusal) return jsonResponse({ message: refusal, refused: true }, 403);
  }
  if (post.intent === "passkey-options" || post.intent === "passkey") {
    const over = await limited(signedIn, request, PASSKEY_LIMITS);
    if (over) return over;
    if (post.intent === "passkey-options") {
      const options = await passkeyCheckOptions(deps, session, post.binding);
      if (!options) return jsonResponse({ message: CHECK_MESSAGES.noPasskey }, 400);
      return jsonResponse({ options });
    }
    const verified = await verifyPasskeyCheck(deps, session, post.binding, post.response);
    if (!verified.ok) return jsonResponse({ message: verified.message }, 400);
    await deps.db.batch(freshCheckStatements(deps, session, owner, post.binding, "passkey", verified.passkeyId, false, covers));
    return jsonResponse({ checked: true });
  }
  if (await signedIn.passkeyOnly(post.binding)) return jsonResponse({ message: CHECK_MESSAGES.passkeyOnly }, 403);
  if (post.intent === "totp") {
    const over = await limited(signedIn, request, CHECK_CODE_VERIFY_LIMITS);
    if (over) return over;
    const checked = await verifyAuthenticatorCheck(deps, session, owner, post.binding, post.code, covers);
    if (!checked.ok) return refused(checked);
    return jsonResponse({ checked: true });
  }
  if (post.intent === "send-code") {
    const over = await limited(signedIn, request, CHECK_CODE_SEND_LIMITS);
    if (over) return over;
    const msisdn = await checkPhone(deps, session);
    if (!msisdn) return jsonResponse({ message: CHECK_MESSAGES.noPhone }, 400);
    const sent = await sendCheckCode(deps, session, owner, post.binding, { msisdn, masked: maskPhone(msisdn) }, smsPortFor(deps.config, deps.db));
    if (!sent.ok) return refused(sent);
    return jsonResponse({ sent: true, to: maskPhone(msisdn), resendAfterSeconds: sent.resendAfterSeconds, codes: sent.codes });
  }
  const over = await limited(signedIn, request, CHECK_CODE_VERIFY_LIMITS);
  if (over) return over;
  const checked = await verifyCheckCode(deps, session, owner, post.binding, post.code, covers);
  if (!checked.ok) return refused(checked);
  return jsonResponse({ checked: true });
}
