// The Team tab of /settings: the business's employees and invitations, and the
// invite, change-role and deactivate requests (each sent for approval).
import { formErrors } from "#server/forms";
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import { requestChange } from "#server/approvals/approvals.db";
import {
  countEmployees,
  emailTakenInBusiness,
  getEmployee,
  listEmployees,
  listPendingInvites,
  pendingChangesFor,
  type PendingEmployeeChange,
} from "#server/team/employees.db";
import { numberedPage } from "#server/lists/page";
import type { Tenant } from "#server/tenancy/tenant";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { ROLES, can, canGrantRole } from "#server/permissions";
import { listParams } from "#app/lib/lists/list-params";
import { maskPhone } from "#app/lib/forms/phone";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";
import { bidiControlMessage, hasBidiControl, isValidEmail } from "#app/lib/forms/validation";
import { NOT_UNDERSTOOD, TEAM_URL } from "./tabs";
import { accountIdByEmail } from "#server/tenancy/directory.db";

export const TEAM_INTENTS = ["invite", "change-role", "deactivate"] as const;

function pendingLabel(change: PendingEmployeeChange): string {
  if (change.action === "deactivate") return "Deactivation waiting for approval";
  if (change.action === "update" && change.after.role) return `Role change to ${String(change.after.role)} waiting for approval`;
  return "Change waiting for approval";
}

export async function loadTeam(request: Request, deps: AuthDeps, tenant: Tenant) {
  const { page, trail } = listParams(new URL(request.url), {});
  const [result, total, invites] = await Promise.all([
    numberedPage((after) => listEmployees(tenant, { after }), trail, page),
    countEmployees(tenant),
    listPendingInvites(tenant),
  ]);
  const pending = await pendingChangesFor(
    tenant,
    result.rows.map((e) => e.userId),
  );
  const canRequest = can(tenant.role, "request:employee");
  return {
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    canRequest,
    grantable: ROLES.filter((role) => canGrantRole(tenant.role, role)),
    employees: result.rows.map((e) => {
      const change = pending.get(e.userId);
      const self = e.userId === tenant.userId;
      return {
        userId: e.userId,
        name: e.name,
        email: e.email,
        // The number the business typed (its contact number), masked as everywhere in the portal; never the person's
        // sign-in phones, which are theirs (decision 029).
        phone: e.contactPhone ? maskPhone(e.contactPhone) : null,
        gender: e.gender,
        role: e.role,
        status: e.status,
        self,
        pending: change ? { label: pendingLabel(change), makerName: change.makerName } : null,
        actionable: canRequest && !self && !change && e.status !== "deactivated" && canGrantRole(tenant.role, e.role),
      };
    }),
    invites: invites.map((invite) => ({
      requestId: invite.requestId,
      name: String(invite.after.name ?? ""),
      email: String(invite.after.email ?? ""),
      role: String(invite.after.role ?? ""),
      makerName: invite.makerName,
      madeAt: invite.madeAt,
    })),
  };
}

export type TeamData = Awaited<ReturnType<typeof loadTeam>>;

const text = (max: number, required: string, tooLong: string) => v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

// Exported for its unit test (tests/unit/name-fields.test.ts).
export const InviteSchema = v.object({
  // A person's name shows in lists, approvals and the audit log: no direction controls.
  name: v.pipe(
    text(100, "Enter the person's full name.", "Keep the name under 100 characters."),
    v.check((typed) => !hasBidiControl(typed), bidiControlMessage("name")),
  ),
  email: v.pipe(
    v.string("Enter an email address."),
    v.trim(),
    v.nonEmpty("Enter an email address."),
    v.maxLength(254, "That email address is too long."),
    v.check((value: string) => isValidEmail(value), "Enter an email address like name@example.com."),
    v.toLowerCase(),
  ),
  phone: ghanaPhoneField("Enter a mobile number."),
  gender: v.picklist(["female", "male", "unspecified"], "Choose a gender, or Not given."),
  role: v.picklist(ROLES, "Choose a role."),
});

export type InviteField = keyof v.InferInput<typeof InviteSchema>;
export type InviteErrors = Partial<Record<InviteField | "form", string>>;
export type InviteValues = Record<InviteField, string>;

const RowForm = v.object({
  userId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
});
const ChangeRoleForm = v.object({
  ...RowForm.entries,
  role: v.picklist(ROLES),
});

const APPROVAL_NOTE = "Another person must approve it before it takes effect.";

/** A refusal (the invitation's keeps what was typed), or a thrown redirect back to the tab with the flash. */
export async function teamAction(request: Request, context: AppLoadContext, deps: AuthDeps, tenant: Tenant, form: Record<string, FormDataEntryValue>) {
  if (form.intent === "invite") {
    const values: InviteValues = {
      name: typeof form.name === "string" ? form.name : "",
      email: typeof form.email === "string" ? form.email : "",
      phone: typeof form.phone === "string" ? form.phone : "",
      gender: typeof form.gender === "string" ? form.gender : "",
      role: typeof form.role === "string" ? form.role : "",
    };
    const parsed = v.safeParse(InviteSchema, values);
    const errors: InviteErrors = parsed.success ? {} : formErrors(parsed.issues);
    // Checked here too, so the person reads it next to the field; the engine refuses it anyway.
    if (parsed.success && !canGrantRole(tenant.role, parsed.output.role)) errors.role = `Your role cannot grant ${parsed.output.role}.`;
    if (parsed.success && !errors.role) {
      const taken = await emailTakenInBusiness(tenant, parsed.output.email);
      if (taken === "employee") errors.email = "This email already belongs to an employee of this business.";
      if (taken === "invited") errors.email = "An invitation for this email is already waiting for approval.";
    }
    if (!parsed.success || Object.keys(errors).length) return refuse(errors, values);
    const invite = parsed.output;
    try {
      const existingAccountId = await accountIdByEmail(deps.db, invite.email.trim().toLowerCase());
      await requestChange(tenant, deps.meta, { kind: "employee", action: "create", after: { ...invite }, existingAccountId });
    } catch (error) {
      return refuse({ form: refusalMessage(request, error) }, values);
    }
    throw await redirectWithFlash(request, context.config.app, TEAM_URL, {
      kind: "success",
      message: `The invitation for ${invite.name} is sent for approval. ${APPROVAL_NOTE}`,
    });
  }

  const parsed = v.safeParse(form.intent === "change-role" ? ChangeRoleForm : RowForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  const employee = await getEmployee(tenant, parsed.output.userId);
  if (!employee) pageNotFound(request);
  if (employee.userId === tenant.userId) return refuse({ form: "You cannot change your own role or access. Ask another administrator." });
  // Whoever cannot grant a role cannot take it away either.
  if (!canGrantRole(tenant.role, employee.role)) return refuse({ form: `Your role cannot change a ${employee.role}'s access.` });

  if ("role" in parsed.output) {
    const role = parsed.output.role;
    if (!canGrantRole(tenant.role, role)) return refuse({ form: `Your role cannot grant ${role}.` });
    await requestChange(tenant, deps.meta, { kind: "employee", action: "update", targetId: employee.userId, after: { role } });
    throw await redirectWithFlash(request, context.config.app, TEAM_URL, {
      kind: "success",
      message: `The role change for ${employee.name} (${employee.role} to ${role}) is sent for approval. ${APPROVAL_NOTE}`,
    });
  }
  await requestChange(tenant, deps.meta, { kind: "employee", action: "deactivate", targetId: employee.userId });
  throw await redirectWithFlash(request, context.config.app, TEAM_URL, {
    kind: "success",
    message: `Deactivating ${employee.name} is sent for approval. ${APPROVAL_NOTE}`,
  });
}
