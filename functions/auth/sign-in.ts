// The session's life: identified (email known) -> verified (one-time code, see
// otp.ts) -> business chosen; logout and "sign out everywhere". Each step writes
// the `sessions` row and returns a new cookie. The pages (/login, /authenticate,
// /select-business) call these; they hold no state of their own.
import { isTestBusiness, liveBusinessOf } from "../tenancy/test-mode";
import { openTestBusinessInCore, openTestBusinessRows } from "../tenancy/test-mode.db";
import { ifChangedAuditStatement, signInAuditStatement } from "../audit/audit.db";
import { membershipRole } from "../team/memberships.db";
import type { AuthConfig } from "../env";
import type { SubmittingSession } from "../plumbing/submitted-once";
import { activeUserByEmail, linkedNumbers } from "../team/people.db";
import {
  activeSessions,
  chooseSessionBusiness,
  openSessionStatement,
  revokeOwnSessionStatement,
  revokeSessionStatement,
  revokeUserBusinessSessionsStatement,
  revokeUserSessionsStatement,
  type ActiveSession,
  sessionRow,
  type SessionRow,
} from "./sign-in-sessions.db";
import { iso, type AuthDeps } from "./deps";
import {
  IDENTIFIED_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_TTL_MS,
  clearSessionCookie,
  dedupe,
  readSessionCookie,
  returnUrlCookie,
  returnUrlFor,
  sessionCookie,
  type Channel,
  type EndedReason,
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

/** The row still stands: not revoked, not expired, the same user, within the idle and the absolute limit. */
export function rowAllows(row: SessionRow | null, session: SessionData, now: number): boolean {
  return row !== null && row.revoked_at === null && row.expires_at > iso(now) && row.user_id === session.sub && rowEnded(row, now) === null;
}

/**
 * The session a form is kept for (functions/plumbing/submitted-once.ts): an authentic cookie's, or null. Whether its
 * row still stands is read only when a kept answer would be given.
 */
export async function submittingSession(request: Request, db: D1Database, config: AuthConfig, now: () => number): Promise<SubmittingSession | null> {
  const cookie = await readSessionCookie(request, config, now());
  if (cookie.kind !== "authentic") return null;
  const { session } = cookie;
  return { id: session.sid, stillActive: async () => rowAllows(await sessionRow(db, session.sid), session, now()) };
}

/**
 * Why a standing row has run out (decision 026): 12 hours after sign-in began ("absolute"), or 30 minutes after the
 * person last did something ("idle"); null while neither. A verified session's expires_at is at most the former.
 */
export function rowEnded(row: Pick<SessionRow, "stage" | "created_at" | "last_active_at" | "expires_at">, now: number): EndedReason | null {
  const verified = row.stage !== "identified";
  if (Date.parse(row.created_at) + SESSION_TTL_MS <= now || (verified && row.expires_at <= iso(now))) return "absolute";
  if (Date.parse(row.last_active_at ?? row.created_at) + SESSION_IDLE_MS <= now) return "idle";
  return null;
}

/**
 * A changed role or a deactivation took effect in `businessId` (its shard's batch has committed): every session the
 * person has in that business ends at once, audited in the core database. Not one batch with the change: the change
 * lives in the business's database and sessions in the core one, and D1 has no batch across databases (decision 026).
 */
export async function endSessionsInBusiness(deps: AuthDeps, actorId: string, userId: string, businessId: string, why: string): Promise<number> {
  const at = iso(deps.now());
  const [update] = await deps.db.batch([
    revokeUserBusinessSessionsStatement(deps.db, userId, businessId, at),
    ifChangedAuditStatement(
      { userId: actorId, businessId },
      deps.db,
      deps.meta,
      { action: "auth.sessions_ended", entity: "user", entityId: userId, after: { reason: why } },
      at,
    ),
  ]);
  return update?.meta.changes ?? 0;
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
/** Test mode cannot be opened while its business is being moved between databases. */
export const TEST_MODE_MOVING = "Test mode cannot open while this business's records are being moved to another database. Try again shortly.";

/** Opens (or refreshes) a business's test business: its place beside the live one, then its rows there. False while the live business moves. */
async function openTestMode(deps: AuthDeps, testBusinessId: string, at: string): Promise<boolean> {
  const shard = await openTestBusinessInCore(deps.db, liveBusinessOf(testBusinessId), at);
  if (!shard) return false;
  await openTestBusinessRows(deps.businessDb(testBusinessId, shard).db, testBusinessId, at);
  return true;
}

export async function chooseBusiness(request: Request, deps: AuthDeps, session: SessionData, businessId: string): Promise<StepResult> {
  const now = deps.now();
  if (session.stage === "identified" || !session.otpToken) return { ok: false, message: "Verify your phone number first." };
  // Test mode is the live business's people's (decision 045): its membership admits them, and the test business is opened on the way in.
  if (!(await membershipRole({ userId: session.sub, businessId: liveBusinessOf(businessId) }, deps.db))) return { ok: false, message: NOT_A_MEMBER };
  if (isTestBusiness(businessId) && !(await openTestMode(deps, businessId, iso(now)))) return { ok: false, message: TEST_MODE_MOVING };
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

export type { ActiveSession } from "./sign-in-sessions.db";

/** The person's sessions that still stand (not revoked, not expired), newest first. */
export async function listActiveSessions(db: D1Database, userId: string, now: number): Promise<ActiveSession[]> {
  return activeSessions(db, userId, iso(now), { createdAfter: iso(now - SESSION_TTL_MS), activeAfter: iso(now - SESSION_IDLE_MS) });
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
