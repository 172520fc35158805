// The businesses a verified person may enter (SPEC: verifiedBusinesses).
import type { Role } from "../permissions";

export interface MemberBusiness {
  id: string;
  name: string;
  town: string;
  role: Role;
}

export async function listMemberBusinesses(db: D1Database, userId: string): Promise<MemberBusiness[]> {
  const { results } = await db
    .prepare(
      `SELECT b.id, b.name, b.town, m.role FROM memberships m JOIN businesses b ON b.id = m.business_id
       WHERE m.user_id = ? AND m.status = 'active' AND b.status = 'active' ORDER BY b.name`,
    )
    .bind(userId)
    .all<MemberBusiness>();
  return results;
}
