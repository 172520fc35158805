// The people who sign in (users, user_phones). A person is found before any business is chosen, so these take db first.
import type { Db } from "../tenancy/tenant";

/** The active person with this (lower-case) email, if any. */
export async function activeUserByEmail(db: Db, email: string): Promise<{ id: string } | null> {
  return db.prepare("SELECT id FROM users WHERE email = ? AND status = 'active'").bind(email).first<{ id: string }>();
}

/** The numbers linked to the person, oldest first. */
export async function linkedNumbers(db: Db, userId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY created_at, msisdn").bind(userId).all<{ msisdn: string }>();
  return results.map((row) => row.msisdn);
}

export async function isLinkedNumber(db: Db, userId: string, msisdn: string): Promise<boolean> {
  const linked = await db.prepare("SELECT 1 AS ok FROM user_phones WHERE user_id = ? AND msisdn = ?").bind(userId, msisdn).first<{ ok: number }>();
  return linked !== null;
}

/**
 * Links a number as a way to sign in, for the caller's batch: only after its owner proved it (functions/auth/phones.ts,
 * decision 029). A number that came with an invitation and is proved again becomes the owner's.
 */
export function linkProvenPhoneStatement(db: Db, userId: string, msisdn: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO user_phones (user_id, msisdn, created_at, linked_by) SELECT ?, ?, ?, 'owner' WHERE EXISTS (SELECT 1 FROM users WHERE id = ?)
       ON CONFLICT (user_id, msisdn) DO UPDATE SET linked_by = 'owner'`,
    )
    .bind(userId, msisdn, at, userId);
}
