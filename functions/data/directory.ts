// The core database's directory (decision 021): which database holds each business, which business an API key
// belongs to, and the copies of people and memberships that sign-in reads before a business is chosen. These take the
// core `db` first: they are how a business's database is found, so they cannot be reached through it.
import type { Db, Tenant } from "./tenant";

export interface BusinessPlace {
  businessId: string;
  shard: string;
  /** Set while a move runs: the business is read-only. */
  movingTo: string | null;
}

interface PlaceRow {
  business_id: string;
  shard: string;
  moving_to: string | null;
}

const toPlace = (row: PlaceRow): BusinessPlace => ({ businessId: row.business_id, shard: row.shard, movingTo: row.moving_to });

export async function businessPlace(core: Db, businessId: string): Promise<BusinessPlace | null> {
  const row = await core.prepare("SELECT business_id, shard, moving_to FROM business_shards WHERE business_id = ?").bind(businessId).first<PlaceRow>();
  return row ? toPlace(row) : null;
}

/** Every business with its database, for the jobs that visit them all (clearing, settlement, webhooks, the archive). */
export async function businessPlaces(core: Db, options: { activeOnly?: boolean } = {}): Promise<BusinessPlace[]> {
  const active = options.activeOnly ? "JOIN businesses b ON b.id = d.business_id AND b.status = 'active'" : "";
  const { results } = await core.prepare(`SELECT d.business_id, d.shard, d.moving_to FROM business_shards d ${active} ORDER BY d.business_id`).all<PlaceRow>();
  return results.map(toPlace);
}

/** Places a business (the seed, a new business): a statement for the caller's batch. */
export function placeBusinessStatement(core: Db, businessId: string, shard: string, at: string): D1PreparedStatement {
  return core
    .prepare(
      `INSERT INTO business_shards (business_id, shard, moving_to, updated_at) VALUES (?, ?, NULL, ?)
       ON CONFLICT (business_id) DO UPDATE SET shard = excluded.shard, moving_to = NULL, updated_at = excluded.updated_at`,
    )
    .bind(businessId, shard, at);
}

/** Marks the start of a move; false when another move of the business is under way or it is already there. */
export async function startMove(core: Db, businessId: string, to: string, at: string): Promise<boolean> {
  const result = await core
    .prepare("UPDATE business_shards SET moving_to = ?, updated_at = ? WHERE business_id = ? AND moving_to IS NULL AND shard <> ?")
    .bind(to, at, businessId, to)
    .run();
  return result.meta.changes === 1;
}

/** The switch: from now on the business is read and written on `to`. Only the move that started it can finish it. */
export async function finishMove(core: Db, businessId: string, to: string, at: string): Promise<boolean> {
  const result = await core
    .prepare("UPDATE business_shards SET shard = moving_to, moving_to = NULL, updated_at = ? WHERE business_id = ? AND moving_to = ?")
    .bind(at, businessId, to)
    .run();
  return result.meta.changes === 1;
}

/** A move given up before the switch: the business stays where it was. */
export async function abandonMove(core: Db, businessId: string, to: string, at: string): Promise<void> {
  await core.prepare("UPDATE business_shards SET moving_to = NULL, updated_at = ? WHERE business_id = ? AND moving_to = ?").bind(at, businessId, to).run();
}

// ---------------------------------------------------------------- the Partner API's keys

/** Written before the key itself (on the business's database): an entry whose key never landed finds no key. */
export function registerKeyHashStatement(core: Db, businessId: string, secretHash: string): D1PreparedStatement {
  return core.prepare("INSERT OR IGNORE INTO api_key_directory (secret_hash, business_id) VALUES (?, ?)").bind(secretHash, businessId);
}

/** Which business a key hash names, and where that business is. */
export async function keyPlace(core: Db, secretHash: string): Promise<BusinessPlace | null> {
  const row = await core
    .prepare(
      `SELECT d.business_id, d.shard, d.moving_to FROM api_key_directory k JOIN business_shards d ON d.business_id = k.business_id
       WHERE k.secret_hash = ?`,
    )
    .bind(secretHash)
    .first<PlaceRow>();
  return row ? toPlace(row) : null;
}

// ---------------------------------------------------------------- people

/** The account an email already has (any business, any database), so an invitation is for that account. */
export async function accountIdByEmail(core: Db, email: string): Promise<string | null> {
  return (await core.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>())?.id ?? null;
}

/**
 * Copies a member of the tenant's business (the person, their phones, the membership) from the business's database to
 * the core one, after an approved employee change: sign-in finds people and their businesses there. The business's
 * copy decides what a person may do (requireBusiness reads it at every request); this one only lists and signs in.
 */
export async function copyMemberToCore(core: Db, tenant: Tenant, userId: string): Promise<void> {
  const [people, phones, memberships] = await tenant.db.batch([
    tenant.db
      .prepare(
        "SELECT u.id, u.email, u.name, u.gender, u.status, u.created_at FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = ? AND m.user_id = ?",
      )
      .bind(tenant.businessId, userId),
    tenant.db
      .prepare(
        "SELECT p.user_id, p.msisdn, p.created_at FROM memberships m JOIN user_phones p ON p.user_id = m.user_id WHERE m.business_id = ? AND m.user_id = ?",
      )
      .bind(tenant.businessId, userId),
    tenant.db
      .prepare("SELECT business_id, user_id, role, status, created_at, updated_at, version FROM memberships WHERE business_id = ? AND user_id = ?")
      .bind(tenant.businessId, userId),
  ]);
  const person = people?.results[0] as Record<string, unknown> | undefined;
  const membership = memberships?.results[0] as Record<string, unknown> | undefined;
  if (!person || !membership) return;
  await core.batch([
    core
      .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")
      .bind(person.id, person.email, person.name, person.gender, person.status, person.created_at),
    ...((phones?.results ?? []) as Record<string, unknown>[]).map((phone) =>
      core.prepare("INSERT OR IGNORE INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(phone.user_id, phone.msisdn, phone.created_at),
    ),
    core
      .prepare(
        `INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (business_id, user_id) DO UPDATE SET role = excluded.role, status = excluded.status, updated_at = excluded.updated_at, version = excluded.version`,
      )
      .bind(membership.business_id, membership.user_id, membership.role, membership.status, membership.created_at, membership.updated_at, membership.version),
  ]);
}
