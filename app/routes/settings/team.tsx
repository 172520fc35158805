// The Team tab of /settings: the business's employees, the invitations waiting
// for approval, and the forms that request an invitation, a role change or a
// deactivation (each approved by another person).
import { Form, useLocation } from "@remix-run/react";
import { DEFAULT_PAGE_SIZE } from "#server/lists/page";
import type { Role } from "#server/permissions";
import { DataTable, ListCount, Pager, type Column } from "#app/components/lists/data-table";
import { Field, describedBy, useSending } from "#app/components/forms/form";
import { StatusPill } from "#app/components/status-pill";
import { proseDate } from "#app/lib/format";
import { PHONE_MAX_LENGTH } from "#app/lib/forms/phone";
import { ErrorNotice } from "./notice";
import { GENDER_LABEL, TEAM_URL } from "./tabs";
import type { InviteErrors, InviteField, InviteValues, TeamData } from "./team.server";

type TeamRow = TeamData["employees"][number];

/** A refused invitation: the messages by field and what was typed. */
export interface InviteRefusal {
  errors: InviteErrors;
  values: InviteValues;
}

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
          <StatusPill entity="employee" status={e.status} />
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

export function TeamTab({ team, error, invite }: { team: TeamData; error: string | null; invite: InviteRefusal | null }) {
  const busy = useSending();
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
            {team.invites.map((row) => (
              <li key={row.requestId} className="session">
                <div>
                  <strong>{row.name}</strong>
                  <span className="menu__hint">
                    {row.email} · {row.role}
                  </span>
                  <span className="menu__hint">
                    Invited by {row.makerName} on {proseDate(row.madeAt)}
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
      {team.canRequest ? <InviteForm grantable={team.grantable} refused={invite} /> : null}
    </section>
  );
}

function InviteForm({ grantable, refused }: { grantable: readonly Role[]; refused: InviteRefusal | null }) {
  const busy = useSending();
  const location = useLocation();
  const errors: InviteErrors = refused?.errors ?? {};
  const values = refused?.values;
  const submitting = useSending("invite");
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
      {/* A new key after each navigation empties the form once an invitation went through. While a refusal is shown
          the key stays put: a navigation that commits after the refusal (its revalidation, on a slow link seconds
          later) must not put back what was sent over the corrections the person has typed since. */}
      <Form method="post" action={TEAM_URL} className="form invite-form" noValidate key={values ? "refused" : location.key}>
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
        <Field
          id="invite-phone"
          label="Mobile number"
          hint="A Ghana number, like 0244123456: a new person's first sign-in codes go to it. Someone who already has a portal account keeps signing in with their own numbers; this one is only your business's contact number for them."
          error={errors.phone}
        >
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
          <button type="submit" className="button button--primary" disabled={busy}>
            {submitting ? "Sending…" : "Send for approval"}
          </button>
        </div>
      </Form>
    </section>
  );
}
