// /approvals: the maker-checker queue. "Waiting for me" (what this person may decide now: the navigation's count
// opens it) or every request; tabs per kind, transfers and refunds included (links that set ?kind=), each with its
// count; filters by status (pending unless asked) and by maker; keyset pages. Each row names what it concerns and
// links to the request page, where a checker decides; a checker may also tick requests and decide them together.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, type ShouldRevalidateFunction } from "@remix-run/react";
import type { RequestKind, ApprovalRequest } from "#server/approvals/change-kinds";
import { countPendingRequests, listApprovalRequests, requestSubjects, requestsWaitingFor } from "#server/approvals/change-requests.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { can } from "#server/permissions";
import { redirectWithFlash } from "#server/plumbing/flash";
import { DataTable, ListCount, Pager, type Column } from "#app/components/lists/data-table";
import { ListForm } from "#app/components/lists/list-form";
import { ACTION_NAMES, KIND_SLUGS, kindName } from "./request-words";
import { WAITING_VIEW } from "#app/lib/shell/navigation";
import { approvalPath } from "#app/lib/paths";
import { statusLabels } from "#app/lib/statuses";
import { StatusPill } from "#app/components/status-pill";
import { formatCount, tableDate } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { exportHref } from "#app/lib/lists/export-url";
import { approvalListQuery } from "./list-query.server";
import { STATUS_FILTERS } from "./status-filters";
import { isConnectionLost } from "#app/components/forms/submission";
import { BulkDecision, ChooseRequest } from "./bulk-decision";
import { decideSelected } from "./bulk-decision.server";
import { readForm } from "#server/forms";
import { MOST_IN_ONE_CHECK } from "#server/auth/fresh-check";

export const meta: MetaFunction = () => [{ title: "Approvals" }];

const TABS: { slug: string | null; label: string; kind: RequestKind | null }[] = [
  { slug: null, label: "All", kind: null },
  { slug: KIND_SLUGS.merchant, label: "Merchants", kind: "merchant" },
  { slug: KIND_SLUGS.point_of_sale, label: "Points of sale", kind: "point_of_sale" },
  { slug: KIND_SLUGS.settlement_account, label: "Settlement accounts", kind: "settlement_account" },
  { slug: KIND_SLUGS.employee, label: "Employees", kind: "employee" },
  { slug: KIND_SLUGS.security_policy, label: "Security", kind: "security_policy" },
  { slug: KIND_SLUGS.terminal, label: "Terminals", kind: "terminal" },
  { slug: "transfer", label: "Transfers", kind: "transfer" },
  { slug: "refund", label: "Refunds", kind: "refund" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:approval");
  const { query, filters, page, trail, decides, waitingView, status, kind, employees, makerId } = await approvalListQuery(tenant, new URL(request.url));
  const [result, total, pending, waiting] = await Promise.all([
    numberedPage((after) => listApprovalRequests(tenant, { ...query, after }), trail, page),
    listApprovalRequests(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
    countPendingRequests(tenant),
    decides ? countPendingRequests(tenant, tenant.userId) : null,
  ]);
  const [subjects, decidable] = await Promise.all([
    requestSubjects(tenant, result.rows),
    decides
      ? requestsWaitingFor(
          tenant,
          tenant.userId,
          result.rows.map((r) => r.id),
        )
      : new Set<string>(),
  ]);
  return {
    requests: result.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      action: r.action,
      makerName: r.makerName,
      madeAt: r.madeAt,
      status: r.status,
      subject: subjects[r.id] ?? null,
      waitsForMe: decidable.has(r.id),
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    counts: waitingView && waiting ? waiting : pending,
    waitingTotal: waiting ? Object.values(waiting).reduce((sum, n) => sum + n, 0) : null,
    waitingView,
    employees,
    kindSlug: kind ? filters.kind : null,
    status,
    makerId: makerId ?? null,
    canExport: can(tenant.role, "export:transaction"),
    mostInOneCheck: MOST_IN_ONE_CHECK,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const signedIn = await requireTenant(request, context, "decide:approval");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const answer = await decideSelected(request, context, signedIn, read.form);
  const outcome = "data" in answer && answer.data && typeof answer.data === "object" && "outcome" in answer.data ? answer.data.outcome : null;
  // Every chosen request decided: back to the queue as it was, saying so.
  if (outcome && outcome.refused.length === 0) {
    const done = outcome.intent === "approve-selected" ? "Approved" : "Rejected";
    throw await redirectWithFlash(request, context.config.app, `${new URL(request.url).pathname}${new URL(request.url).search}`, {
      kind: "success",
      message: `${done} ${formatCount(outcome.decided)} ${outcome.decided === 1 ? "request" : "requests"}.`,
    });
  }
  return answer;
}

// A batch that was partly or wholly refused (a 400 when none went through) has still changed the queue: a request
// found stale, or decided by someone else meanwhile. Read it again after every post, as the request page does; not
// after a lost send, which keeps the page and the ticked boxes.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
  !isConnectionLost(actionResult) && (formMethod === "POST" || defaultShouldRevalidate);
// A lost connection while sending keeps the page, and a re-send runs once.
export { clientAction } from "#app/components/forms/submission";

type Row = Pick<ApprovalRequest, "id" | "action" | "makerName" | "madeAt" | "status"> & { kind: string; subject: string | null; waitsForMe: boolean };

const titleOf = (r: Row) => r.subject ?? (r.kind === "transfer" ? "A transfer" : r.kind === "refund" ? "A refund" : "A record no longer here");

const COLUMNS: Column<Row>[] = [
  {
    id: "subject",
    header: "Concerns",
    cell: (r) => {
      const href = approvalPath(r.kind, r.id);
      return href ? (
        <Link to={href} className="cell-title">
          <strong>{titleOf(r)}</strong>
          <span className="cell-sub">Open the request</span>
        </Link>
      ) : (
        <span className="cell-title">
          <span>{titleOf(r)}</span>
          <span className="cell-sub">Decided on its own screen</span>
        </span>
      );
    },
  },
  { id: "kind", header: "Kind", cell: (r) => kindName(r.kind) },
  // A refund asks for money to go back: its action is that, not the new row it makes.
  { id: "action", header: "Action", cell: (r) => (r.kind === "refund" ? "Refund" : (ACTION_NAMES[r.action] ?? r.action)) },
  { id: "maker", header: "Made by", cell: (r) => r.makerName },
  { id: "made", header: "Made at", cell: (r) => tableDate(r.madeAt) },
  { id: "status", header: "Status", cell: (r) => <StatusPill entity="approval" status={r.status} /> },
];

/** The box a checker ticks, first in each row that waits for them (the others cannot be decided by them). */
const CHOOSE: Column<Row> = {
  id: "choose",
  header: "Choose",
  cell: (r) => (r.waitsForMe ? <ChooseRequest id={r.id} subject={titleOf(r)} /> : null),
};

const STATUS_LABELS: Record<(typeof STATUS_FILTERS)[number], string> = { ...statusLabels("approval"), all: "Any status" };

export default function Approvals() {
  const { requests, page, trail, hasNext, total, counts, waitingTotal, waitingView, employees, kindSlug, status, makerId, canExport, mostInOneCheck } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const allCounted = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const filtered = (!waitingView && status !== "pending") || makerId !== null;
  const choosing = requests.some((r) => r.waitsForMe);
  return (
    <div className="page">
      <header className="page__header">
        <h1>Approvals</h1>
        <p className="page__lead">Changes that one person asked for and another must approve before they take effect.</p>
      </header>
      {waitingTotal !== null ? (
        <nav className="tabs tabs--views" aria-label="Whose requests">
          <ul className="tabs__list">
            <li>
              <Link
                to={filterHref(params, { view: WAITING_VIEW, status: null })}
                className={waitingView ? "tabs__tab tabs__tab--current" : "tabs__tab"}
                aria-current={waitingView ? "page" : undefined}
              >
                Waiting for me
                <span className="tabs__count" aria-label={`${waitingTotal} waiting for you`}>
                  {formatCount(waitingTotal)}
                </span>
              </Link>
            </li>
            <li>
              <Link
                to={filterHref(params, { view: null })}
                className={waitingView ? "tabs__tab" : "tabs__tab tabs__tab--current"}
                aria-current={waitingView ? undefined : "page"}
              >
                Every request
              </Link>
            </li>
          </ul>
        </nav>
      ) : null}
      <nav className="tabs" aria-label="Kinds of request">
        <ul className="tabs__list">
          {TABS.map((tab) => {
            const count = tab.kind ? counts[tab.kind] : allCounted;
            const current = tab.slug === kindSlug;
            return (
              <li key={tab.label}>
                <Link
                  to={filterHref(params, { kind: tab.slug })}
                  className={current ? "tabs__tab tabs__tab--current" : "tabs__tab"}
                  aria-current={current ? "page" : undefined}
                >
                  {tab.label}
                  <span className="tabs__count" aria-label={`${count} ${waitingView ? "waiting for you" : "pending"}`}>
                    {formatCount(count)}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="list-toolbar">
        <ListForm sets={["status", "maker"]} submitOnSelect className="list-toolbar__form">
          {waitingView ? null : (
            <label className="list-toolbar__filter">
              <span>Status</span>
              <select name="status" defaultValue={status}>
                {STATUS_FILTERS.map((value) => (
                  <option key={value} value={value}>
                    {STATUS_LABELS[value]}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="list-toolbar__filter">
            <span>Made by</span>
            <select name="maker" defaultValue={makerId ?? ""}>
              <option value="">Anyone</option>
              {employees.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Apply
          </button>
          {filtered ? (
            <Link to={filterHref(params, { status: null, maker: null })} className="button button--ghost">
              Clear
            </Link>
          ) : null}
        </ListForm>
        {canExport && total > 0 ? (
          <div className="list-toolbar__actions">
            <a href={exportHref("/approvals/export", search)} className="button" download>
              Export CSV
            </a>
          </div>
        ) : null}
      </div>
      {choosing ? <BulkDecision answer={answer} most={mostInOneCheck} /> : null}
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={requests.length} total={total} noun={total === 1 ? "request" : "requests"} />
      <DataTable
        page
        caption="Approval requests"
        columns={choosing ? [CHOOSE, ...COLUMNS] : COLUMNS}
        rows={requests}
        rowKey={(r) => r.id}
        empty={
          <>
            <h2>{waitingView ? "Nothing waits for your decision" : "Nothing waiting for a decision"}</h2>
            <p>
              {waitingView
                ? "Requests other people make appear here. Your own requests wait for someone else: see Every request."
                : status === "pending" && makerId === null
                  ? "New requests appear here as soon as someone asks for a change."
                  : "No request matches these filters. Try another status or maker."}
            </p>
          </>
        }
      />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}
