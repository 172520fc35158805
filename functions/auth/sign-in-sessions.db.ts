// The sign-in sessions (table sessions). A session belongs to a person before it has a business, so these take db first.
import type { Db } from "../tenancy/tenant";
import type { Channel } from "./session";

export interface SessionRow {
  user_id: string;
  stage: string;
  business_id: string | null;
  expires_at: string;
  revoked_at: string | null;
  /** When sign-in began: the session ends 12 hours later (decision 026). */
  created_at: string;
  /** When the person last did something; null: nothing since created_at. The session ends 30 minutes later. */
  last_active_at: string | null;
  /** The database of the business asked about (the directory, read in the same query); null without one. */
  shard: string | null;
  moving_to: string | null;
  /** Where the business stands with the platform (decision 039); null without one. */
  lifecycle: "active" | "suspended" | "closed" | null;
}

export async function sessionRow(db: Db, sessionId: string, businessId: string | null = null): Promise<SessionRow | null> {
  return sessionRowStatement(db, sessionId, businessId).first<SessionRow>();
}

/** The session, with where the business it chose lives (the directory in the same query): the guard of every page. */
export function sessionRowStatement(db: Db, sessionId: string, businessId: string | null): D1PreparedStatement {
  return db
    .prepare(
      `SELECT s.user_id, s.stage, s.business_id, s.expires_at, s.revoked_at, s.created_at, s.last_active_at, d.shard, d.moving_to, d.lifecycle
       FROM sessions s LEFT JOIN business_shards d ON d.business_id = ? WHERE s.id = ?`,
    )
    .bind(businessId, sessionId);
}

/** The session's stage and whether it was revoked, read back after a change. */
export async function sessionStage(db: Db, sessionId: string): Promise<{ stage: string; revoked_at: string | null } | null> {
  return db.prepare("SELECT stage, revoked_at FROM sessions WHERE id = ?").bind(sessionId).first<{ stage: string; revoked_at: string | null }>();
}

/** Revokes one session, for the caller's batch. */
export function revokeSessionStatement(db: Db, sessionId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").bind(at, sessionId);
}

/** Revokes every session of a person, for the caller's batch. */
export function revokeUserSessionsStatement(db: Db, userId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL").bind(at, userId);
}

/** A sign-in factor of a person's own that can be removed: its table, and what "it still stands" is there. */
const STANDING_FACTOR = {
  passkey: "SELECT 1 FROM passkeys WHERE id = ?4 AND user_id = ?2 AND removed_at IS NULL",
  authenticator: "SELECT 1 FROM authenticator_apps WHERE id = ?4 AND user_id = ?2 AND confirmed_at IS NOT NULL AND removed_at IS NULL",
} as const;

/**
 * Before the statement that removes one of the person's factors, in the same batch: ends their other sessions (the
 * current one stays) only if that factor still stands, so the batch that removes it is the one that signs them out.
 */
export function revokeOtherSessionsStatement(
  db: Db,
  userId: string,
  keepSessionId: string,
  factor: { kind: keyof typeof STANDING_FACTOR; id: string },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(`UPDATE sessions SET revoked_at = ?1 WHERE user_id = ?2 AND id <> ?3 AND revoked_at IS NULL AND EXISTS (${STANDING_FACTOR[factor.kind]})`)
    .bind(at, userId, keepSessionId, factor.id);
}

/**
 * The person did something: the session's idle clock starts again. Written only when the stored time is older than
 * `staleBefore` (a minute), so a burst of requests makes one write, and never on a session that has ended meanwhile.
 */
export function touchSessionStatement(db: Db, sessionId: string, at: string, staleBefore: string): D1PreparedStatement {
  return db
    .prepare("UPDATE sessions SET last_active_at = ? WHERE id = ? AND revoked_at IS NULL AND coalesce(last_active_at, created_at) < ? AND expires_at > ?")
    .bind(at, sessionId, staleBefore, at);
}

/** Revokes every session a person has in one business (a changed role, a deactivation), for the caller's batch. */
export function revokeUserBusinessSessionsStatement(db: Db, userId: string, businessId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND business_id = ? AND revoked_at IS NULL").bind(at, userId, businessId);
}

/** Revokes one session only if it is the person's own, for the caller's batch. */
export function revokeOwnSessionStatement(db: Db, sessionId: string, userId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL").bind(at, sessionId, userId);
}

export interface NewSession {
  id: string;
  userId: string;
  channel: Channel;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  expiresAt: string;
}

/** Opens an identified session, for the caller's batch. */
export function openSessionStatement(db: Db, session: NewSession): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at) VALUES (?, ?, ?, 'identified', NULL, ?, ?, ?, ?)",
    )
    .bind(session.id, session.userId, session.channel, session.ip, session.userAgent, session.createdAt, session.expiresAt);
}

/**
 * Verified, for the batch that consumes the code: only if the batch's previous
 * statement changed one row (two requests with the right code: one wins). The
 * session still ends 12 hours after sign-in began, not after the code: the
 * earlier of `expiresAt` and created_at + 12 hours (decision 026).
 */
export function verifySessionStatement(db: Db, sessionId: string, expiresAt: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE sessions SET stage = 'verified', expires_at = min(?, strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+12 hours'))
       WHERE id = ? AND stage = 'identified' AND revoked_at IS NULL AND changes() = 1`,
    )
    .bind(expiresAt, sessionId);
}

/** Moves a standing session of the person into a business; null when the session has ended. */
export async function chooseSessionBusiness(db: Db, sessionId: string, userId: string, businessId: string, now: string): Promise<{ id: string } | null> {
  return db
    .prepare(
      "UPDATE sessions SET stage = 'business_chosen', business_id = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ? RETURNING id",
    )
    .bind(businessId, sessionId, userId, now)
    .first<{ id: string }>();
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

/** The person's sessions that still stand at `now` (not revoked, not expired, not past the 12-hour or idle limit), newest first. */
export async function activeSessions(db: Db, userId: string, now: string, limits: { createdAfter: string; activeAfter: string }): Promise<ActiveSession[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.channel, s.stage, b.name AS businessName, s.ip, s.user_agent AS userAgent, s.created_at AS createdAt, s.expires_at AS expiresAt
       FROM sessions s LEFT JOIN businesses b ON b.id = s.business_id
       WHERE s.user_id = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND s.created_at > ? AND coalesce(s.last_active_at, s.created_at) > ?
       ORDER BY s.created_at DESC LIMIT 50`,
    )
    .bind(userId, now, limits.createdAfter, limits.activeAfter)
    .all<ActiveSession>();
  return results;
}

/** Revokes every session anyone has in a business (the platform suspended it: decision 039), for the caller's batch. */
export function revokeBusinessSessionsStatement(db: Db, businessId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE sessions SET revoked_at = ? WHERE business_id = ? AND revoked_at IS NULL").bind(at, businessId);
}
