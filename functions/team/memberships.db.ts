// Which businesses a person belongs to, and as what. Read while signing in, before a tenant exists:
// a person's list of businesses takes db first; a read of one business takes the member ({ userId, businessId }) first and binds business_id.
import type { Db } from "../tenancy/tenant";
import type { Role } from "../permissions";

export interface MemberBusiness {
  id: string;
  name: string;
  town: string;
  role: Role;
}

/** Active memberships of active businesses, by name; a statement so callers can batch it. */
export function memberBusinessesStatement(db: Db, userId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.id, b.name, b.town, m.role FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.status = 'active' AND b.status = 'active' ORDER BY b.name`,
    )
    .bind(userId);
}

/** The names of businesses the person is an active member of that the platform suspended: sign-in says why they are not offered. */
export async function suspendedMemberBusinesses(db: Db, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT b.name FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.status = 'active' AND b.status = 'suspended' ORDER BY b.name`,
    )
    .bind(userId)
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

/** The businesses a verified person may enter (SPEC: verifiedBusinesses). */
export async function listMemberBusinesses(db: Db, userId: string): Promise<MemberBusiness[]> {
  return (await memberBusinessesStatement(db, userId).all<MemberBusiness>()).results;
}

export interface Member {
  userId: string;
  businessId: string;
}

/** The member's role, if the membership and the business are both active. */
export async function membershipRole(member: Member, db: Db): Promise<Role | null> {
  const row = await membershipRoleStatement(member, db).first<{ role: Role }>();
  return row?.role ?? null;
}

/** membershipRole's statement (one row, `role`, or none), for the guards (read beside the session row: functions/auth/guards.ts). */
export function membershipRoleStatement(member: Member, db: Db): D1PreparedStatement {
  return db
    .prepare(
      `SELECT m.role FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.business_id = ? AND m.status = 'active' AND b.status = 'active'`,
    )
    .bind(member.userId, member.businessId);
}

export interface MemberProfileRow {
  name: string;
  gender: "female" | "male" | "unspecified";
  role: Role;
  business_name: string;
  logo_url: string | null;
  contact_number: string;
  contact_email: string;
  town: string;
  region: string;
  sector: string;
  identifier: string;
}

/** The person and their business's profile, if the person, the membership and the business are active; for a batch. */
export function memberProfileStatement(member: Member, db: Db): D1PreparedStatement {
  return db
    .prepare(
      `SELECT u.name, u.gender, m.role, b.name AS business_name, b.logo_url, b.contact_number, b.contact_email, b.town, b.region, b.sector, b.identifier
       FROM users u JOIN memberships m ON m.user_id = u.id JOIN businesses b ON b.id = m.business_id
       WHERE u.id = ? AND m.business_id = ? AND m.status = 'active' AND b.status = 'active' AND u.status = 'active'`,
    )
    .bind(member.userId, member.businessId);
}
