// A person's authenticator app (authenticator_apps, decision 049): set up by its owner, confirmed by a code, used for
// fresh checks, removed by its owner. A person's factors are the core database's, beside the sessions that use them:
// these take db first. The rules they enforce are in functions/authenticator/authenticator-app.ts.
import type { Db } from "../tenancy/tenant";

export interface AuthenticatorRow {
  id: string;
  secret_sealed: string;
  session_id: string;
  created_at: string;
  confirmed_at: string | null;
  last_step: number | null;
  last_used_at: string | null;
}

const COLUMNS = "id, secret_sealed, session_id, created_at, confirmed_at, last_step, last_used_at";

/** The person's confirmed authenticator app that stands, if any. */
export async function standingAuthenticator(db: Db, userId: string): Promise<AuthenticatorRow | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM authenticator_apps WHERE user_id = ? AND confirmed_at IS NOT NULL AND removed_at IS NULL LIMIT 1`)
    .bind(userId)
    .first<AuthenticatorRow>();
}

/** One being set up by this person in this session, not confirmed, not removed, made after `since`. */
export async function pendingAuthenticator(db: Db, userId: string, sessionId: string, id: string, since: string): Promise<AuthenticatorRow | null> {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM authenticator_apps
       WHERE id = ? AND user_id = ? AND session_id = ? AND confirmed_at IS NULL AND removed_at IS NULL AND created_at > ?`,
    )
    .bind(id, userId, sessionId, since)
    .first<AuthenticatorRow>();
}

export interface NewAuthenticator {
  id: string;
  userId: string;
  sessionId: string;
  secretSealed: string;
  createdAt: string;
}

/** A new one waiting for its code; any other this session left unconfirmed is set aside first (one at a time). */
export function insertPendingAuthenticatorStatements(db: Db, app: NewAuthenticator): D1PreparedStatement[] {
  return [
    db
      .prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ? AND session_id = ? AND confirmed_at IS NULL AND removed_at IS NULL")
      .bind(app.createdAt, app.userId, app.sessionId),
    db
      .prepare("INSERT INTO authenticator_apps (id, user_id, secret_sealed, session_id, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(app.id, app.userId, app.secretSealed, app.sessionId, app.createdAt),
  ];
}

/**
 * Confirms one being set up, taking the step its code was of, for the caller's batch: only while the person has no
 * other standing (the unique index says so too), so two confirmations make one authenticator.
 */
export function confirmAuthenticatorStatement(db: Db, id: string, userId: string, step: number, at: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE authenticator_apps SET confirmed_at = ?1, last_step = ?2, last_used_at = ?1
       WHERE id = ?3 AND user_id = ?4 AND confirmed_at IS NULL AND removed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM authenticator_apps WHERE user_id = ?4 AND confirmed_at IS NOT NULL AND removed_at IS NULL)`,
    )
    .bind(at, step, id, userId);
}

/**
 * Takes a time step for a check, for the caller's batch: only a later step than the last one taken, and only while the
 * authenticator stands. Two requests with the same code: one changes the row, the other none (replay refused).
 */
export function takeStepStatement(db: Db, id: string, userId: string, step: number, at: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE authenticator_apps SET last_step = ?1, last_used_at = ?2
       WHERE id = ?3 AND user_id = ?4 AND confirmed_at IS NOT NULL AND removed_at IS NULL AND (last_step IS NULL OR last_step < ?1)`,
    )
    .bind(step, at, id, userId);
}

/** Removes the person's standing authenticator app, for the caller's batch. */
export function removeAuthenticatorStatement(db: Db, id: string, userId: string, at: string): D1PreparedStatement {
  return db
    .prepare("UPDATE authenticator_apps SET removed_at = ? WHERE id = ? AND user_id = ? AND confirmed_at IS NOT NULL AND removed_at IS NULL")
    .bind(at, id, userId);
}
