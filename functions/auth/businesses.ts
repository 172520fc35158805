// The businesses a verified person may enter (SPEC: verifiedBusinesses).
import { memberBusinessesStatement, type MemberBusiness } from "../team/memberships.db";

export type { MemberBusiness } from "../team/memberships.db";

export async function listMemberBusinesses(db: D1Database, userId: string): Promise<MemberBusiness[]> {
  return (await memberBusinessesStatement(db, userId).all<MemberBusiness>()).results;
}
