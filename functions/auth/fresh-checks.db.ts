// Fresh checks (decision 027): the check rows and the business's security policy; the codes sent for a check are
// one-time codes like sign-in's (functions/auth/one-time-codes.db.ts). A check belongs to a session in the core database
// (like the codes and passkeys it comes from), so the check functions take db first and still bind the business; the
// policy is the business's own row, tenant first.
import type { Db, Tenant } from "../tenancy/tenant";

export type CheckMethod = "passkey" | "totp" | "sms";

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
