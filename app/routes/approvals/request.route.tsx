// /approvals/{employee|merchant|point-of-sale|settlement-account}/{id}: one
// request, field by field (what a create sets; what an update changes, among
// the record's other fields; the whole record a deactivation closes), who
// asked and when, and the decision: Approve, or Reject with a reason. The
// decision core (functions/decisions/decide.ts) holds the rules; this page says them,
// in the one request page (app/components/request-page.tsx).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { forbidden, requireTenant } from "#server/guards";
import type { ApprovalKind, ApprovalRequest, ChangeValues } from "#server/approvals/change-kinds";
import { getApprovalRequest, getRequestRecord, recordColumns, requestSubjects } from "#server/approvals/change-requests.db";
import type { Tenant } from "#server/tenancy/tenant";
import { pageNotFound, refuse, routeNotFound } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { RequestPage } from "#app/components/request-page";
import { DecisionForm } from "#app/lib/decision";
import { ACTION_NAMES, KIND_BY_SLUG, columnLabel, displayValue, kindName } from "./request-words";
import { detailDate } from "#app/lib/format";
import { maskPhone } from "#app/lib/forms/phone";
import { isConnectionLost } from "#app/components/forms/submission";
import { APP_NAME } from "#app/lib/shell/page";
import { decideBusinessRequest, pageRun, underDecisionCheck } from "#server/decisions/business";
import { decideOnPage, decisionFormValues, refusedDecisionForm } from "#server/decisions/request-page";

/** SPEC section 2's titles of the four request pages; a kind it does not list keeps the app's name. */
const TITLES: Partial<Record<ApprovalKind, string>> = {
  employee: "Employee Request",
  merchant: "Merchant Request",
  point_of_sale: "Point of Sale Request",
  settlement_account: "Settlement Account Request",
  // Not in SPEC's table (it has no security policy): named as the other four are.
  security_policy: "Security Policy Request",
  terminal: "Terminal Request",
};

export const meta: MetaFunction = ({ params }) => {
  const kind = KIND_BY_SLUG[(params.kind ?? "").toLowerCase()];
  return [{ title: (kind && TITLES[kind]) ?? APP_NAME }];
};

/**
 * The request the URL names, of the kind the URL says, in this business; anything else is the 404 page.
 * A kind that is none of the four is no route at all (SPEC section 2: 'Page not found: {path}').
 */
async function requestOf(request: Request, tenant: Tenant, params: { kind?: string; id?: string }): Promise<ApprovalRequest> {
  const kind: ApprovalKind | undefined = KIND_BY_SLUG[(params.kind ?? "").toLowerCase()];
  if (!kind) routeNotFound(request);
  const found = params.id ? await getApprovalRequest(tenant, params.id) : null;
  if (!found || found.kind !== kind) pageNotFound(request);
  return found;
}

export interface ChangeRow {
  column: string;
  label: string;
  before: string | null;
  after: string | null;
  changed: boolean;
}

/** The rows of the change table: a create's values; an update's or deactivation's whole record with the changed fields marked. */
function changeRows(request: ApprovalRequest, current: ChangeValues | null, merchantName: string | null, pointOfSaleName: string | null): ChangeRow[] {
  const show = (column: string, value: ChangeValues[string] | undefined, changed: boolean) => {
    const text = displayValue(column, value, merchantName, pointOfSaleName);
    // Another person's number that this request does not change is not the checker's business.
    return column === "phone" && !changed && text !== "N/A" ? maskPhone(text) : text;
  };
  const columns = recordColumns(request.kind);
  if (request.action === "create") {
    return columns
      .filter((c) => c in request.after)
      .map((column) => ({ column, label: columnLabel(column), before: null, after: show(column, request.after[column], true), changed: true }));
  }
  const before = request.before ?? {};
  return columns
    .filter((column) => column in request.after || (current !== null && column in current))
    .map((column) => {
      const changed = column in request.after;
      return {
        column,
        label: columnLabel(column),
        before: show(column, changed ? before[column] : current?.[column], changed),
        after: changed ? show(column, request.after[column], true) : null,
        changed,
      };
    });
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:approval");
  const found = await requestOf(request, tenant, params);
  const [record, subjects] = await Promise.all([getRequestRecord(tenant, found), requestSubjects(tenant, [found])]);
  const own = found.makerId === tenant.userId;
  return {
    request: {
      id: found.id,
      kind: found.kind,
      action: found.action,
      status: found.status,
      makerName: found.makerName,
      madeAt: found.madeAt,
      checkerName: found.checkerName,
      decidedAt: found.decidedAt,
      reason: found.reason,
    },
    subject: subjects[found.id] ?? null,
    rows: changeRows(found, record.current, record.merchantName, record.pointOfSaleName),
    own,
    mayDecide: can(tenant.role, "decide:approval"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const signedIn = await requireTenant(request, context, "decide:approval");
  const { tenant } = signedIn;
  const found = await requestOf(request, tenant, params);
  return decideOnPage(request, context, {
    schema: DecisionForm,
    invalid: refusedDecisionForm,
    before: (form) => {
      // The core refuses it too; saying so here keeps the answer a plain 403.
      if (found.makerId === tenant.userId) forbidden("You made this request, so another person must decide it.");
      return found.status !== "pending" ? refuse({ form: `This request is already ${found.status}.` }, valuesOf(form)) : null;
    },
    underCheck: (form, act) => underDecisionCheck(request, signedIn, found, form, act),
    decide: (decision) => decideBusinessRequest(pageRun(context, signedIn), found, decision),
    refused: (form, message) => refuse({ form: message }, valuesOf(form)),
    done: (decision) => ({
      to: "/approvals",
      message:
        decision.intent === "approve"
          ? `Approved: the ${kindName(found.kind).toLowerCase()} change has taken effect.`
          : `Rejected: ${found.makerName} can read your reason on the request.`,
    }),
  });
}

const valuesOf = decisionFormValues;

// A refused decision (400) may still have changed the request: the engine marks
// it stale, or another checker decided it meanwhile. Read it again after every
// post (Remix skips that after a 4xx) so the page shows where it stands.
// Not after a lost send: the page stays as it was (app/components/forms/submission.ts).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
  !isConnectionLost(actionResult) && (formMethod === "POST" || defaultShouldRevalidate);
// A lost connection while sending keeps the page and what was typed, and a re-send runs once.
export { clientAction } from "#app/components/forms/submission";

const STALE =
  "This request is stale: the record changed after it was made, so it cannot be approved. The person who asked makes a new request from the current values.";

/** What this page says around the decision. */
const WORDS = {
  heading: "Decision",
  ownNotice: "You made this request, so another person must approve or reject it.",
  whoDecides: "Only a Super Administrator or an Administrator can approve or reject requests.",
  approveNote: "Approving applies the change at once and records you as the checker.",
};

export default function ApprovalRequestPage() {
  const { request, subject, rows, own, mayDecide } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const noun = kindName(request.kind).toLowerCase();
  const isCreate = request.action === "create";
  const pending = request.status === "pending";
  return (
    <RequestPage
      crumb={{ to: "/approvals", label: "Approvals" }}
      title={`${ACTION_NAMES[request.action]} ${noun}`}
      lead={`${subject ?? `A ${noun} no longer here`} · asked by ${request.makerName}`}
      status={request.status}
      answer={answer}
      own={own}
      mayDecide={mayDecide}
      makerName={request.makerName}
      words={WORDS}
      decided={request}
      staleNotice={STALE}
    >
      <section className="card" aria-labelledby="request-title">
        <h2 id="request-title">Request</h2>
        <dl className="details">
          <div className="details__row">
            <dt>Kind</dt>
            <dd>{kindName(request.kind)}</dd>
          </div>
          <div className="details__row">
            <dt>Action</dt>
            <dd>{ACTION_NAMES[request.action]}</dd>
          </div>
          <div className="details__row">
            <dt>Made by</dt>
            <dd>{request.makerName}</dd>
          </div>
          <div className="details__row">
            <dt>Made at</dt>
            <dd>{detailDate(request.madeAt)}</dd>
          </div>
        </dl>
      </section>

      <section className="card" aria-labelledby="change-title">
        <h2 id="change-title">{isCreate ? `The new ${noun}` : request.action === "deactivate" ? `The ${noun} to deactivate` : "The change"}</h2>
        <p className="card__lead">
          {isCreate
            ? `Every field of the ${noun} the request would create.`
            : `The ${noun} as it stands, with the fields this request ${pending ? "changes" : "changed"} marked.`}
        </p>
        <table className="change-table">
          <caption className="visually-hidden">{isCreate ? "Fields of the new record" : "Fields before and after"}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              {isCreate ? <th scope="col">Value</th> : null}
              {isCreate ? null : <th scope="col">{pending ? "Now" : "Before"}</th>}
              {isCreate ? null : <th scope="col">After</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={row.column}
                className={row.changed && !isCreate ? "change-table__row--changed" : undefined}
                data-changed={row.changed && !isCreate ? "true" : undefined}
              >
                <th scope="row">
                  {row.label}
                  {row.changed && !isCreate ? <span className="change-table__mark">Changed</span> : null}
                </th>
                {isCreate ? <td>{row.after}</td> : null}
                {isCreate ? null : <td>{row.before}</td>}
                {isCreate ? null : <td>{row.changed ? row.after : <span className="change-table__same">Unchanged</span>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </RequestPage>
  );
}
