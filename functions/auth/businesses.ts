// The businesses a verified person may enter (SPEC: verifiedBusinesses).
import type { Role } from "../permissions";

export interface MemberBusiness {
  id: string;
  name: string;
  town: string;
  role: Role;
}

/** Active memberships of active businesses, by name; a statement so callers can batch it. */
export function memberBusinessesStatement(db: D1Database, userId: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT b.id, b.name, b.town, m.role FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.status = 'active' AND b.status = 'active' ORDER BY b.name`,
    )
    .bind(userId);
}

export async function listMemberBusinesses(db: D1Database, userId: string): Promise<MemberBusiness[]> {
  return (await memberBusinessesStatement(db, userId).all<MemberBusiness>()).results;
}
