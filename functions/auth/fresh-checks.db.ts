// Fresh checks (decision 027): the check rows, the one-time codes sent for a check, and the business's
// security policy. A check belongs to a session in the core database (like the codes and passkeys it comes from), so the
// check functions take db first and still bind the business; the policy is the business's own row, tenant first.
import type { ChallengeRow } from "./one-time-codes.db";
import type { Db, Tenant } from "../tenancy/tenant";

export type CheckMethod = "passkey" | "sms";

export interface NewFreshCheck {
  id: string;
  businessId: string;
  sessionId: string;
  userId: string;
  binding: string;
  method: CheckMethod;
  proofId: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * Records a check made, for the caller's batch; with `ifPreviousChanged`, only when the batch's previous statement
 * changed a row (the code it consumes: two requests with the right code make one check).
 */
export function insertFreshCheckStatement(db: Db, check: NewFreshCheck, ifPreviousChanged = false): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO fresh_checks (id, business_id, session_id, user_id, binding, method, proof_id, created_at, expires_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ifPreviousChanged ? "changes() = 1" : "1"}`,
    )
    .bind(check.id, check.businessId, check.sessionId, check.userId, check.binding, check.method, check.proofId, check.createdAt, check.expiresAt);
}

export interface CheckOwner {
  businessId: string;
  sessionId: string;
  userId: string;
}

/**
 * Uses up the newest open check of this session, person and business for exactly this binding (and, when only a
 * passkey does, made by one), for the caller's batch: RETURNING the check's id, or no row. Two actions cannot share one check.
 */
export function spendFreshCheckStatement(db: Db, owner: CheckOwner, binding: string, now: string, passkeyOnly: boolean): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE fresh_checks SET used_at = ?1
       WHERE id = (SELECT id FROM fresh_checks
                   WHERE session_id = ?2 AND user_id = ?3 AND business_id = ?4 AND binding = ?5 AND used_at IS NULL AND expires_at > ?1
                     AND (?6 = 0 OR method = 'passkey')
                   ORDER BY created_at DESC LIMIT 1)
         AND used_at IS NULL
       RETURNING id, method`,
    )
    .bind(now, owner.sessionId, owner.userId, owner.businessId, binding, passkeyOnly ? 1 : 0);
}

/** Gives a used check back when the action it allowed was refused (nothing was done with it). */
export async function giveBackFreshCheck(db: Db, checkId: string, businessId: string): Promise<void> {
  await db.prepare("UPDATE fresh_checks SET used_at = NULL WHERE id = ? AND business_id = ?").bind(checkId, businessId).run();
}

/** The newest open check for the binding, without using it: what the page says ("checked, 4 minutes left"). */
export async function openFreshCheck(db: Db, owner: CheckOwner, binding: string, now: string): Promise<{ expires_at: string; method: CheckMethod } | null> {
  return db
    .prepare(
      `SELECT expires_at, method FROM fresh_checks
       WHERE session_id = ? AND user_id = ? AND business_id = ? AND binding = ? AND used_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(owner.sessionId, owner.userId, owner.businessId, binding, now)
    .first<{ expires_at: string; method: CheckMethod }>();
}

/**
 * A batch_guards row that rolls a check code's batch back when the session has ended or a code for a check was sent
 * in the last cooldown, or the person's hourly windows are full (the sign-in code's own counters, otp_counters).
 */
export function checkCodeGuardStatement(
  db: Db,
  limits: { sessionId: string; userId: string; msisdn: string; cooldownEdge: string; phoneSends: number; accountSends: number; accountFailures: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO batch_guards (ok, reason) VALUES (coalesce((
         (SELECT sends FROM otp_counters WHERE scope = 'phone' AND key = ?3) <= ?5
         AND (SELECT sends FROM otp_counters WHERE scope = 'account' AND key = ?2) <= ?6
         AND (SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?2) < ?7
         AND NOT EXISTS (SELECT 1 FROM otp_challenges WHERE session_id = ?1 AND binding IS NOT NULL AND created_at > ?4)
         AND EXISTS (SELECT 1 FROM sessions WHERE id = ?1 AND user_id = ?2 AND revoked_at IS NULL AND stage = 'business_chosen')
       ), 0), 'check code limits')`,
    )
    .bind(limits.sessionId, limits.userId, limits.msisdn, limits.cooldownEdge, limits.phoneSends, limits.accountSends, limits.accountFailures);
}

/** When this session's newest check code was sent. */
export async function newestCheckCodeAt(db: Db, sessionId: string): Promise<{ created_at: string } | null> {
  return db
    .prepare("SELECT created_at FROM otp_challenges WHERE session_id = ? AND binding IS NOT NULL ORDER BY created_at DESC LIMIT 1")
    .bind(sessionId)
    .first<{ created_at: string }>();
}

/** The session's newest code for exactly this binding (a code sent for one action never checks another). */
export async function newestCheckCode(db: Db, sessionId: string, userId: string, binding: string): Promise<ChallengeRow | null> {
  return db
    .prepare(
      `SELECT id, msisdn, code_hmac, attempts, expires_at, consumed_at FROM otp_challenges
       WHERE session_id = ? AND user_id = ? AND binding = ? ORDER BY created_at DESC LIMIT 1`,
    )
    .bind(sessionId, userId, binding)
    .first<ChallengeRow>();
}

// ---------------------------------------------------------------- the business's security policy

export interface SecurityPolicy {
  decisionsNeedPasskey: boolean;
  version: number | null;
}

/** The business's policy; a business that never asked for one has every setting off. */
export async function getSecurityPolicy(tenant: Tenant): Promise<SecurityPolicy> {
  const row = await tenant.db
    .prepare("SELECT decisions_need_passkey, version FROM business_policies WHERE business_id = ?")
    .bind(tenant.businessId)
    .first<{ decisions_need_passkey: number; version: number }>();
  return { decisionsNeedPasskey: row?.decisions_need_passkey === 1, version: row?.version ?? null };
}

/** Makes the business's policy row (every setting off) if it has none, so a change to it can be asked for. */
export async function ensureSecurityPolicy(tenant: Tenant, at: string): Promise<void> {
  await tenant.db
    .prepare(
      "INSERT INTO business_policies (id, business_id, decisions_need_passkey, status, created_at, updated_at, version) VALUES (?, ?, 0, 'active', ?, ?, 1) ON CONFLICT (id) DO NOTHING",
    )
    .bind(tenant.businessId, tenant.businessId, at, at)
    .run();
}

/** The policy change waiting for approval, if any (one at a time). */
export async function pendingPolicyRequest(tenant: Tenant): Promise<string | null> {
  const row = await tenant.db
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'security_policy' AND status = 'pending' LIMIT 1")
    .bind(tenant.businessId)
    .first<{ id: string }>();
  return row?.id ?? null;
}
