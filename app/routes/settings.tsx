// /settings, in tabs (`?tab=`): the person's profile and the business profile
// (SPEC section 3), the Team (employees; every change through maker-checker)
// and Security (the sessions that stand, signing one out, signing out
// everywhere). The tabs are links, so the page works before the script loads,
// and the loader reads only what the chosen tab shows.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { type AuthDeps } from "../../functions/auth/deps";
import { signedInIdentity } from "../../functions/auth/identity";
import { listActiveSessions, revokeOwnSession, signOutEverywhere } from "../../functions/auth/sign-in";
import { requestChange } from "../../functions/data/approvals";
import {
  countEmployees,
  emailTakenInBusiness,
  getEmployee,
  listEmployees,
  listPendingInvites,
  pendingChangesFor,
  type Employee,
  type PendingEmployeeChange,
} from "../../functions/data/employees";
import { DEFAULT_PAGE_SIZE, numberedPage } from "../../functions/data/page";
import { type Tenant } from "../../functions/data/tenant";
import { flashCookie, redirectWithFlash } from "../../functions/flash";
import { refusalMessage, requirePermission, requireTenant } from "../../functions/guards";
import { pageNotFound, refuse, type Refusal } from "../../functions/http";
import { ROLES, can, canGrantRole, type Role } from "../../functions/permissions";
import { DataTable, ListCount, Pager, type Column } from "../components/data-table";
import { Field, describedBy } from "../components/form";
import { browserOf } from "../lib/analytics";
import { formatDate } from "../lib/format";
import { listParams } from "../lib/list-params";
import { PHONE_MAX_LENGTH, ghanaPhoneField, maskPhone } from "../lib/phone";
import { isValidEmail } from "../lib/validation";
import { Details } from "../components/details";

export const SETTINGS_TABS = ["profile", "business", "team", "security"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];
const TAB_LABEL: Record<SettingsTab, string> = {
  profile: "Profile",
  business: "Business",
  team: "Team",
  security: "Security",
};
const TEAM_URL = "/settings?tab=team";

/** The tab in the URL; none is the profile, an unknown one is not a page here. */
function readTab(request: Request): SettingsTab {
  const value = new URL(request.url).searchParams.get("tab");
  if (value === null || value === "") return "profile";
  return (SETTINGS_TABS as readonly string[]).includes(value) ? (value as SettingsTab) : pageNotFound(request);
}

const GENDER_LABEL = {
  female: "Female",
  male: "Male",
  unspecified: "Not given",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Each tab checks its own permission.
  const { deps, session, tenant } = await requireTenant(request, context, null);
  const tab = readTab(request);
  const canSeeTeam = can(tenant.role, "view:employee");
  switch (tab) {
    case "profile": {
      const identity = await requireIdentity(request, deps);
      const user = identity.user;
      return {
        tab,
        canSeeTeam,
        user: { ...user, msisdn: user.msisdn ? maskPhone(user.msisdn) : null },
      } as const;
    }
    case "business":
      return {
        tab,
        canSeeTeam,
        business: (await requireIdentity(request, deps)).business,
      } as const;
    case "security": {
      const sessions = await listActiveSessions(deps.db, session.sub, deps.now());
      return {
        tab,
        canSeeTeam,
        sessions: sessions.map((row) => ({
          id: row.id,
          current: row.id === session.sid,
          browser: row.userAgent ? browserOf(row.userAgent) : "Unknown browser",
          ip: row.ip,
          channel: row.channel,
          businessName: row.businessName,
          createdAt: row.createdAt,
          expiresAt: row.expiresAt,
        })),
      } as const;
    }
    case "team":
      requirePermission(tenant, "view:employee");
      return {
        tab,
        canSeeTeam,
        team: await loadTeam(request, deps, tenant),
      } as const;
  }
}

async function requireIdentity(request: Request, deps: AuthDeps) {
  const identity = await signedInIdentity(request, deps);
  if (!identity) throw redirect("/select-business");
  return identity;
}

function pendingLabel(change: PendingEmployeeChange): string {
  if (change.action === "deactivate") return "Deactivation waiting for approval";
  if (change.action === "update" && change.after.role) return `Role change to ${String(change.after.role)} waiting for approval`;
  return "Change waiting for approval";
}

async function loadTeam(request: Request, deps: AuthDeps, tenant: Tenant) {
  const { page, trail } = listParams(new URL(request.url), {});
  const [result, total, invites] = await Promise.all([
    numberedPage((after) => listEmployees(tenant, deps.db, { after }), trail, page),
    countEmployees(tenant, deps.db),
    listPendingInvites(tenant, deps.db),
  ]);
  const pending = await pendingChangesFor(
    tenant,
    deps.db,
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
        // Other people's numbers are masked on screen, as everywhere in the portal.
        phone: e.phones[0] ? maskPhone(e.phones[0]) : null,
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

// ---------------------------------------------------------------- actions

const SecurityForm = v.variant("intent", [
  v.object({ intent: v.literal("sign-out-everywhere") }),
  v.object({
    intent: v.literal("sign-out-session"),
    sessionId: v.pipe(v.string(), v.uuid("Choose a session to sign out.")),
  }),
]);

const TEAM_INTENTS = ["invite", "change-role", "deactivate"] as const;

const text = (max: number, required: string, tooLong: string) => v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(max, tooLong));

const InviteSchema = v.object({
  name: text(100, "Enter the person's full name.", "Keep the name under 100 characters."),
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

const RowForm = v.object({
  userId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
});
const ChangeRoleForm = v.object({
  ...RowForm.entries,
  role: v.picklist(ROLES),
});

type InviteField = keyof v.InferInput<typeof InviteSchema>;
export type InviteErrors = Partial<Record<InviteField | "form", string>>;

const NOT_UNDERSTOOD = "That request was not understood. Reload the page and try again.";

export async function action({ request, context }: ActionFunctionArgs) {
  // The permission depends on what was posted: checked below.
  const { deps, session, tenant } = await requireTenant(request, context, null);
  const form = Object.fromEntries(await request.formData());
  if ((TEAM_INTENTS as readonly unknown[]).includes(form.intent)) {
    requirePermission(tenant, "request:employee");
    try {
      return await teamAction(request, context, deps, tenant, form);
    } catch (error) {
      // An employee who left the business between our read and the engine's is a 404.
      return refuse({ form: refusalMessage(request, error) });
    }
  }
  const parsed = v.safeParse(SecurityForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  if (parsed.output.intent === "sign-out-everywhere") {
    const { setCookie } = await signOutEverywhere(request, deps, session);
    const headers = new Headers({ "Set-Cookie": setCookie });
    headers.append(
      "Set-Cookie",
      await flashCookie(request, context.config, {
        kind: "success",
        message: "You are signed out on every device, this one included.",
      }),
    );
    throw redirect(session.returnUrl, { headers });
  }
  if (parsed.output.sessionId === session.sid) return refuse({ form: "To sign out of this session, use Sign out in the account menu." });
  const revoked = await revokeOwnSession(deps, session, parsed.output.sessionId);
  // Not one of this person's sessions (or already ended): not found, said on the tab.
  if (!revoked) return data<Refusal>({ errors: { form: "That session has already ended." }, values: null }, { status: 404 });
  throw await redirectWithFlash(request, context.config, "/settings?tab=security", { kind: "success", message: "That session is signed out." });
}

const APPROVAL_NOTE = "Another person must approve it before it takes effect.";

async function teamAction(request: Request, context: ActionFunctionArgs["context"], deps: AuthDeps, tenant: Tenant, form: Record<string, FormDataEntryValue>) {
  if (form.intent === "invite") {
    const values = {
      name: typeof form.name === "string" ? form.name : "",
      email: typeof form.email === "string" ? form.email : "",
      phone: typeof form.phone === "string" ? form.phone : "",
      gender: typeof form.gender === "string" ? form.gender : "",
      role: typeof form.role === "string" ? form.role : "",
    };
    const parsed = v.safeParse(InviteSchema, values);
    const errors: InviteErrors = parsed.success
      ? {}
      : Object.fromEntries(Object.entries(v.flatten<typeof InviteSchema>(parsed.issues).nested ?? {}).map(([key, messages]) => [key, messages?.[0]]));
    // Checked here too, so the person reads it next to the field; the engine refuses it anyway.
    if (parsed.success && !canGrantRole(tenant.role, parsed.output.role)) errors.role = `Your role cannot grant ${parsed.output.role}.`;
    if (parsed.success && !errors.role) {
      const taken = await emailTakenInBusiness(tenant, deps.db, parsed.output.email);
      if (taken === "employee") errors.email = "This email already belongs to an employee of this business.";
      if (taken === "invited") errors.email = "An invitation for this email is already waiting for approval.";
    }
    if (!parsed.success || Object.keys(errors).length) return refuse(errors, values);
    const invite = parsed.output;
    try {
      await requestChange(tenant, deps.db, deps.meta, {
        kind: "employee",
        action: "create",
        after: { ...invite },
      });
    } catch (error) {
      return refuse({ form: refusalMessage(request, error) }, values);
    }
    throw await redirectWithFlash(request, context.config, TEAM_URL, {
      kind: "success",
      message: `The invitation for ${invite.name} is sent for approval. ${APPROVAL_NOTE}`,
    });
  }

  const parsed = v.safeParse(form.intent === "change-role" ? ChangeRoleForm : RowForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  const employee = await getEmployee(tenant, deps.db, parsed.output.userId);
  if (!employee) pageNotFound(request);
  if (employee.userId === tenant.userId) return refuse({ form: "You cannot change your own role or access. Ask another administrator." });
  // Whoever cannot grant a role cannot take it away either.
  if (!canGrantRole(tenant.role, employee.role)) return refuse({ form: `Your role cannot change a ${employee.role}'s access.` });

  if ("role" in parsed.output) {
    const role = parsed.output.role;
    if (!canGrantRole(tenant.role, role)) return refuse({ form: `Your role cannot grant ${role}.` });
    await requestChange(tenant, deps.db, deps.meta, {
      kind: "employee",
      action: "update",
      targetId: employee.userId,
      after: { role },
    });
    throw await redirectWithFlash(request, context.config, TEAM_URL, {
      kind: "success",
      message: `The role change for ${employee.name} (${employee.role} to ${role}) is sent for approval. ${APPROVAL_NOTE}`,
    });
  }
  await requestChange(tenant, deps.db, deps.meta, {
    kind: "employee",
    action: "deactivate",
    targetId: employee.userId,
  });
  throw await redirectWithFlash(request, context.config, TEAM_URL, {
    kind: "success",
    message: `Deactivating ${employee.name} is sent for approval. ${APPROVAL_NOTE}`,
  });
}

// ---------------------------------------------------------------- page

const CHANNEL_LABEL = {
  microsoft: "Work account",
  google: "Google",
  userUniqueEmail: "Email",
} as const;

function ErrorNotice({ error }: { error: string | null | undefined }) {
  return error ? (
    <p className="notice notice--danger notice__message" role="alert">
      {error}
    </p>
  ) : null;
}

const LEAD: Record<SettingsTab, string> = {
  profile: "Who you are in the portal.",
  business: "The business you are working in.",
  team: "The people who work in the portal for this business, and their roles.",
  security: "Where you are signed in.",
};

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Refusals of the invitation form carry what was typed; the others speak to the whole tab.
  const error = actionData && !actionData.values ? (actionData.errors.form ?? null) : null;
  const tabs = SETTINGS_TABS.filter((tab) => tab !== "team" || loaded.canSeeTeam);
  return (
    <div className="page">
      <header className="page__header">
        <h1>Settings</h1>
        <p className="page__lead">{LEAD[loaded.tab]}</p>
      </header>
      <nav className="tabs" aria-label="Settings sections">
        <ul className="tabs__list">
          {tabs.map((tab) => (
            <li key={tab}>
              <Link to={tab === "profile" ? "/settings" : `/settings?tab=${tab}`} className="tabs__tab" aria-current={tab === loaded.tab ? "page" : undefined}>
                {TAB_LABEL[tab]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {loaded.tab === "profile" ? (
        <section className="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Your profile</h2>
          <Details
            rows={[
              ["Name", loaded.user.employeeName],
              ["Email", loaded.user.employeeEmail],
              ["Gender", GENDER_LABEL[loaded.user.employeeGender]],
              ["Phone used to sign in", loaded.user.msisdn],
              ["Role", loaded.user.role],
            ]}
          />
        </section>
      ) : null}
      {loaded.tab === "business" ? (
        <section className="card" aria-labelledby="business-title">
          <h2 id="business-title">Business profile</h2>
          <Details
            rows={[
              ["Business name", loaded.business.businessName],
              ["Business identifier", loaded.business.businessIdentifier],
              ["Contact number", loaded.business.contactNumber],
              ["Contact email", loaded.business.contactEmail],
              ["Town", loaded.business.town],
              ["Region", loaded.business.region],
              ["Sector", loaded.business.sector],
              ["Your access level", loaded.business.accessLevel],
            ]}
          />
        </section>
      ) : null}
      {loaded.tab === "security" ? <Security sessions={loaded.sessions} error={error} /> : null}
      {loaded.tab === "team" ? <Team team={loaded.team} error={error} /> : null}
    </div>
  );
}

type SessionRow = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "security" }>["sessions"][number];

function Security({ sessions, error }: { sessions: readonly SessionRow[]; error: string | null }) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const others = sessions.filter((row) => !row.current).length;
  return (
    <section className="card" aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <ErrorNotice error={error} />
      <h3>Signed-in sessions</h3>
      <ul className="session-list">
        {sessions.map((row) => (
          <li key={row.id} className="session" data-testid="session">
            <div>
              <strong>
                {row.browser}
                {row.current ? <span className="badge">This session</span> : null}
              </strong>
              <span className="menu__hint">
                {CHANNEL_LABEL[row.channel]} · {row.businessName ?? "Signing in"} · {row.ip ?? "IP not recorded"}
              </span>
              <span className="menu__hint">
                Since {formatDate(row.createdAt)} · until {formatDate(row.expiresAt)}
              </span>
            </div>
            {row.current ? null : (
              <Form method="post" action="/settings?tab=security">
                <input type="hidden" name="intent" value="sign-out-session" />
                <input type="hidden" name="sessionId" value={row.id} />
                <button type="submit" className="button" disabled={navigation.state !== "idle"}>
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <h3>Sign out everywhere</h3>
      <p>
        Ends every session of yours on every device, this one included
        {others > 0 ? ` (${others} other ${others === 1 ? "session" : "sessions"})` : ""}. Use it if a device was lost or someone else may have used your
        account.
      </p>
      <Form method="post" action="/settings?tab=security">
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        <button type="submit" className="button button--danger" disabled={navigation.state !== "idle"}>
          {submitting === "sign-out-everywhere" ? "Signing out…" : "Sign out everywhere"}
        </button>
      </Form>
    </section>
  );
}

type TeamData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { tab: "team" }>["team"];
type TeamRow = TeamData["employees"][number];

const STATUS_PILL: Record<Employee["status"], [string, string]> = {
  active: ["status status--good", "Active"],
  invited: ["status status--wait", "Invited"],
  deactivated: ["status status--bad", "Deactivated"],
};

function teamColumns(grantable: readonly Role[], busy: boolean): Column<TeamRow>[] {
  return [
    {
      id: "name",
      header: "Employee",
      cell: (e) => (
        <span className="cell-title">
          <strong>
            {e.name}
            {e.self ? <span className="badge">You</span> : null}
          </strong>
          <span className="cell-sub">{e.email}</span>
        </span>
      ),
    },
    { id: "phone", header: "Phone", cell: (e) => e.phone ?? "N/A" },
    { id: "gender", header: "Gender", cell: (e) => GENDER_LABEL[e.gender] },
    { id: "role", header: "Role", cell: (e) => e.role },
    {
      id: "status",
      header: "Status",
      cell: (e) => (
        <span className="team-status">
          <span className={STATUS_PILL[e.status][0]}>{STATUS_PILL[e.status][1]}</span>
          {e.pending ? (
            <span className="status status--wait" title={`Requested by ${e.pending.makerName}`}>
              {e.pending.label}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: "actions",
      header: "Actions",
      cell: (e) =>
        e.actionable ? (
          <div className="team-actions">
            <Form method="post" action={TEAM_URL} className="team-actions__role">
              <input type="hidden" name="intent" value="change-role" />
              <input type="hidden" name="userId" value={e.userId} />
              <label>
                <span className="visually-hidden">New role for {e.name}</span>
                <select name="role" defaultValue={e.role}>
                  {grantable.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className="button" disabled={busy} aria-label={`Change role of ${e.name}`}>
                Change role
              </button>
            </Form>
            <Form method="post" action={TEAM_URL}>
              <input type="hidden" name="intent" value="deactivate" />
              <input type="hidden" name="userId" value={e.userId} />
              <button type="submit" className="button button--ghost" disabled={busy} aria-label={`Deactivate ${e.name}`}>
                Deactivate
              </button>
            </Form>
          </div>
        ) : (
          <span className="cell-sub">{e.self ? "Another administrator manages your access" : e.pending ? "Waiting for approval" : "None"}</span>
        ),
    },
  ];
}

function Team({ team, error }: { team: TeamData; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const columns = teamColumns(team.grantable, busy);
  return (
    <section className="settings-panel" aria-labelledby="team-title">
      <div className="page__header--actions">
        <div>
          <h2 id="team-title">Team</h2>
          <p className="page__lead">
            Inviting someone, changing a role and deactivating are sent for approval: another person must approve each before it takes effect.
          </p>
        </div>
        {team.canRequest ? (
          <a href="#invite" className="button button--primary">
            Invite employee
          </a>
        ) : null}
      </div>
      <ErrorNotice error={error} />
      {team.invites.length ? (
        <section className="card" aria-labelledby="invites-title">
          <h3 id="invites-title" className="card__title">
            Invitations waiting for approval
          </h3>
          <ul className="session-list">
            {team.invites.map((invite) => (
              <li key={invite.requestId} className="session">
                <div>
                  <strong>{invite.name}</strong>
                  <span className="menu__hint">
                    {invite.email} · {invite.role}
                  </span>
                  <span className="menu__hint">
                    Invited by {invite.makerName} on {formatDate(invite.madeAt)}
                  </span>
                </div>
                <span className="status status--wait">Waiting for approval</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ListCount
        page={team.page}
        pageSize={DEFAULT_PAGE_SIZE}
        shown={team.employees.length}
        total={team.total}
        noun={team.total === 1 ? "employee" : "employees"}
      />
      <DataTable
        caption="Employees"
        columns={columns}
        rows={team.employees}
        rowKey={(e) => e.userId}
        empty={
          <>
            <h2>No employees yet</h2>
            <p>Invite the first one below.</p>
          </>
        }
      />
      <Pager page={team.page} totalPages={Math.max(1, Math.ceil(team.total / DEFAULT_PAGE_SIZE))} trail={team.trail} hasNext={team.hasNext} />
      {team.canRequest ? <InviteForm grantable={team.grantable} /> : null}
    </section>
  );
}

function InviteForm({ grantable }: { grantable: readonly Role[] }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const result = actionData?.values ? actionData : null;
  const errors: InviteErrors = result?.errors ?? {};
  const values = result?.values;
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  const field = (name: InviteField) => ({
    id: `invite-${name}`,
    name,
    ...describedBy(`invite-${name}`, errors[name], name === "phone"),
  });
  return (
    <section className="card" id="invite" aria-labelledby="invite-title">
      <h3 id="invite-title" className="card__title">
        Invite an employee
      </h3>
      <p className="field-hint">The invitation is sent for approval: another person must approve it before the employee can sign in.</p>
      {/* A new key after each navigation empties the form once an invitation went through. */}
      <Form method="post" action={TEAM_URL} className="form invite-form" noValidate key={location.key}>
        <input type="hidden" name="intent" value="invite" />
        <ErrorNotice error={errors.form} />
        <Field id="invite-name" label="Full name" error={errors.name}>
          <input {...field("name")} autoComplete="off" maxLength={100} required defaultValue={values?.name} />
        </Field>
        <Field id="invite-email" label="Work email" error={errors.email}>
          <input
            {...field("email")}
            type="email"
            inputMode="email"
            autoCapitalize="none"
            autoComplete="off"
            maxLength={254}
            required
            defaultValue={values?.email}
          />
        </Field>
        <Field id="invite-phone" label="Mobile number" hint="A Ghana number for one-time codes, like 0244123456." error={errors.phone}>
          <input {...field("phone")} type="tel" inputMode="tel" autoComplete="off" maxLength={PHONE_MAX_LENGTH} required defaultValue={values?.phone} />
        </Field>
        <Field id="invite-gender" label="Gender" error={errors.gender}>
          <select {...field("gender")} required defaultValue={values?.gender ?? ""}>
            <option value="">Choose</option>
            <option value="female">Female</option>
            <option value="male">Male</option>
            <option value="unspecified">Not given</option>
          </select>
        </Field>
        <Field id="invite-role" label="Role" error={errors.role}>
          <select {...field("role")} required defaultValue={values?.role ?? ""}>
            <option value="">Choose a role</option>
            {grantable.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </Field>
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={navigation.state !== "idle"}>
            {submitting ? "Sending…" : "Send for approval"}
          </button>
        </div>
      </Form>
    </section>
  );
}
