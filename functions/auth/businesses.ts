// The businesses a verified person may enter (SPEC: verifiedBusinesses).
import { memberBusinessesStatement, type MemberBusiness } from "../data/memberships";

export type { MemberBusiness } from "../data/memberships";

export async function listMemberBusinesses(db: D1Database, userId: string): Promise<MemberBusiness[]> {
  return (await memberBusinessesStatement(db, userId).all<MemberBusiness>()).results;
}
