// A business's Partner API keys (migration 0010). The key itself is never
// stored: only its SHA-256 (functions/partner-api/keys.ts makes and hashes keys). A key
// is found by its hash, so a wrong key costs one index look-up and says nothing
// about which business exists.
import { CURRENT_API_VERSION } from "./versions";
import { auditStatement } from "../audit/audit.db";
import { NotFoundError, RuleError, type BusinessDb, type RequestMeta, type Tenant } from "../tenancy/tenant";
import type { Role } from "../permissions";

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  /** A rolled key works until then. */
  expiresAt: number | null;
  rolledTo: string | null;
  revokedAt: number | null;
  /** The Partner API version the key answers as (functions/partner-api/versions.ts). */
  apiVersion: string;
}

/** The key a request authenticated with. */
export interface KeyHolder {
  keyId: string;
  businessId: string;
  lastUsedAt: number | null;
  apiVersion: string;
  /** The business's own row says suspended (businesses.status); the directory's lifecycle says it too, where the platform sets it. */
  suspended: boolean;
}

export interface NewKeyRow {
  id: string;
  name: string;
  prefix: string;
  secretHash: string;
}

const KEY_COLUMNS = `k.id, k.name, k.prefix, k.created_by AS createdBy, u.name AS createdByName, k.created_at AS createdAt, k.last_used_at AS lastUsedAt,
  k.expires_at AS expiresAt, k.rolled_to AS rolledTo, k.revoked_at AS revokedAt, k.api_version AS apiVersion`;

/** Live (not revoked, not expired) keys of the business first, newest first; then the rest. */
export async function listApiKeys(tenant: Tenant): Promise<ApiKey[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT ${KEY_COLUMNS} FROM api_keys k LEFT JOIN users u ON u.id = k.created_by
       WHERE k.business_id = ? ORDER BY (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)) DESC, k.created_at DESC, k.id DESC LIMIT 200`,
    )
    .bind(tenant.businessId, Date.now())
    .all<ApiKey>();
  return results;
}

async function getApiKey(tenant: Tenant, keyId: string): Promise<ApiKey> {
  const { db } = tenant;
  const row = await db
    .prepare(`SELECT ${KEY_COLUMNS} FROM api_keys k LEFT JOIN users u ON u.id = k.created_by WHERE k.business_id = ? AND k.id = ?`)
    .bind(tenant.businessId, keyId)
    .first<ApiKey>();
  if (!row) throw new NotFoundError("API key");
  return row;
}

/** A new key answers as the current version; a rolled key's successor keeps its predecessor's. */
function insertKeyStatement(tenant: Tenant, key: NewKeyRow, now: number, apiVersion: string = CURRENT_API_VERSION): D1PreparedStatement {
  const { db } = tenant;
  return db
    .prepare("INSERT INTO api_keys (id, business_id, name, prefix, secret_hash, created_by, created_at, api_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(key.id, tenant.businessId, key.name, key.prefix, key.secretHash, tenant.userId || null, now, apiVersion);
}

/** A new key; the caller shows the key once (only its hash reaches D1). */
export async function createApiKey(tenant: Tenant, meta: RequestMeta, key: NewKeyRow, now = Date.now()): Promise<void> {
  const { db } = tenant;
  await db.batch([
    insertKeyStatement(tenant, key, now),
    auditStatement(tenant, meta, { action: "api_key.create", entity: "api_key", entityId: key.id, after: { name: key.name, prefix: key.prefix } }),
  ]);
}

/** The old key keeps working for `graceMs` (24 h) so the processor can switch; the new one works at once. */
export async function rollApiKey(tenant: Tenant, meta: RequestMeta, oldKeyId: string, key: NewKeyRow, graceMs: number, now = Date.now()): Promise<void> {
  const { db } = tenant;
  const old = await getApiKey(tenant, oldKeyId);
  if (old.revokedAt !== null) throw new RuleError("This key was revoked; make a new key instead.");
  if (old.rolledTo !== null) throw new RuleError("This key was already rolled; roll its replacement instead.");
  const expiresAt = now + graceMs;
  const results = await db.batch([
    insertKeyStatement(tenant, key, now, old.apiVersion),
    db
      .prepare("UPDATE api_keys SET rolled_to = ?, expires_at = ? WHERE business_id = ? AND id = ? AND rolled_to IS NULL AND revoked_at IS NULL")
      .bind(key.id, expiresAt, tenant.businessId, oldKeyId),
    auditStatement(tenant, meta, {
      action: "api_key.roll",
      entity: "api_key",
      entityId: oldKeyId,
      before: { prefix: old.prefix },
      after: { rolledTo: key.id, prefix: key.prefix, oldKeyExpiresAt: new Date(expiresAt).toISOString() },
    }),
  ]);
  // Rolled or revoked by someone else meanwhile: undo the new key rather than leave two successors.
  if ((results[1]?.meta.changes ?? 0) !== 1) {
    await db.prepare("DELETE FROM api_keys WHERE business_id = ? AND id = ?").bind(tenant.businessId, key.id).run();
    throw new RuleError("This key changed meanwhile. Reload the page and try again.");
  }
}

/** Stops the key at once (a rolled key's grace ends too). */
export async function revokeApiKey(tenant: Tenant, meta: RequestMeta, keyId: string, now = Date.now()): Promise<void> {
  const { db } = tenant;
  const key = await getApiKey(tenant, keyId);
  if (key.revokedAt !== null) throw new RuleError("This key is already revoked.");
  await db.batch([
    db
      .prepare("UPDATE api_keys SET revoked_at = ?, revoked_by = ? WHERE business_id = ? AND id = ? AND revoked_at IS NULL")
      .bind(now, tenant.userId || null, tenant.businessId, keyId),
    auditStatement(tenant, meta, { action: "api_key.revoke", entity: "api_key", entityId: keyId, before: { name: key.name, prefix: key.prefix } }),
  ]);
}

/**
 * The business's live key with this hash, if any (revoked and expired keys are no keys); the directory (keyPlace) said
 * which business. A suspended business's key is found, and says so: the router answers it 403 "business suspended"
 * rather than the 401 of a key that is no key, so the business's developers know why.
 */
export async function findKeyByHash({ businessId, db }: BusinessDb, secretHash: string, now: number): Promise<KeyHolder | null> {
  const row = await db
    .prepare(
      `SELECT k.id AS keyId, k.business_id AS businessId, k.last_used_at AS lastUsedAt, k.api_version AS apiVersion, b.status <> 'active' AS suspended
       FROM api_keys k JOIN businesses b ON b.id = k.business_id
       WHERE k.secret_hash = ? AND k.business_id = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)`,
    )
    .bind(secretHash, businessId, now)
    .first<Omit<KeyHolder, "suspended"> & { suspended: number }>();
  return row ? { ...row, suspended: row.suspended === 1 } : null;
}

/** Records use, at most once a minute per key (a write per request would cost more than it tells). */
export async function touchApiKey({ db }: BusinessDb, holder: KeyHolder, now: number): Promise<void> {
  await db
    .prepare("UPDATE api_keys SET last_used_at = ? WHERE business_id = ? AND id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
    .bind(now, holder.businessId, holder.keyId, now - 60_000)
    .run();
}

/**
 * The person who made the key and their role in its business now, when they are still an active member: a refund
 * asked through the API is asked in their name (functions/refunds/partner-api.ts). Null for a key made with no person
 * recorded, or whose maker left the business.
 */
export async function activeKeyMakerOf({ businessId, db }: BusinessDb, keyId: string): Promise<{ userId: string; role: Role } | null> {
  return db
    .prepare(
      `SELECT m.user_id AS userId, m.role FROM api_keys k
       JOIN memberships m ON m.business_id = k.business_id AND m.user_id = k.created_by AND m.status = 'active'
       JOIN users u ON u.id = m.user_id AND u.status = 'active'
       WHERE k.business_id = ? AND k.id = ?`,
    )
    .bind(businessId, keyId)
    .first<{ userId: string; role: Role }>();
}
