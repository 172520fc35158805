// /pos-terminals/device-details/:deviceId: one terminal: details, where it has
// stood, its recent payments, and (manage:terminal) unassign, block and unblock,
// each with a reason, audited, refused if the terminal changed meanwhile; an
// assignment is asked for here and waits for another person's approval (decision 011).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import * as v from "valibot";
import { getPointOfSale } from "#server/merchants/points-of-sale.db";
import { refusalMessage, requireTenant } from "#server/guards";
import {
  MAX_REASON_LENGTH,
  TERMINAL_ACTIONS,
  canStart,
  changeTerminal,
  getTerminal,
  listAssignableMerchants,
  listAssignablePointsOfSale,
  listTerminalAssignments,
  terminalPlaces,
  type TerminalAction,
} from "#server/merchants/terminals.db";
import { listTransactions } from "#server/payments/transactions.db";
import { pendingAssignment } from "#server/approvals/terminal-assignment.db";
import { requestTerminalAssignment } from "#server/approvals/terminal-requests";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { DataTable } from "#app/components/lists/data-table";
import { Field, describedBy, useSending } from "#app/components/forms/form";
import { RecentTransactions } from "#app/components/recent-transactions";
import { detailDate, replaceBrandWords, tableDate } from "#app/lib/format";
import { StatusPill } from "#app/components/status-pill";
import { paths } from "#app/lib/paths";
import { statusLabel } from "#app/lib/statuses";
import { shownTransaction } from "#app/lib/transactions.server";
import { Details } from "#app/components/details";
import { formErrors, readForm } from "#server/forms";

// SPEC gives this page no title; the app's name alone would not tell one tab from another. The h1 names the device.
export const meta: MetaFunction = () => [{ title: "POS Terminal" }];

const ID = /^[\w-]{1,64}$/;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:terminal");
  const terminal = await getTerminal(tenant, params.deviceId ?? "");
  if (!terminal) pageNotFound(request);
  const canManage = can(tenant.role, "manage:terminal");
  const chosenMerchant = new URL(request.url).searchParams.get("assignMerchant");
  const assigning = canManage && canStart("assign", terminal);
  const [places, assignments, transactions, waiting] = await Promise.all([
    terminalPlaces(tenant, [terminal]),
    listTerminalAssignments(tenant, terminal.id),
    listTransactions(tenant, { terminalId: terminal.id, limit: 10 }),
    pendingAssignment(tenant, terminal.id),
  ]);
  // One request at a time: while one waits, the page links to it instead of offering another.
  const merchants = assigning && !waiting ? await listAssignableMerchants(tenant) : [];
  const merchant = merchants.length > 0 && chosenMerchant ? (merchants.find((m) => m.id === chosenMerchant) ?? null) : null;
  return {
    terminal,
    place: terminal.pointOfSaleId ? (places.get(terminal.pointOfSaleId) ?? null) : null,
    assignments,
    transactions: transactions.rows.map(shownTransaction),
    canManage,
    actions: Object.fromEntries(
      TERMINAL_ACTIONS.map((action) => [action, canManage && canStart(action, terminal) && !(action === "assign" && waiting)]),
    ) as Record<TerminalAction, boolean>,
    waitingRequest: waiting ? paths.approval("terminal", waiting) : null,
    merchants,
    merchant,
    pointsOfSale: merchant ? await listAssignablePointsOfSale(tenant, merchant.id) : [],
    // Sent rather than imported by the form, so functions/merchants/terminals.db.ts stays out of the browser (decision 014).
    maxReasonLength: MAX_REASON_LENGTH,
  };
}

const Reason = v.pipe(
  v.string("Give a reason."),
  v.trim(),
  v.nonEmpty("Give a reason."),
  v.maxLength(MAX_REASON_LENGTH, `Keep the reason under ${MAX_REASON_LENGTH} characters.`),
);
const Version = v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number));
const Common = { version: Version, reason: Reason };

const TerminalForm = v.variant("intent", [
  // No reason: the request itself is what another person reads and decides.
  v.object({
    intent: v.literal("assign"),
    version: Version,
    merchantId: v.pipe(v.string("Choose a merchant."), v.regex(ID, "Choose a merchant.")),
    pointOfSaleId: v.pipe(v.string("Choose a point of sale."), v.regex(ID, "Choose a point of sale.")),
  }),
  v.object({ intent: v.literal("unassign"), ...Common }),
  v.object({ intent: v.literal("block"), ...Common }),
  v.object({ intent: v.literal("unblock"), ...Common }),
]);

type Errors = Partial<Record<"reason" | "merchantId" | "pointOfSaleId" | "form", string>>;

const DONE: Record<TerminalAction, string> = {
  assign: "Assignment sent for approval: another person must approve it before the terminal stands there.",
  unassign: "Terminal unassigned.",
  block: "Terminal blocked.",
  unblock: "Terminal unblocked.",
};

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "manage:terminal");
  const terminalId = params.deviceId ?? "";
  // A field left out reads as empty, so its own "Give a reason." shows, not a missing-key message.
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const values: Record<string, unknown> = { reason: "", merchantId: "", pointOfSaleId: "", ...read.fields };
  const intent =
    typeof values.intent === "string" && (TERMINAL_ACTIONS as readonly string[]).includes(values.intent) ? (values.intent as TerminalAction) : null;
  const typed = {
    reason: typeof values.reason === "string" ? values.reason : "",
  };
  const parsed = v.safeParse(TerminalForm, values);
  if (!parsed.success) {
    const shown = { fields: ["reason", "merchantId", "pointOfSaleId"], otherwise: "That request was not understood. Reload the page and try again." };
    return refuse(formErrors(parsed.issues, shown) as Errors, typed, intent ?? "");
  }
  const form = parsed.output;
  if (form.intent === "assign") {
    // Another business's point of sale (or none) is a 404, like any foreign id.
    const pointOfSale = await getPointOfSale(tenant, form.pointOfSaleId);
    if (!pointOfSale) pageNotFound(request);
    if (pointOfSale.merchantId !== form.merchantId) {
      return refuse({ pointOfSaleId: "Choose a point of sale of the chosen merchant." }, typed, form.intent);
    }
  }
  try {
    if (form.intent === "assign") {
      await requestTerminalAssignment(tenant, deps.meta, { terminalId, version: form.version, pointOfSaleId: form.pointOfSaleId });
    } else {
      await changeTerminal(tenant, deps.meta, form.intent, { terminalId, version: form.version, reason: form.reason });
    }
  } catch (error) {
    // A version someone else changed meanwhile is a rule refusal like the others (400, decision 004).
    return refuse({ form: refusalMessage(request, error) }, typed, form.intent);
  }
  throw await redirectWithFlash(request, context.config.app, paths.device(terminalId), { kind: "success", message: DONE[form.intent] });
}

/** One action's form: the reason, and what else the action needs. */
function ActionForm({
  intent,
  version,
  title,
  lead,
  submit,
  danger,
  to,
  withReason = true,
  children,
}: {
  intent: TerminalAction;
  version: number;
  title: string;
  lead: string;
  submit: string;
  danger?: boolean;
  /** Where the form posts (the assign form keeps the chosen merchant in the URL, so errors show beside its fields). */
  to?: string;
  /** The immediate actions ask for a reason for the audit log; a request for approval is read by its checker instead. */
  withReason?: boolean;
  children?: React.ReactNode;
}) {
  const { maxReasonLength } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const mine = result?.intent === intent ? result : undefined;
  const id = `${intent}-reason`;
  return (
    <Form method="post" action={to} className="terminal-action" aria-labelledby={`${intent}-title`} noValidate>
      <h3 id={`${intent}-title`}>{replaceBrandWords(title)}</h3>
      <p className="field-hint">{replaceBrandWords(lead)}</p>
      {mine?.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {mine.errors.form}
        </p>
      ) : null}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
      {children}
      {withReason ? (
        <Field id={id} label="Reason" error={mine?.errors.reason} hint="Required. It is kept in the audit log.">
          <textarea
            id={id}
            name="reason"
            rows={2}
            maxLength={maxReasonLength}
            required
            defaultValue={mine?.values.reason ?? ""}
            {...describedBy(id, mine?.errors.reason, true)}
          />
        </Field>
      ) : null}
      <div className="button-row">
        <button type="submit" className={danger ? "button button--danger" : "button button--primary"} disabled={busy}>
          {submit}
        </button>
      </div>
    </Form>
  );
}

export default function DeviceDetails() {
  const { terminal, place, assignments, transactions, canManage, actions, merchants, merchant, pointsOfSale, waitingRequest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitMerchant = useSubmit();
  const assignErrors = result?.intent === "assign" ? result.errors : undefined;
  const anyAction = Object.values(actions).some(Boolean);
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <p className="page__eyebrow">
            <Link to="/pos-terminals">POS Terminals</Link>
          </p>
          <h1>{terminal.serial}</h1>
          <p className="page__lead">
            {terminal.model} · <StatusPill entity="terminal" status={terminal.status} />
          </p>
        </div>
      </header>

      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <Details
          rows={[
            ["Serial number", terminal.serial],
            ["Model", terminal.model],
            ["Software version", terminal.softwareVersion],
            ["Status", statusLabel("terminal", terminal.status)],
            ["Merchant", place ? <Link to={paths.merchant(place.merchantId)}>{place.merchantName}</Link> : "Not assigned"],
            ["Point of sale", place ? <Link to={paths.pointOfSale(place.merchantId, place.pointOfSaleId)}>{place.pointOfSaleName}</Link> : "None"],
            ["Last seen", terminal.lastSeenAt === null ? "Never" : detailDate(terminal.lastSeenAt)],
            ...(terminal.batteryPercent !== null && terminal.signalPercent !== null
              ? [["Last heartbeat", `Battery ${terminal.batteryPercent} % · Signal ${terminal.signalPercent} %`] as const]
              : []),
            ["In the fleet since", detailDate(terminal.createdAt)],
          ]}
        />
      </section>

      {result && !result.intent ? (
        <p className="notice notice--danger notice__message" role="alert">
          {result.errors.form}
        </p>
      ) : null}

      {canManage ? (
        <section className="card" aria-labelledby="actions-title">
          <h2 id="actions-title">Actions</h2>
          {!anyAction ? <p>This terminal is {statusLabel("terminal", terminal.status).toLowerCase()}: there is nothing to do with it here.</p> : null}
          {waitingRequest ? (
            <p className="notice notice--info notice__message">
              An assignment of this terminal waits for approval. <Link to={waitingRequest}>Open the request</Link>
            </p>
          ) : null}
          <div className="terminal-actions">
            {actions.assign ? (
              <div className="terminal-action" role="group" aria-labelledby="assign-heading">
                <h3 id="assign-heading">Assign to a point of sale</h3>
                <Form
                  method="get"
                  className="assign-merchant"
                  onChange={(event) =>
                    submitMerchant(event.currentTarget, {
                      replace: true,
                      preventScrollReset: true,
                    })
                  }
                >
                  <Field id="assign-merchant" label="Merchant" error={assignErrors?.merchantId}>
                    <select
                      id="assign-merchant"
                      name="assignMerchant"
                      defaultValue={merchant?.id ?? ""}
                      {...describedBy("assign-merchant", assignErrors?.merchantId)}
                    >
                      <option value="">Choose a merchant</option>
                      {merchants.map((m) => (
                        <option key={m.id} value={m.id}>
                          {replaceBrandWords(m.name)}
                        </option>
                      ))}
                    </select>
                  </Field>
                  <button type="submit" className="button">
                    Show points of sale
                  </button>
                </Form>
                {merchant ? (
                  <ActionForm
                    intent="assign"
                    version={terminal.version}
                    to={paths.device(terminal.id, { assignMerchant: merchant.id })}
                    title={`Points of sale of ${merchant.name}`}
                    lead="The assignment decides whose money the terminal's payments become: another person must approve it before the terminal stands there."
                    submit="Send for approval"
                    withReason={false}
                  >
                    <input type="hidden" name="merchantId" value={merchant.id} />
                    {pointsOfSale.length === 0 ? (
                      <p>This merchant has no active point of sale.</p>
                    ) : (
                      <Field id="assign-pos" label="Point of sale" error={assignErrors?.pointOfSaleId}>
                        <select id="assign-pos" name="pointOfSaleId" required defaultValue="" {...describedBy("assign-pos", assignErrors?.pointOfSaleId)}>
                          <option value="" disabled>
                            Choose a point of sale
                          </option>
                          {pointsOfSale.map((p) => (
                            <option key={p.id} value={p.id}>
                              {replaceBrandWords(`${p.name} (${p.town})`)}
                            </option>
                          ))}
                        </select>
                      </Field>
                    )}
                  </ActionForm>
                ) : null}
              </div>
            ) : null}
            {actions.unassign ? (
              <ActionForm
                intent="unassign"
                version={terminal.version}
                title="Unassign"
                lead={`Take the terminal away from ${place?.pointOfSaleName ?? "its point of sale"}.`}
                submit="Unassign terminal"
              />
            ) : null}
            {actions.block ? (
              <ActionForm
                intent="block"
                version={terminal.version}
                title="Block"
                lead="A blocked terminal takes no payments until it is unblocked."
                submit="Block terminal"
                danger
              />
            ) : null}
            {actions.unblock ? (
              <ActionForm
                intent="unblock"
                version={terminal.version}
                title="Unblock"
                lead={place ? "The terminal takes payments again where it stands." : "The terminal goes back to stock."}
                submit="Unblock terminal"
              />
            ) : null}
          </div>
        </section>
      ) : null}

      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Assignment history</h2>
        <DataTable
          caption="Assignment history"
          rows={assignments}
          rowKey={(a) => String(a.id)}
          columns={[
            {
              id: "pos",
              header: "Point of sale",
              cell: (a) => <Link to={paths.pointOfSale(a.merchantId, a.pointOfSaleId)}>{a.pointOfSaleName}</Link>,
            },
            {
              id: "merchant",
              header: "Merchant",
              cell: (a) => <Link to={paths.merchant(a.merchantId)}>{a.merchantName}</Link>,
            },
            {
              id: "from",
              header: "Assigned",
              cell: (a) => tableDate(a.assignedAt),
            },
            {
              id: "to",
              header: "Unassigned",
              cell: (a) => (a.unassignedAt ? tableDate(a.unassignedAt) : <span className="status status--good">Current</span>),
            },
            {
              id: "by",
              header: "Assigned by",
              cell: (a) => a.assignedByName ?? "N/A",
            },
          ]}
          empty={<p>This terminal has never been assigned.</p>}
        />
      </section>

      <section className="card" aria-labelledby="transactions-title">
        <h2 id="transactions-title">Recent transactions</h2>
        <RecentTransactions rows={transactions} caption="Recent transactions at this terminal" empty="No payments have been taken on this terminal." />
      </section>
    </div>
  );
}
