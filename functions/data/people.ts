// The people who sign in (users, user_phones). A person is found before any business is chosen, so these take db first.
import type { Db } from "./tenant";

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
