// What an employee change adds to a business's change request (the only kind about people), for its maker, the queue,
// the request page and its checker: nobody changes or decides their own access, nobody grants a role above their own,
// an invitation is for the account its email has and is applied against who has one now (decision 029), a person reads
// as their account and their membership, and an approved change reaches sign-in and the person's sessions at once
// (decision 026).
import { endSessionsInBusiness } from "../auth/sign-in";
import { ROLES, can, canGrantRole, isRole } from "../permissions";
import { accountsForInvitation, copyMemberToCore, type CoreAccount } from "../tenancy/directory.db";
import { RuleError, type Tenant } from "../tenancy/tenant";
import type { ChangeSteps } from "./apply-change.db";
import type { ChangeValues } from "./change-kinds";

/** The rules of a change to a person's access, for its maker and for its checker. */
export function checkEmployeeRules(tenant: Tenant, targetId: string, after: ChangeValues, who: "maker" | "checker"): void {
  if (targetId === tenant.userId) {
    throw new RuleError(who === "maker" ? "You cannot change your own role or access." : "You cannot decide a change to your own role or access.");
  }
  const role = after.role;
  if (role !== undefined && role !== null) {
    if (!isRole(role)) throw new RuleError(`Unknown role: ${String(role)}`);
    if (!canGrantRole(tenant.role, role)) throw new RuleError(`Your role cannot grant ${role}.`);
  }
}

/** The pairs "decider|role" of a role that decides requests and a role it may not grant. */
const UNGRANTABLE = ROLES.filter((role) => can(role, "decide:approval")).flatMap((decider) =>
  ROLES.filter((role) => !canGrantRole(decider, role)).map((role) => `${decider}|${role}`),
);

export const EMPLOYEE_STEPS: ChangeSteps = {
  /** An invitation is for the account the email has (with another business, say); a member is not invited again. */
  async prepareCreate(tenant, values, newId, existingAccountId) {
    const after = { ...values, email: String(values.email).trim().toLowerCase() };
    const existing = await tenant.db
      .prepare("SELECT u.id, m.user_id IS NOT NULL AS member FROM users u LEFT JOIN memberships m ON m.business_id = ? AND m.user_id = u.id WHERE u.email = ?")
      .bind(tenant.businessId, after.email)
      .first<{ id: string; member: number }>();
    const targetId = existingAccountId ?? existing?.id ?? newId;
    if (existing?.member) throw new RuleError("This person is already an employee of the business.");
    return { targetId, after };
  },

  checkChange: (tenant, targetId, after) => checkEmployeeRules(tenant, targetId, after, "maker"),

  /** A person's name, email and gender are their account's; their phone, role and status this business's. */
  readCurrent: (tenant, targetId) =>
    tenant.db
      .prepare(
        `SELECT u.name, u.email, u.gender, m.contact_phone AS phone, m.role, m.status
         FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = ? AND m.user_id = ?`,
      )
      .bind(tenant.businessId, targetId)
      .first<ChangeValues>(),

  /** Nobody decides a change to their own access, nor one giving a role theirs cannot grant (checkEmployeeRules). */
  waitingExclusion: (person, role) => ({
    sql: `(r.target_id = ${person.sql}
        OR ${role.sql} || '|' || coalesce(json_extract(r.after_json, '$.role'), '') IN (${UNGRANTABLE.map(() => "?").join(", ") || "NULL"}))`,
    binds: [...person.binds, ...role.binds, ...UNGRANTABLE],
  }),

  checkApproval: (tenant, request) => checkEmployeeRules(tenant, request.targetId, request.after, "checker"),

  /** An invitation: the account its email has now (null for a new person), or "stale" when it would reach someone else. */
  async prepareApproval(run, request): Promise<CoreAccount | null | "stale" | undefined> {
    if (request.action !== "create") return undefined;
    if (!run.core) throw new Error("approveRequest: an invitation is approved against the core database (options.core)");
    const accounts = await accountsForInvitation(run.core, String(request.after.email), request.targetId);
    // The email got an account after the invitation was made (or the request's account is not the email's): the
    // request was made for another person than the one it would now reach.
    if (accounts.length > 1 || (accounts[0] && (accounts[0].id !== request.targetId || accounts[0].email !== request.after.email))) return "stale";
    return accounts[0] ?? null;
  },

  createStatements(tenant, request, at, prepared) {
    const { db } = tenant;
    const after = request.after;
    const account = (prepared ?? null) as CoreAccount | null;
    // users and user_phones have no business: they are written only for this business's request, still pending, and
    // never from what the business typed for a person who has an account (decision 029). An existing account's copy
    // here is the core's: their own name and the numbers they proved. A new person is as invited, with the invited
    // number as their account's first way to sign in. What was typed for the phone is this business's own contact
    // number for the membership either way.
    const forThisRequest = "FROM approval_requests WHERE id = ? AND business_id = ? AND kind = 'employee' AND status = 'pending'";
    const person = account
      ? { name: account.name, gender: account.gender, status: account.status, createdAt: account.createdAt }
      : { name: after.name, gender: after.gender, status: "active", createdAt: at };
    const phones = account ? account.phones : [{ msisdn: String(after.phone), createdAt: at, linkedBy: "invitation" as const }];
    return [
      db
        .prepare(`INSERT INTO users (id, email, name, gender, status, created_at) SELECT ?, ?, ?, ?, ?, ? ${forThisRequest} ON CONFLICT DO NOTHING`)
        .bind(request.targetId, after.email, person.name, person.gender, person.status, person.createdAt, request.id, tenant.businessId),
      ...phones.map((phone) =>
        db
          .prepare(`INSERT OR IGNORE INTO user_phones (user_id, msisdn, created_at, linked_by) SELECT ?, ?, ?, ? ${forThisRequest}`)
          .bind(request.targetId, phone.msisdn, phone.createdAt, phone.linkedBy, request.id, tenant.businessId),
      ),
      db
        .prepare(
          "INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version, contact_phone) VALUES (?, ?, ?, 'active', ?, ?, 1, ?)",
        )
        .bind(tenant.businessId, request.targetId, after.role, at, at, after.phone),
    ];
  },

  async afterApproval({ tenant, deps }, request) {
    if (!deps) return;
    // Sign-in reads people and their businesses from the core database: the change reaches it now.
    await copyMemberToCore(deps.db, tenant, request.targetId);
    // A changed role or a deactivation ends the person's sessions in this business at once (decision 026).
    if (request.action !== "create") await endSessionsInBusiness(deps, tenant.userId, request.targetId, tenant.businessId, request.action);
  },
};
