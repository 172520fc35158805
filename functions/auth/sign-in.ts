// The session's life: identified (email known) -> verified (one-time code, see
// otp.ts) -> business chosen; logout and "sign out everywhere". Each step writes
// the `sessions` row and returns a new cookie. The pages (/login, /authenticate,
// /select-business) call these; they hold no state of their own.
import { ifChangedAuditStatement, signInAuditStatement } from "../data/audit";
import { membershipRole } from "../data/memberships";
import { activeUserByEmail, linkedNumbers } from "../data/people";
import {
  activeSessions,
  chooseSessionBusiness,
  openSessionStatement,
  revokeOwnSessionStatement,
  revokeSessionStatement,
  revokeUserSessionsStatement,
  type ActiveSession,
  type SessionRow,
} from "../data/sign-in-sessions";
import { iso, type AuthDeps } from "./deps";
import {
  IDENTIFIED_TTL_MS,
  clearSessionCookie,
  dedupe,
  readSessionCookie,
  returnUrlCookie,
  returnUrlFor,
  sessionCookie,
  type Channel,
  type SessionData,
} from "./session";

export type StepResult<T = SessionData> = { ok: true; session: T; setCookie: string } | { ok: false; message: string };
/** A login started: the session cookie, and the return-URL cookie of its channel (session.ts), both to set. */
export type LoginStarted = { ok: true; session: SessionData; setCookie: string; returnCookie: string } | { ok: false; message: string };

export const NO_ACCOUNT = "No portal account uses this email address. Check it, or ask your administrator to invite you.";
export const NOT_A_MEMBER = "You do not have access to this business.";

/** SPEC section 5 email rule, plus the users table's lower-case form. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The row still stands: not revoked, not expired, the same user. */
export function rowAllows(row: SessionRow | null, session: SessionData, now: number): boolean {
  return row !== null && row.revoked_at === null && row.expires_at > iso(now) && row.user_id === session.sub;
}

/**
 * Starts a login for an identity a channel vouched for (an ID token's username, or
 * a typed unique email). Whatever session the request carried is revoked first:
 * a new login starts from empty fields (SPEC section 4).
 */
export async function startLogin(request: Request, deps: AuthDeps, identity: { email: string; channel: Channel }): Promise<LoginStarted> {
  const now = deps.now();
  const email = normaliseEmail(identity.email);
  const previous = await readSessionCookie(request, deps.config, now);
  const revokePrevious = previous.kind === "authentic" ? [revokeSessionStatement(deps.db, previous.session.sid, iso(now))] : [];
  const user = await activeUserByEmail(deps.db, email);
  if (!user) {
    await deps.db.batch([
      ...revokePrevious,
      signInAuditStatement(
        { userId: null, businessId: null },
        deps.db,
        deps.meta,
        { action: "auth.sign_in.unknown", entity: "session", after: { channel: identity.channel } },
        iso(now),
      ),
    ]);
    return { ok: false, message: NO_ACCOUNT };
  }
  const numbers = await linkedNumbers(deps.db, user.id);
  const session: SessionData = {
    sid: crypto.randomUUID(),
    sub: user.id,
    email,
    authenticationChannel: identity.channel,
    stage: "identified",
    tokenExpiration: now + IDENTIFIED_TTL_MS,
    returnUrl: returnUrlFor(identity.channel),
    otpToken: null,
    selectedPhoneNumber: null,
    linkedNumbers: dedupe(numbers),
    activeBusiness: null,
  };
  await deps.db.batch([
    ...revokePrevious,
    openSessionStatement(deps.db, {
      id: session.sid,
      userId: user.id,
      channel: identity.channel,
      ip: deps.meta.ip,
      userAgent: deps.meta.userAgent,
      createdAt: iso(now),
      expiresAt: iso(session.tokenExpiration),
    }),
    signInAuditStatement(
      { userId: user.id, businessId: null },
      deps.db,
      deps.meta,
      { action: "auth.sign_in", entity: "session", entityId: session.sid, after: { channel: identity.channel } },
      iso(now),
    ),
  ]);
  return {
    ok: true,
    session,
    setCookie: await sessionCookie(request, deps.config, session, now),
    returnCookie: await returnUrlCookie(request, deps.config, session.returnUrl, now),
  };
}

/** Verified -> business chosen, for a business the user is an active member of. */
export async function chooseBusiness(request: Request, deps: AuthDeps, session: SessionData, businessId: string): Promise<StepResult> {
  const now = deps.now();
  if (session.stage === "identified" || !session.otpToken) return { ok: false, message: "Verify your phone number first." };
  if (!(await membershipRole({ userId: session.sub, businessId }, deps.db))) return { ok: false, message: NOT_A_MEMBER };
  const moved = await chooseSessionBusiness(deps.db, session.sid, session.sub, businessId, iso(now));
  if (!moved) return { ok: false, message: "Your session has ended. Sign in again." };
  const next: SessionData = { ...session, stage: "business_chosen", activeBusiness: businessId };
  await signInAuditStatement(
    { userId: session.sub, businessId },
    deps.db,
    deps.meta,
    { action: "auth.business_chosen", entity: "session", entityId: session.sid },
    iso(now),
  ).run();
  return { ok: true, session: next, setCookie: await sessionCookie(request, deps.config, next, now) };
}

/**
 * Logout: the request's session is revoked (if it carried an authentic one) and
 * the cookie cleared, which empties every SPEC section 4 field at once. The
 * return-URL cookie stays: SPEC section 4's list of what logout clears leaves
 * the return URL out, and section 2 sends a later visit to the stored return URL.
 */
export async function logout(request: Request, deps: AuthDeps): Promise<{ setCookie: string }> {
  const now = deps.now();
  const read = await readSessionCookie(request, deps.config, now);
  if (read.kind === "authentic") {
    const { session } = read;
    await deps.db.batch([
      revokeSessionStatement(deps.db, session.sid, iso(now)),
      signInAuditStatement(
        { userId: session.sub, businessId: session.activeBusiness },
        deps.db,
        deps.meta,
        { action: "auth.logout", entity: "session", entityId: session.sid },
        iso(now),
      ),
    ]);
  }
  return { setCookie: clearSessionCookie(request) };
}

/** "Sign out everywhere": every session of the user is revoked; each is refused at its next request. */
export async function signOutEverywhere(request: Request, deps: AuthDeps, session: SessionData): Promise<{ revoked: number; setCookie: string }> {
  const now = deps.now();
  const [update] = await deps.db.batch([
    revokeUserSessionsStatement(deps.db, session.sub, iso(now)),
    signInAuditStatement(
      { userId: session.sub, businessId: session.activeBusiness },
      deps.db,
      deps.meta,
      { action: "auth.sign_out_everywhere", entity: "session", entityId: session.sid },
      iso(now),
    ),
  ]);
  return { revoked: update?.meta.changes ?? 0, setCookie: clearSessionCookie(request) };
}

export type { ActiveSession } from "../data/sign-in-sessions";

/** The person's sessions that still stand (not revoked, not expired), newest first. */
export async function listActiveSessions(db: D1Database, userId: string, now: number): Promise<ActiveSession[]> {
  return activeSessions(db, userId, iso(now));
}

/** Signs one of the person's own other sessions out; another person's session id is "not found". */
export async function revokeOwnSession(deps: AuthDeps, session: SessionData, sessionId: string): Promise<boolean> {
  const now = iso(deps.now());
  const [update] = await deps.db.batch([
    revokeOwnSessionStatement(deps.db, sessionId, session.sub, now),
    ifChangedAuditStatement(
      { userId: session.sub, businessId: session.activeBusiness },
      deps.db,
      deps.meta,
      { action: "auth.session_revoked", entity: "session", entityId: sessionId },
      now,
    ),
  ]);
  return (update?.meta.changes ?? 0) === 1;
}
