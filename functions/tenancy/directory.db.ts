// The core database's directory (decision 021): which database holds each business, which business an API key
// belongs to, and the copies of people and memberships that sign-in reads before a business is chosen. These take the
// core `db` first: they are how a business's database is found, so they cannot be reached through it.
import type { Db, Tenant } from "./tenant";

/** Where a business stands with the platform (migration 0030): suspended refuses its people and keys, closed is read-only. */
export type BusinessLifecycle = "active" | "suspended" | "closed";

export interface BusinessPlace {
  businessId: string;
  shard: string;
  /** Set while a move runs: the business is read-only. */
  movingTo: string | null;
  /** Where it stands with the platform (decision 039). */
  lifecycle: BusinessLifecycle;
}

interface PlaceRow {
  business_id: string;
  shard: string;
  moving_to: string | null;
  lifecycle: BusinessLifecycle;
}

const toPlace = (row: PlaceRow): BusinessPlace => ({ businessId: row.business_id, shard: row.shard, movingTo: row.moving_to, lifecycle: row.lifecycle });

export async function businessPlace(core: Db, businessId: string): Promise<BusinessPlace | null> {
  const row = await core
    .prepare("SELECT business_id, shard, moving_to, lifecycle FROM business_shards WHERE business_id = ?")
    .bind(businessId)
    .first<PlaceRow>();
  return row ? toPlace(row) : null;
}

/** Every business with its database, for the jobs that visit them all (clearing, settlement, webhooks, the archive). */
export async function businessPlaces(core: Db, options: { activeOnly?: boolean } = {}): Promise<BusinessPlace[]> {
  // A suspended business's jobs wait (no payouts, no webhooks) until it is reactivated; a closed one's still run out.
  const active = options.activeOnly ? "JOIN businesses b ON b.id = d.business_id AND b.status = 'active' AND d.lifecycle <> 'suspended'" : "";
  const { results } = await core
    .prepare(`SELECT d.business_id, d.shard, d.moving_to, d.lifecycle FROM business_shards d ${active} ORDER BY d.business_id`)
    .all<PlaceRow>();
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
      `SELECT d.business_id, d.shard, d.moving_to, d.lifecycle FROM api_key_directory k JOIN business_shards d ON d.business_id = k.business_id
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

/** A person as the core database knows them: their own name and the numbers they sign in with. */
export interface CoreAccount {
  id: string;
  email: string;
  name: string;
  gender: "female" | "male" | "unspecified";
  status: "active" | "disabled";
  createdAt: string;
  phones: { msisdn: string; createdAt: string; linkedBy: "invitation" | "owner" }[];
}

/**
 * What the core database holds for an invitation about to be approved: the accounts that have its email or its target
 * id (none for a new person; one for an existing account; two when they name different people, which the engine
 * refuses as stale). Read by the checker's request, just before the approval's batch.
 */
export async function accountsForInvitation(core: Db, email: string, targetId: string): Promise<CoreAccount[]> {
  const [people, phones] = await core.batch([
    core.prepare("SELECT id, email, name, gender, status, created_at AS createdAt FROM users WHERE email = ? OR id = ? LIMIT 2").bind(email, targetId),
    core
      .prepare(
        "SELECT p.user_id AS userId, p.msisdn, p.created_at AS createdAt, p.linked_by AS linkedBy FROM user_phones p JOIN users u ON u.id = p.user_id WHERE u.email = ? OR u.id = ? ORDER BY p.created_at, p.msisdn",
      )
      .bind(email, targetId),
  ]);
  const numbers = (phones?.results ?? []) as (CoreAccount["phones"][number] & { userId: string })[];
  return ((people?.results ?? []) as Omit<CoreAccount, "phones">[]).map((person) => ({
    ...person,
    phones: numbers.filter((p) => p.userId === person.id).map(({ msisdn, createdAt, linkedBy }) => ({ msisdn, createdAt, linkedBy })),
  }));
}

/**
 * Copies a member of the tenant's business from the business's database to the core one, after an approved employee
 * change: sign-in finds people and their businesses there. The business's copy decides what a person may do
 * (requireBusiness reads it at every request); this one only lists and signs in.
 *
 * Only the membership is the business's to copy. A person and their phones are written here only when this copy makes
 * the account (a new person's invitation, decision 029): plain INSERTs, so if the email got an account meanwhile the
 * batch fails and nothing is added to that account. An existing account's name, email and phones are never touched.
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
        "SELECT p.user_id, p.msisdn, p.created_at, p.linked_by FROM memberships m JOIN user_phones p ON p.user_id = m.user_id WHERE m.business_id = ? AND m.user_id = ?",
      )
      .bind(tenant.businessId, userId),
    tenant.db
      .prepare("SELECT business_id, user_id, role, status, created_at, updated_at, version FROM memberships WHERE business_id = ? AND user_id = ?")
      .bind(tenant.businessId, userId),
  ]);
  const person = people?.results[0] as Record<string, unknown> | undefined;
  const membership = memberships?.results[0] as Record<string, unknown> | undefined;
  if (!person || !membership) return;
  const known = await core.prepare("SELECT 1 AS one FROM users WHERE id = ?").bind(userId).first<{ one: number }>();
  const newAccount = known
    ? []
    : [
        core
          .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, ?, ?, ?)")
          .bind(person.id, person.email, person.name, person.gender, person.status, person.created_at),
        // Only the number the invitation gave: the new account's first way to sign in.
        ...((phones?.results ?? []) as Record<string, unknown>[])
          .filter((phone) => phone.linked_by === "invitation")
          .map((phone) =>
            core
              .prepare("INSERT INTO user_phones (user_id, msisdn, created_at, linked_by) VALUES (?, ?, ?, 'invitation')")
              .bind(phone.user_id, phone.msisdn, phone.created_at),
          ),
      ];
  await core.batch([
    ...newAccount,
    core
      .prepare(
        `INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (business_id, user_id) DO UPDATE SET role = excluded.role, status = excluded.status, updated_at = excluded.updated_at, version = excluded.version`,
      )
      .bind(membership.business_id, membership.user_id, membership.role, membership.status, membership.created_at, membership.updated_at, membership.version),
  ]);
}

/** The databases that hold a copy of the person (one per business they belong to), for a change of their own phones. */
export async function memberShards(core: Db, userId: string): Promise<{ businessId: string; shard: string }[]> {
  const { results } = await core
    .prepare("SELECT m.business_id AS businessId, d.shard FROM memberships m JOIN business_shards d ON d.business_id = m.business_id WHERE m.user_id = ?")
    .bind(userId)
    .all<{ businessId: string; shard: string }>();
  return results;
}
