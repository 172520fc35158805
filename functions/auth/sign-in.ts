// The session's life: identified (email known) -> verified (one-time code, see
// otp.ts) -> business chosen; logout and "sign out everywhere". Each step writes
// the `sessions` row and returns a new cookie. The pages (/login, /authenticate,
// /select-business) call these; they hold no state of their own.
import { ifChangedAuditStatement, signInAuditStatement } from "../data/audit";
import type { Role } from "../permissions";
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

interface SessionRow {
  user_id: string;
  stage: string;
  business_id: string | null;
  expires_at: string;
  revoked_at: string | null;
}

export async function sessionRow(db: D1Database, sessionId: string): Promise<SessionRow | null> {
  return db.prepare("SELECT user_id, stage, business_id, expires_at, revoked_at FROM sessions WHERE id = ?").bind(sessionId).first<SessionRow>();
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
  const revokePrevious =
    previous.kind === "authentic"
      ? [deps.db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").bind(iso(now), previous.session.sid)]
      : [];
  const user = await deps.db.prepare("SELECT id FROM users WHERE email = ? AND status = 'active'").bind(email).first<{ id: string }>();
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
  const { results } = await deps.db
    .prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY created_at, msisdn")
    .bind(user.id)
    .all<{ msisdn: string }>();
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
    linkedNumbers: dedupe(results.map((row) => row.msisdn)),
    activeBusiness: null,
  };
  await deps.db.batch([
    ...revokePrevious,
    deps.db
      .prepare(
        "INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at) VALUES (?, ?, ?, 'identified', NULL, ?, ?, ?, ?)",
      )
      .bind(session.sid, user.id, identity.channel, deps.meta.ip, deps.meta.userAgent, iso(now), iso(session.tokenExpiration)),
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

/** The businesses the user may enter: active memberships of active businesses. */
export async function membershipRole(db: D1Database, userId: string, businessId: string): Promise<Role | null> {
  const row = await db
    .prepare(
      `SELECT m.role FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.business_id = ? AND m.status = 'active' AND b.status = 'active'`,
    )
    .bind(userId, businessId)
    .first<{ role: Role }>();
  return row?.role ?? null;
}

/** Verified -> business chosen, for a business the user is an active member of. */
export async function chooseBusiness(request: Request, deps: AuthDeps, session: SessionData, businessId: string): Promise<StepResult> {
  const now = deps.now();
  if (session.stage === "identified" || !session.otpToken) return { ok: false, message: "Verify your phone number first." };
  if (!(await membershipRole(deps.db, session.sub, businessId))) return { ok: false, message: NOT_A_MEMBER };
  const moved = await deps.db
    .prepare(
      "UPDATE sessions SET stage = 'business_chosen', business_id = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ? RETURNING id",
    )
    .bind(businessId, session.sid, session.sub, iso(now))
    .first<{ id: string }>();
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
      deps.db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").bind(iso(now), session.sid),
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
    deps.db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(iso(now), session.sub),
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

export interface ActiveSession {
  id: string;
  channel: Channel;
  stage: string;
  businessName: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  expiresAt: string;
}

/** The person's sessions that still stand (not revoked, not expired), newest first. */
export async function listActiveSessions(db: D1Database, userId: string, now: number): Promise<ActiveSession[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.channel, s.stage, b.name AS businessName, s.ip, s.user_agent AS userAgent, s.created_at AS createdAt, s.expires_at AS expiresAt
       FROM sessions s LEFT JOIN businesses b ON b.id = s.business_id
       WHERE s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ?
       ORDER BY s.created_at DESC LIMIT 50`,
    )
    .bind(userId, iso(now))
    .all<ActiveSession>();
  return results;
}

/** Signs one of the person's own other sessions out; another person's session id is "not found". */
export async function revokeOwnSession(deps: AuthDeps, session: SessionData, sessionId: string): Promise<boolean> {
  const now = iso(deps.now());
  const [update] = await deps.db.batch([
    deps.db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL").bind(now, sessionId, session.sub),
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
