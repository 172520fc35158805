// The Security tab of /settings: the person's sessions that stand, signing one
// of them out, and signing out everywhere.
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "../../../functions/auth/deps";
import type { VerifiedSession } from "../../../functions/auth/guards";
import { listActiveSessions, revokeOwnSession, signOutEverywhere } from "../../../functions/auth/sign-in";
import { flashCookie, redirectWithFlash } from "../../../functions/flash";
import { refuse, type Refusal } from "../../../functions/http";
import { browserOf } from "../../lib/analytics";
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

const SecurityForm = v.variant("intent", [
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
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  if (parsed.output.intent === "sign-out-everywhere") {
    const { setCookie } = await signOutEverywhere(request, deps, session);
    const headers = new Headers({ "Set-Cookie": setCookie });
    headers.append(
      "Set-Cookie",
      await flashCookie(request, context.config, { kind: "success", message: "You are signed out on every device, this one included." }),
    );
    throw redirect(session.returnUrl, { headers });
  }
  if (parsed.output.sessionId === session.sid) return refuse({ form: "To sign out of this session, use Sign out in the account menu." });
  const revoked = await revokeOwnSession(deps, session, parsed.output.sessionId);
  // Not one of this person's sessions (or already ended): not found, said on the tab.
  if (!revoked) return data<Refusal>({ errors: { form: "That session has already ended." }, values: null }, { status: 404 });
  throw await redirectWithFlash(request, context.config, SECURITY_URL, { kind: "success", message: "That session is signed out." });
}
