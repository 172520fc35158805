// The Security tab's authenticator app (decision 049): setting one up, which only its owner can do, after a fresh
// check by what they already have (it passes every later check); confirming it with a current code; removing it,
// after a check too. The secret is in the answer of the setting up only (never cached), never in the loader.
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import {
  AUTHENTICATOR_MESSAGES,
  authenticatorOf,
  confirmEnrolment,
  pendingEnrolment,
  removeAuthenticator,
  startEnrolment,
  type Enrolment,
} from "#server/authenticator/authenticator-app";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import type { VerifiedSession } from "#server/auth/guards";
import { authLimited, CODE_VERIFY_LIMITS, tooManyMessage } from "#server/auth/limits";
import { redirectWithFlash } from "#server/plumbing/flash";
import type { TenantRequest } from "#server/guards";
import { SECURITY_URL } from "./tabs";

export const AUTHENTICATOR_INTENTS = ["add-authenticator", "confirm-authenticator", "remove-authenticator"] as const;

/** When the person's authenticator app was added and last used; never its secret. */
export function loadAuthenticator(deps: AuthDeps, session: VerifiedSession) {
  return authenticatorOf(deps, session.sub);
}

const ConfirmForm = v.object({
  intent: v.literal("confirm-authenticator"),
  enrolment: v.pipe(v.string(), v.regex(/^totp_[0-9a-f-]{36}$/)),
  code: v.pipe(v.string(AUTHENTICATOR_MESSAGES.malformed), v.maxLength(20, AUTHENTICATOR_MESSAGES.malformed)),
});

/** What the tab reads back: the one being set up (shown once), and what was refused. */
export interface AuthenticatorAnswer {
  authenticatorForm: { enrolment: Enrolment | null; error: string | null };
}

// The secret is in this answer: no cache keeps it (the settings route passes Cache-Control on).
const answer = (body: AuthenticatorAnswer["authenticatorForm"], status = 200) =>
  data<AuthenticatorAnswer>({ authenticatorForm: body }, { status, headers: { "Cache-Control": "no-store" } });

export async function authenticatorAction(request: Request, context: AppLoadContext, signedIn: TenantRequest, form: Record<string, FormDataEntryValue>) {
  const { deps, tenant, session } = signedIn;
  if (form.intent === "add-authenticator") {
    return underFreshCheck(request, signedIn, checkBindings.addAuthenticator(), form, async () => {
      const started = await startEnrolment(deps, session);
      if ("refused" in started) return answer({ enrolment: null, error: started.refused }, 409);
      return answer({ enrolment: started, error: null });
    });
  }
  if (form.intent === "remove-authenticator") {
    return underFreshCheck(request, signedIn, checkBindings.removeAuthenticator(), form, async () => {
      const removed = await removeAuthenticator(deps, session, tenant.businessId);
      if (!removed) return answer({ enrolment: null, error: "That authenticator app was already removed." }, 404);
      const { sessionsEnded } = removed;
      const others = sessionsEnded === 0 ? "" : ` Your ${sessionsEnded === 1 ? "other session was" : `${sessionsEnded} other sessions were`} signed out.`;
      throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: `${AUTHENTICATOR_MESSAGES.removed}${others}` });
    });
  }
  const parsed = v.safeParse(ConfirmForm, form);
  if (!parsed.success) return answer({ enrolment: null, error: AUTHENTICATOR_MESSAGES.expired }, 400);
  const again = () => pendingEnrolment(deps, session, parsed.output.enrolment);
  const wait = await authLimited(deps.db, request, CODE_VERIFY_LIMITS, session.sub, deps.now());
  if (wait !== null) return answer({ enrolment: await again(), error: tooManyMessage(wait) }, 429);
  const confirmed = await confirmEnrolment(deps, session, tenant.businessId, parsed.output.enrolment, parsed.output.code);
  if (!confirmed.ok) return answer({ enrolment: await again(), error: confirmed.message }, confirmed.retryAfterSeconds ? 429 : 400);
  throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: AUTHENTICATOR_MESSAGES.added });
}
