// The platform's keys (migration 0030): the switch's credential, which acts for whichever business a request names in
// PP-Business, within its scopes. Kept as a business's api_keys are (functions/partner-api/api-keys.db.ts): only the
// SHA-256 of the key is stored (functions/partner-api/keys.ts makes and hashes keys), a rolled key works for the same
// grace, a revoked one stops at once. They belong to no business, so they live in the core database only, and their
// changes are audited on the platform's chain (business_id NULL) with the staff member as actor.
// Like the directory's (functions/tenancy/directory.db.ts), these take the core `db` first.
import { CURRENT_API_VERSION } from "../partner-api/versions";
import { signInAuditStatement } from "../audit/audit.db";
import type { NewKeyRow } from "../partner-api/api-keys.db";
import { NotFoundError, RuleError, type Db, type RequestMeta } from "../tenancy/tenant";
import { scopesOf, type PlatformScope } from "./platform-scopes";

export interface PlatformKey {
  id: string;
  name: string;
  prefix: string;
  scopes: PlatformScope[];
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

/** The platform key a request authenticated with. */
export interface PlatformKeyHolder {
  keyId: string;
  scopes: PlatformScope[];
  lastUsedAt: number | null;
  apiVersion: string;
}

/** Who changes a key: a member of the platform's staff. */
export interface PlatformActor {
  userId: string;
}

type KeyRow = Omit<PlatformKey, "scopes"> & { scopes: string };

const KEY_COLUMNS = `k.id, k.name, k.prefix, k.scopes, k.created_by AS createdBy, u.name AS createdByName, k.created_at AS createdAt,
  k.last_used_at AS lastUsedAt, k.expires_at AS expiresAt, k.rolled_to AS rolledTo, k.revoked_at AS revokedAt, k.api_version AS apiVersion`;

const toKey = (row: KeyRow): PlatformKey => ({ ...row, scopes: scopesOf(row.scopes) });

/** The platform's entries, unlike a business's, belong to no business: business_id NULL. */
const auditOf = (core: Db, actor: PlatformActor, meta: RequestMeta, facts: Parameters<typeof signInAuditStatement>[3]) =>
  signInAuditStatement({ userId: actor.userId, businessId: null }, core, meta, facts);

/** Live (not revoked, not expired) keys first, newest first; then the rest. Never the secret: only its hash is kept. */
export async function listPlatformKeys(core: Db, now: number): Promise<PlatformKey[]> {
  const { results } = await core
    .prepare(
      `SELECT ${KEY_COLUMNS} FROM platform_keys k LEFT JOIN users u ON u.id = k.created_by
       ORDER BY (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)) DESC, k.created_at DESC, k.id DESC LIMIT 200`,
    )
    .bind(now)
    .all<KeyRow>();
  return results.map(toKey);
}

export async function getPlatformKey(core: Db, keyId: string): Promise<PlatformKey> {
  const row = await core
    .prepare(`SELECT ${KEY_COLUMNS} FROM platform_keys k LEFT JOIN users u ON u.id = k.created_by WHERE k.id = ?`)
    .bind(keyId)
    .first<KeyRow>();
  if (!row) throw new NotFoundError("Platform key");
  return toKey(row);
}

/** A new key answers as the current version; a rolled key's successor keeps its predecessor's. */
function insertKeyStatement(
  core: Db,
  actor: PlatformActor,
  key: NewKeyRow,
  scopes: readonly PlatformScope[],
  now: number,
  apiVersion: string = CURRENT_API_VERSION,
): D1PreparedStatement {
  return core
    .prepare("INSERT INTO platform_keys (id, name, prefix, secret_hash, scopes, created_by, created_at, api_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .bind(key.id, key.name, key.prefix, key.secretHash, JSON.stringify(scopes), actor.userId, now, apiVersion);
}

/** A new key; the caller shows the key once (only its hash reaches D1, only its prefix the audit log). */
export async function createPlatformKey(
  core: Db,
  actor: PlatformActor,
  meta: RequestMeta,
  key: NewKeyRow,
  scopes: readonly PlatformScope[],
  now: number,
): Promise<void> {
  if (scopes.length === 0) throw new RuleError("Choose at least one scope.");
  await core.batch([
    insertKeyStatement(core, actor, key, scopes, now),
    auditOf(core, actor, meta, {
      action: "platform_key.create",
      entity: "platform_key",
      entityId: key.id,
      after: { name: key.name, prefix: key.prefix, scopes },
    }),
  ]);
}

/** The old key keeps working for `graceMs` (as a business's: 24 h) so the switch can change over; the new one, with the same scopes, works at once. */
export async function rollPlatformKey(
  core: Db,
  actor: PlatformActor,
  meta: RequestMeta,
  oldKeyId: string,
  key: NewKeyRow,
  graceMs: number,
  now: number,
): Promise<void> {
  const old = await getPlatformKey(core, oldKeyId);
  if (old.revokedAt !== null) throw new RuleError("This key was revoked; make a new key instead.");
  if (old.rolledTo !== null) throw new RuleError("This key was already rolled; roll its replacement instead.");
  const expiresAt = now + graceMs;
  const results = await core.batch([
    insertKeyStatement(core, actor, key, old.scopes, now, old.apiVersion),
    core
      .prepare("UPDATE platform_keys SET rolled_to = ?, expires_at = ? WHERE id = ? AND rolled_to IS NULL AND revoked_at IS NULL")
      .bind(key.id, expiresAt, oldKeyId),
    auditOf(core, actor, meta, {
      action: "platform_key.roll",
      entity: "platform_key",
      entityId: oldKeyId,
      before: { prefix: old.prefix },
      after: { rolledTo: key.id, prefix: key.prefix, scopes: old.scopes, oldKeyExpiresAt: new Date(expiresAt).toISOString() },
    }),
  ]);
  // Rolled or revoked by someone else meanwhile: undo the new key rather than leave two successors.
  if ((results[1]?.meta.changes ?? 0) !== 1) {
    await core.prepare("DELETE FROM platform_keys WHERE id = ?").bind(key.id).run();
    throw new RuleError("This key changed meanwhile. Reload the page and try again.");
  }
}

/** Stops the key at once (a rolled key's grace ends too). */
export async function revokePlatformKey(core: Db, actor: PlatformActor, meta: RequestMeta, keyId: string, now: number): Promise<void> {
  const key = await getPlatformKey(core, keyId);
  if (key.revokedAt !== null) throw new RuleError("This key is already revoked.");
  await core.batch([
    core.prepare("UPDATE platform_keys SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL").bind(now, actor.userId, keyId),
    auditOf(core, actor, meta, { action: "platform_key.revoke", entity: "platform_key", entityId: keyId, before: { name: key.name, prefix: key.prefix } }),
  ]);
}

/** The live key with this hash, if any (revoked and expired keys are no keys). */
export async function findPlatformKeyByHash(core: Db, secretHash: string, now: number): Promise<PlatformKeyHolder | null> {
  const row = await core
    .prepare(
      `SELECT id AS keyId, scopes, last_used_at AS lastUsedAt, api_version AS apiVersion FROM platform_keys
       WHERE secret_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)`,
    )
    .bind(secretHash, now)
    .first<{ keyId: string; scopes: string; lastUsedAt: number | null; apiVersion: string }>();
  return row ? { ...row, scopes: scopesOf(row.scopes) } : null;
}

/** Records use, at most once a minute per key, as a business's key does. */
export async function touchPlatformKey(core: Db, holder: PlatformKeyHolder, now: number): Promise<void> {
  await core
    .prepare("UPDATE platform_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
    .bind(now, holder.keyId, now - 60_000)
    .run();
}
