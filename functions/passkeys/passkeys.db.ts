// Passkeys (passkeys) and the single-use WebAuthn challenges (webauthn_challenges) of adding one, signing in with one
// and a fresh check (decision 024). Sign-in lives in the core database, before any business is chosen: these take db
// first. The rules they enforce are in functions/passkeys/passkeys.ts.
import type { Db } from "../tenancy/tenant";

export type ChallengePurpose = "register" | "sign-in" | "check";

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const COLUMNS = "id, user_id, credential_id, public_key, counter, transports, name, created_at, last_used_at";

/** The person's passkeys that stand (not removed), oldest first. */
export async function activePasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM passkeys WHERE user_id = ? AND removed_at IS NULL ORDER BY created_at, id LIMIT 100`)
    .bind(userId)
    .all<PasskeyRow>();
  return results;
}

export async function hasActivePasskey(db: Db, userId: string): Promise<boolean> {
  return (await db.prepare("SELECT 1 AS one FROM passkeys WHERE user_id = ? AND removed_at IS NULL LIMIT 1").bind(userId).first()) !== null;
}

/** One of the person's passkeys that stands, by the credential id an answer names. */
export async function activePasskeyByCredential(db: Db, userId: string, credentialId: string): Promise<PasskeyRow | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = ? AND user_id = ? AND removed_at IS NULL`)
    .bind(credentialId, userId)
    .first<PasskeyRow>();
}

export interface NewPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: string;
}

/** Stores a new passkey, for the caller's batch (a credential already registered anywhere fails on its UNIQUE). */
export function insertPasskeyStatement(db: Db, passkey: NewPasskey): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (credential_id) DO NOTHING",
    )
    .bind(
      passkey.id,
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.counter,
      JSON.stringify(passkey.transports),
      passkey.name,
      passkey.createdAt,
    );
}

/**
 * Records a use, for the caller's batch: only while the passkey stands and its counter moved forward (or the
 * authenticator keeps none), so two answers with the same counter (a clone) cannot both pass.
 */
export function passkeyUsedStatement(db: Db, passkeyId: string, userId: string, newCounter: number, at: string): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE passkeys SET counter = ?1, last_used_at = ?2 WHERE id = ?3 AND user_id = ?4 AND removed_at IS NULL AND ((counter = 0 AND ?1 = 0) OR counter < ?1)",
    )
    .bind(newCounter, at, passkeyId, userId);
}

export function renamePasskeyStatement(db: Db, passkeyId: string, userId: string, name: string): D1PreparedStatement {
  return db.prepare("UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ? AND removed_at IS NULL").bind(name, passkeyId, userId);
}

/** Removes one of the person's passkeys, for the caller's batch; changes no row if it is not theirs or already removed. */
export function removePasskeyStatement(db: Db, passkeyId: string, userId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE passkeys SET removed_at = ? WHERE id = ? AND user_id = ? AND removed_at IS NULL").bind(at, passkeyId, userId);
}

export interface NewWebauthnChallenge {
  id: string;
  sessionId: string;
  userId: string;
  purpose: ChallengePurpose;
  binding: string | null;
  challenge: string;
  createdAt: string;
  expiresAt: string;
}

/** Stores a challenge, only while the session stands and is the person's (a revoked session asks for nothing). */
export async function insertWebauthnChallenge(db: Db, row: NewWebauthnChallenge): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO webauthn_challenges (id, session_id, user_id, purpose, binding, challenge, created_at, expires_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?2 AND user_id = ?3 AND revoked_at IS NULL)`,
    )
    .bind(row.id, row.sessionId, row.userId, row.purpose, row.binding, row.challenge, row.createdAt, row.expiresAt)
    .run();
  return (result.meta.changes ?? 0) === 1;
}

export interface ChallengeMatch {
  sessionId: string;
  userId: string;
  purpose: ChallengePurpose;
  binding: string | null;
}

/**
 * Uses up the challenge an answer names, if it is this session's and person's, for this purpose and binding, unused
 * and unexpired at `now`: one conditional UPDATE, so a replayed answer finds it used. Null when none was open.
 */
export async function consumeWebauthnChallenge(
  db: Db,
  challenge: string,
  match: ChallengeMatch,
  now: string,
): Promise<{ id: string; challenge: string } | null> {
  return db
    .prepare(
      `UPDATE webauthn_challenges SET used_at = ?1
       WHERE challenge = ?2 AND session_id = ?3 AND user_id = ?4 AND purpose = ?5 AND binding IS ?6 AND used_at IS NULL AND expires_at > ?1
       RETURNING id, challenge`,
    )
    .bind(now, challenge, match.sessionId, match.userId, match.purpose, match.binding)
    .first<{ id: string; challenge: string }>();
}

/** Uses up the challenge an answer names if it is this session's, whatever it was for (after a refused answer). */
export function voidNamedChallengeStatement(db: Db, challenge: string, sessionId: string, userId: string, now: string): D1PreparedStatement {
  return db
    .prepare("UPDATE webauthn_challenges SET used_at = ? WHERE challenge = ? AND session_id = ? AND user_id = ? AND used_at IS NULL")
    .bind(now, challenge, sessionId, userId);
}

/** Uses up every open challenge of the session for this purpose and binding (after a refused answer). */
export function voidWebauthnChallengesStatement(db: Db, match: ChallengeMatch, now: string): D1PreparedStatement {
  return db
    .prepare("UPDATE webauthn_challenges SET used_at = ? WHERE session_id = ? AND user_id = ? AND purpose = ? AND binding IS ? AND used_at IS NULL")
    .bind(now, match.sessionId, match.userId, match.purpose, match.binding);
}
