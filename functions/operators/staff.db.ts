// The platform's staff (migration 0030): who they are and what role they hold. Core database only; reads take the core
// `db` first, as the directory's do (functions/tenancy/directory.db.ts).
import type { Db } from "../tenancy/tenant";
import type { PlatformRole } from "./roles";

export interface PlatformStaffMember {
  userId: string;
  name: string;
  email: string;
  role: PlatformRole;
}

/** An active staff member whose person is active too; a statement, so the guard can batch it with the session's read. */
export function platformStaffStatement(core: Db, userId: string): D1PreparedStatement {
  return core
    .prepare(
      `SELECT p.user_id AS userId, u.name, u.email, p.role FROM platform_staff p JOIN users u ON u.id = p.user_id
       WHERE p.user_id = ? AND p.status = 'active' AND u.status = 'active'`,
    )
    .bind(userId);
}

export async function platformStaffMember(core: Db, userId: string): Promise<PlatformStaffMember | null> {
  return platformStaffStatement(core, userId).first<PlatformStaffMember>();
}

/** Every staff member, administrators first, for the platform's own screens (who may decide). */
export async function listPlatformStaff(core: Db): Promise<(PlatformStaffMember & { status: "active" | "disabled" })[]> {
  const { results } = await core
    .prepare(
      `SELECT p.user_id AS userId, u.name, u.email, p.role, p.status FROM platform_staff p JOIN users u ON u.id = p.user_id
       ORDER BY p.role, u.name`,
    )
    .all<PlatformStaffMember & { status: "active" | "disabled" }>();
  return results;
}
