// The Security tab of /settings: the person's passkeys (renaming and removing one; adding one is the JSON calls of
// /authenticate/passkey), the sessions that stand, signing one of them out, and signing out everywhere.
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import type { VerifiedSession } from "#server/auth/guards";
import { listPasskeys, PasskeyName, relyingPartyOf, removePasskey, renamePasskey } from "#server/passkeys/passkeys";
import { listActiveSessions, revokeOwnSession, signOutEverywhere } from "#server/auth/sign-in";
import { flashCookie, redirectWithFlash } from "#server/plumbing/flash";
import { refuse, type Refusal } from "#server/plumbing/http";
import { browserOf } from "#app/lib/analytics/analytics";
import { NOT_UNDERSTOOD, SECURITY_URL } from "./tabs";

export async function loadSessions(deps: AuthDeps, session: VerifiedSession) {
  const sessions = await listActiveSessions(deps.db, session.sub, deps.now());
  return sessions.map((row) => ({
    id: row.id,
    current: row.id === session.sid,
    browser: row.userAgent ? browserOf(row.userAgent) : "Unknown browser",
    ip: row.ip,
    channel: row.channel,
    businessName: row.businessName,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  }));
}

/** The person's passkeys, and whether passkeys can be added here at all (production needs its relying party configured). */
export async function loadPasskeys(deps: AuthDeps, session: VerifiedSession) {
  return { available: relyingPartyOf(deps) !== null, list: await listPasskeys(deps.db, session.sub) };
}

const passkeyId = v.pipe(v.string(), v.regex(/^pk_[0-9a-f-]{36}$/, "Choose a passkey."));

const SecurityForm = v.variant("intent", [
  v.object({ intent: v.literal("remove-passkey"), passkeyId }),
  v.object({ intent: v.literal("rename-passkey"), passkeyId, name: PasskeyName }),
  v.object({ intent: v.literal("sign-out-everywhere") }),
  v.object({
    intent: v.literal("sign-out-session"),
    sessionId: v.pipe(v.string(), v.uuid("Choose a session to sign out.")),
  }),
]);

/** A refusal, or a thrown redirect (to the return URL once signed out everywhere, else back to the tab). */
export async function securityAction(
  request: Request,
  context: AppLoadContext,
  deps: AuthDeps,
  session: VerifiedSession,
  form: Record<string, FormDataEntryValue>,
) {
  const parsed = v.safeParse(SecurityForm, form);
  if (!parsed.success) {
    // A name that does not do is said in the person's words; anything else was not sent by the tab.
    const nameIssue = form.intent === "rename-passkey" ? parsed.issues.find((issue) => v.getDotPath(issue) === "name") : undefined;
    return refuse({ form: nameIssue?.message ?? NOT_UNDERSTOOD });
  }
  if (parsed.output.intent === "remove-passkey") {
    const { removed, sessionsEnded } = await removePasskey(deps, session, parsed.output.passkeyId);
    if (!removed) return data<Refusal>({ errors: { form: "That passkey was already removed." }, values: null }, { status: 404 });
    const others = sessionsEnded === 0 ? "" : ` Your ${sessionsEnded === 1 ? "other session was" : `${sessionsEnded} other sessions were`} signed out.`;
    throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: `The passkey is removed.${others}` });
  }
  if (parsed.output.intent === "rename-passkey") {
    const renamed = await renamePasskey(deps, session, parsed.output.passkeyId, parsed.output.name);
    if (!renamed) return data<Refusal>({ errors: { form: "That passkey was already removed." }, values: null }, { status: 404 });
    throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: "The passkey is renamed." });
  }
  if (parsed.output.intent === "sign-out-everywhere") {
    const { setCookie } = await signOutEverywhere(request, deps, session);
    const headers = new Headers({ "Set-Cookie": setCookie });
    headers.append(
      "Set-Cookie",
      await flashCookie(request, context.config.app, { kind: "success", message: "You are signed out on every device, this one included." }),
    );
    throw redirect(session.returnUrl, { headers });
  }
  if (parsed.output.sessionId === session.sid) return refuse({ form: "To sign out of this session, use Sign out in the account menu." });
  const revoked = await revokeOwnSession(deps, session, parsed.output.sessionId);
  // Not one of this person's sessions (or already ended): not found, said on the tab.
  if (!revoked) return data<Refusal>({ errors: { form: "That session has already ended." }, values: null }, { status: 404 });
  throw await redirectWithFlash(request, context.config.app, SECURITY_URL, { kind: "success", message: "That session is signed out." });
}
