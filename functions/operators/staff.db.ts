// The platform's staff (migration 0030): who they are and what role they hold. Core database only; reads take the core
// `db` first, as the directory's do (functions/tenancy/directory.db.ts).
import { signInAuditStatement } from "../audit/audit.db";
import type { Db, RequestMeta } from "../tenancy/tenant";
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

/** What the core database holds for an email about to be made a Platform Administrator (functions/operators/bootstrap.ts). */
export interface AdminBootstrapState {
  person: { id: string; name: string; status: "active" | "disabled" } | null;
  /** The person's linked numbers (sign-in's ways to get a code), oldest first. */
  phones: string[];
  staff: { role: PlatformRole; status: "active" | "disabled" } | null;
}

/** One round trip: the person with this (normalised) email, their numbers and their place on the staff. */
export async function adminBootstrapState(core: Db, email: string): Promise<AdminBootstrapState> {
  const [people, phones, staff] = await core.batch([
    core.prepare("SELECT id, name, status FROM users WHERE email = ?").bind(email),
    core.prepare("SELECT p.msisdn FROM user_phones p JOIN users u ON u.id = p.user_id WHERE u.email = ? ORDER BY p.created_at, p.msisdn").bind(email),
    core.prepare("SELECT s.role, s.status FROM platform_staff s JOIN users u ON u.id = s.user_id WHERE u.email = ?").bind(email),
  ]);
  return {
    person: (people?.results[0] as AdminBootstrapState["person"] | undefined) ?? null,
    phones: ((phones?.results ?? []) as { msisdn: string }[]).map((row) => row.msisdn),
    staff: (staff?.results[0] as AdminBootstrapState["staff"] | undefined) ?? null,
  };
}

/** The writes that make a person an active Platform Administrator; each is a no-op when its part already stands. */
export interface AdminBootstrapWrite {
  userId: string;
  /** A new person (no account had the email): their row, made active with gender 'unspecified'. */
  newPerson: { email: string; name: string } | null;
  /** A number to link as a way to sign in; kept as it is when already linked. */
  msisdn: string;
  audit: { action: "platform.staff.bootstrapped" | "platform.staff.reenabled"; before: unknown; after: unknown };
}

/**
 * The statements, for one batch (all or nothing), audited as the system (no actor, no business; the sealing cron seals
 * the entry later, decision 025). A new person's INSERT is a plain one: if the email got an account since the state
 * was read, the batch fails and nothing is written, as copyMemberToCore does (decision 029).
 */
export function bootstrapAdminStatements(core: Db, write: AdminBootstrapWrite, meta: RequestMeta, at: string): D1PreparedStatement[] {
  const { userId, newPerson, msisdn, audit } = write;
  return [
    ...(newPerson
      ? [
          core
            .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, 'unspecified', 'active', ?)")
            .bind(userId, newPerson.email, newPerson.name, at),
        ]
      : [core.prepare("UPDATE users SET status = 'active' WHERE id = ? AND status <> 'active'").bind(userId)]),
    // Chosen by whoever holds the deployment, not proved by its owner with a code: the same footing as an invitation's
    // first number (decision 029), hence 'invitation'. A number already linked keeps how it was linked.
    core
      .prepare("INSERT INTO user_phones (user_id, msisdn, created_at, linked_by) VALUES (?, ?, ?, 'invitation') ON CONFLICT (user_id, msisdn) DO NOTHING")
      .bind(userId, msisdn, at),
    core
      .prepare(
        `INSERT INTO platform_staff (user_id, role, status, created_at, updated_at) VALUES (?, 'Platform Administrator', 'active', ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, status = excluded.status, updated_at = excluded.updated_at`,
      )
      .bind(userId, at, at),
    signInAuditStatement(
      { userId: null, businessId: null },
      core,
      meta,
      { action: audit.action, entity: "platform_staff", entityId: userId, before: audit.before, after: audit.after },
      at,
    ),
  ];
}
