// /approvals: the maker-checker queue. Tabs per kind (links that set ?kind=),
// each with its pending count; filters by status (pending unless asked) and by
// maker; keyset pages. Each row names what it concerns and links to the
// request page, where a checker decides.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useSubmit } from "@remix-run/react";
import * as v from "valibot";
import type { ApprovalKind, ApprovalRequest } from "#server/approvals/change-kinds";
import { countPendingRequests, listApprovalRequests, requestSubjects } from "#server/approvals/change-requests.db";
import { listEmployees } from "#server/team/employees.db";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { DataTable, ListCount, Pager, type Column } from "#app/components/data-table";
import { ACTION_NAMES, KIND_BY_SLUG, KIND_SLUGS, kindName } from "#app/lib/approvals";
import { approvalPath } from "#app/lib/paths";
import { statusLabels } from "#app/lib/statuses";
import { StatusPill } from "#app/components/status-pill";
import { formatCount, formatDate } from "#app/lib/format";
import { listParams, oneOf } from "#app/lib/list-params";
import { filterHref } from "#app/lib/list-url";

export const meta: MetaFunction = () => [{ title: "Approvals" }];

const STATUS_FILTERS = ["pending", "approved", "rejected", "stale", "all"] as const;

export const APPROVAL_LIST_PARAMS = {
  kind: oneOf(Object.values(KIND_SLUGS)),
  status: oneOf(STATUS_FILTERS),
  maker: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,80}$/))),
};

const TABS: { slug: string | null; label: string; kind: ApprovalKind | null }[] = [
  { slug: null, label: "All", kind: null },
  { slug: KIND_SLUGS.merchant, label: "Merchants", kind: "merchant" },
  { slug: KIND_SLUGS.point_of_sale, label: "Points of sale", kind: "point_of_sale" },
  { slug: KIND_SLUGS.settlement_account, label: "Settlement accounts", kind: "settlement_account" },
  { slug: KIND_SLUGS.employee, label: "Employees", kind: "employee" },
  { slug: KIND_SLUGS.security_policy, label: "Security", kind: "security_policy" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:approval");
  const { filters, page, trail } = listParams(new URL(request.url), APPROVAL_LIST_PARAMS);
  const status = filters.status ?? "pending";
  const kind = filters.kind ? KIND_BY_SLUG[filters.kind] : undefined;
  // Makers are the business's people; a maker id that is not one of them filters nothing in.
  const employees = (await listEmployees(tenant, { limit: MAX_PAGE_SIZE })).rows.map((e) => ({ id: e.userId, name: e.name }));
  const makerId = filters.maker && employees.some((e) => e.id === filters.maker) ? filters.maker : undefined;
  const query = { status: status === "all" ? undefined : status, kind, makerId };
  const [result, total, pending] = await Promise.all([
    numberedPage((after) => listApprovalRequests(tenant, { ...query, after }), trail, page),
    listApprovalRequests(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
    countPendingRequests(tenant),
  ]);
  const subjects = await requestSubjects(tenant, result.rows);
  return {
    requests: result.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      action: r.action,
      makerName: r.makerName,
      madeAt: r.madeAt,
      status: r.status,
      subject: subjects[r.id] ?? null,
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    pending,
    employees,
    kindSlug: filters.kind ?? null,
    status,
    makerId: makerId ?? null,
  };
}

type Row = Pick<ApprovalRequest, "id" | "action" | "makerName" | "madeAt" | "status"> & { kind: string; subject: string | null };

const COLUMNS: Column<Row>[] = [
  {
    id: "subject",
    header: "Concerns",
    cell: (r) => {
      const href = approvalPath(r.kind, r.id);
      const title = r.subject ?? (r.kind === "transfer" ? "A transfer" : r.kind === "refund" ? "A refund" : "A record no longer here");
      return href ? (
        <Link to={href} className="cell-title">
          <strong>{title}</strong>
          <span className="cell-sub">Open the request</span>
        </Link>
      ) : (
        <span className="cell-title">
          <span>{title}</span>
          <span className="cell-sub">Decided on its own screen</span>
        </span>
      );
    },
  },
  { id: "kind", header: "Kind", cell: (r) => kindName(r.kind) },
  // A refund asks for money to go back: its action is that, not the new row it makes.
  { id: "action", header: "Action", cell: (r) => (r.kind === "refund" ? "Refund" : (ACTION_NAMES[r.action] ?? r.action)) },
  { id: "maker", header: "Made by", cell: (r) => r.makerName },
  { id: "made", header: "Made at", cell: (r) => formatDate(r.madeAt, "numeric") },
  { id: "status", header: "Status", cell: (r) => <StatusPill entity="approval" status={r.status} /> },
];

const STATUS_LABELS: Record<(typeof STATUS_FILTERS)[number], string> = { ...statusLabels("approval"), all: "Any status" };

export default function Approvals() {
  const { requests, page, trail, hasNext, total, pending, employees, kindSlug, status, makerId } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const submit = useSubmit();
  const allPending = pending.employee + pending.merchant + pending.point_of_sale + pending.settlement_account + pending.transfer + pending.refund;
  const filtered = status !== "pending" || makerId !== null;
  return (
    <div className="page">
      <header className="page__header">
        <h1>Approvals</h1>
        <p className="page__lead">Changes that one person asked for and another must approve before they take effect.</p>
      </header>
      <nav className="tabs" aria-label="Kinds of request">
        <ul className="tabs__list">
          {TABS.map((tab) => {
            const count = tab.kind ? pending[tab.kind] : allPending;
            const current = tab.slug === kindSlug;
            return (
              <li key={tab.label}>
                <Link
                  to={filterHref(params, { kind: tab.slug })}
                  className={current ? "tabs__tab tabs__tab--current" : "tabs__tab"}
                  aria-current={current ? "page" : undefined}
                >
                  {tab.label}
                  <span className="tabs__count" aria-label={`${count} pending`}>
                    {formatCount(count)}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="list-toolbar">
        <Form
          method="get"
          className="list-toolbar__form"
          onChange={(event) => event.target instanceof HTMLSelectElement && submit(event.currentTarget, { replace: true })}
        >
          {kindSlug ? <input type="hidden" name="kind" value={kindSlug} /> : null}
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
            <Link to={filterHref(new URLSearchParams(kindSlug ? { kind: kindSlug } : {}), {})} className="button button--ghost">
              Clear
            </Link>
          ) : null}
        </Form>
      </div>
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={requests.length} total={total} noun={total === 1 ? "request" : "requests"} />
      <DataTable
        caption="Approval requests"
        columns={COLUMNS}
        rows={requests}
        rowKey={(r) => r.id}
        empty={
          <>
            <h2>Nothing waiting for a decision</h2>
            <p>
              {status === "pending" && makerId === null
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
