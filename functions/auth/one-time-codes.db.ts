// One-time codes (otp_challenges) and their hourly counters (otp_counters), for every purpose: a sign-in code names no
// binding, a code for a fresh check (or a phone's proof) names the action it is for. Codes live in the core database
// beside the sessions they belong to, so these take db first. The rules they enforce are in
// functions/auth/one-time-codes.ts.
import type { Db } from "../tenancy/tenant";

/** The session stage a code may be asked for in (functions/auth/sign-in-sessions.db.ts). */
export type CodeStage = "identified" | "verified" | "business_chosen";

export type CounterScope = "phone" | "account";

export interface CounterRow {
  window_start: number;
  sends: number;
  failures: number;
}

export async function counterRow(db: Db, scope: CounterScope, key: string): Promise<CounterRow | null> {
  return db.prepare("SELECT window_start, sends, failures FROM otp_counters WHERE scope = ? AND key = ?").bind(scope, key).first<CounterRow>();
}

// Counts one event for (scope, key) in its hourly window (a send budget's key carries its prefix: "check:" + the number); a window that has ended starts again.
const COUNT_SQL = (column: "sends" | "failures") => `INSERT INTO otp_counters (scope, key, window_start, sends, failures)
VALUES (?1, ?2, ?3, ${column === "sends" ? "1, 0" : "0, 1"})
ON CONFLICT (scope, key) DO UPDATE SET
  sends = CASE WHEN window_start <= ?4 THEN ${column === "sends" ? 1 : 0} ELSE sends ${column === "sends" ? "+ 1" : ""} END,
  failures = CASE WHEN window_start <= ?4 THEN ${column === "failures" ? 1 : 0} ELSE failures ${column === "failures" ? "+ 1" : ""} END,
  window_start = CASE WHEN window_start <= ?4 THEN ?3 ELSE window_start END`;

/** Counts one code sent or one wrong code for (scope, key), for the caller's batch; a window started at or before `windowEdge` has ended. */
export function countStatement(db: Db, column: "sends" | "failures", scope: CounterScope, key: string, now: number, windowEdge: number): D1PreparedStatement {
  return db.prepare(COUNT_SQL(column)).bind(scope, key, now, windowEdge);
}

/** The account's wrong codes as the batch left them. */
export function accountFailuresStatement(db: Db, userId: string): D1PreparedStatement {
  return db.prepare("SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?").bind(userId);
}

export interface SendLimits {
  /** The send budget's own counters (the number, the account, under the budget's key prefix). */
  phoneKey: string;
  phoneSends: number;
  userId: string;
  accountKey: string;
  accountSends: number;
  accountFailures: number;
  sessionId: string;
  /** A code for the same thing (sign-in's: none; a check's: its binding) newer than this holds up the next one. */
  cooldownEdge: string;
  binding: string | null;
  /** A window started at or before this has ended: the wrong codes of an ended hour lock nothing (a budget's sends may not restart it). */
  windowEdge: number;
  /** The stage the session must still be in. */
  stage: CodeStage;
}

/** A batch_guards row that rolls the send batch back if a limit, the cooldown or the session says no. */
export function sendGuardStatement(db: Db, limits: SendLimits): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO batch_guards (ok, reason) VALUES (coalesce((
         (SELECT sends FROM otp_counters WHERE scope = 'phone' AND key = ?1) <= ?2
         AND (SELECT sends FROM otp_counters WHERE scope = 'account' AND key = ?10) <= ?4
         AND coalesce((SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?3 AND window_start > ?11), 0) < ?5
         AND NOT EXISTS (SELECT 1 FROM otp_challenges WHERE session_id = ?6 AND binding IS ?8 AND created_at > ?7)
         AND EXISTS (SELECT 1 FROM sessions WHERE id = ?6 AND user_id = ?3 AND revoked_at IS NULL AND stage = ?9)
       ), 0), 'code send limits')`,
    )
    .bind(
      limits.phoneKey,
      limits.phoneSends,
      limits.userId,
      limits.accountSends,
      limits.accountFailures,
      limits.sessionId,
      limits.cooldownEdge,
      limits.binding,
      limits.stage,
      limits.accountKey,
      limits.windowEdge,
    );
}

export interface NewChallenge {
  id: string;
  sessionId: string;
  userId: string;
  msisdn: string;
  codeHmac: string;
  createdAt: string;
  expiresAt: string;
  /** The action a code for a fresh check is for (functions/auth/fresh-check.ts); null for a sign-in code. */
  binding: string | null;
}

export function insertChallengeStatement(db: Db, challenge: NewChallenge): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO otp_challenges (id, session_id, user_id, msisdn, code_hmac, attempts, created_at, expires_at, binding) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
    )
    .bind(
      challenge.id,
      challenge.sessionId,
      challenge.userId,
      challenge.msisdn,
      challenge.codeHmac,
      challenge.createdAt,
      challenge.expiresAt,
      challenge.binding,
    );
}

export function deleteChallengeStatement(db: Db, challengeId: string): D1PreparedStatement {
  return db.prepare("DELETE FROM otp_challenges WHERE id = ?").bind(challengeId);
}

/** When the session's newest code for the same thing (sign-in, or one binding) was made (the resend cooldown). */
export async function newestChallengeAt(db: Db, sessionId: string, binding: string | null): Promise<{ created_at: string } | null> {
  return db
    .prepare("SELECT created_at FROM otp_challenges WHERE session_id = ? AND binding IS ? ORDER BY created_at DESC LIMIT 1")
    .bind(sessionId, binding)
    .first<{ created_at: string }>();
}

export interface ChallengeRow {
  id: string;
  msisdn: string;
  code_hmac: string;
  attempts: number;
  expires_at: string;
  consumed_at: string | null;
}

/** The session's newest code for exactly this binding (none for sign-in): a code sent for one action never checks another. */
export async function newestChallenge(db: Db, sessionId: string, userId: string, binding: string | null): Promise<ChallengeRow | null> {
  return db
    .prepare(
      "SELECT id, msisdn, code_hmac, attempts, expires_at, consumed_at FROM otp_challenges WHERE session_id = ? AND user_id = ? AND binding IS ? ORDER BY created_at DESC LIMIT 1",
    )
    .bind(sessionId, userId, binding)
    .first<ChallengeRow>();
}

/** Counts one try at a code still open at `now`, if it has tries left; null when it had none (or was used or expired). */
export async function countTry(db: Db, challengeId: string, maxTries: number, now: string): Promise<{ attempts: number } | null> {
  return db
    .prepare("UPDATE otp_challenges SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND consumed_at IS NULL AND expires_at > ? RETURNING attempts")
    .bind(challengeId, maxTries, now)
    .first<{ attempts: number }>();
}

/** A code's state, read back after a try was refused. */
export async function challengeState(db: Db, challengeId: string): Promise<ChallengeRow | null> {
  return db.prepare("SELECT attempts, consumed_at, expires_at FROM otp_challenges WHERE id = ?").bind(challengeId).first<ChallengeRow>();
}

/** Uses a code up, for the caller's batch; changes no row if it was already used. */
export function consumeChallengeStatement(db: Db, challengeId: string, at: string): D1PreparedStatement {
  return db.prepare("UPDATE otp_challenges SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL").bind(at, challengeId);
}
