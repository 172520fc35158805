// /notifications: the person's notices, newest first (decision 053): what waits for them, what was decided of what
// they asked. Each leads to its record (and counts as read once followed); "Mark all read" empties the bell.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import * as v from "valibot";
import { listNotices, markAllRead } from "#server/notifications/inbox.db";
import { openNoticePath } from "#server/notifications/links";
import { numberedPage } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { readForm } from "#server/forms";
import { refuse } from "#server/plumbing/http";
import { redirectWithFlash } from "#server/plumbing/flash";
import { DataTable, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { tableDate } from "#app/lib/format";
import { listParams, oneOf } from "#app/lib/lists/list-params";
import { useSending } from "#app/components/forms/form";
import { paths } from "#app/lib/paths";

export const meta: MetaFunction = () => [{ title: "Notifications" }];

const PARAMS = { show: oneOf(["unread"] as const) };
const MARK_ALL = "mark-all-read";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, null);
  const { filters, page, trail } = listParams(new URL(request.url), PARAMS);
  const result = await numberedPage((after) => listNotices(tenant, { after, unread: filters.show === "unread" }), trail, page);
  return {
    rows: result.rows.map((n) => ({ ...n, open: openNoticePath(n.id), unread: n.readAt === null && n.settledAt === null })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
  };
}

export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, null);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  if (!v.is(v.object({ intent: v.literal(MARK_ALL) }), read.fields)) return refuse({ form: "That was not understood. Reload the page and try again." });
  const marked = await markAllRead(tenant, deps.now());
  throw await redirectWithFlash(request, context.config.app, new URL(request.url).pathname + new URL(request.url).search, {
    kind: "success",
    message: marked === 0 ? "Nothing was unread." : `${marked === 1 ? "1 notification" : `${marked} notifications`} marked read.`,
  });
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const columns: Column<Row>[] = [
  {
    id: "notice",
    header: "Notification",
    cell: (n) => (
      <Link to={n.open} className={n.unread ? "notice-title notice-title--unread" : "notice-title"}>
        <strong>
          {n.title}
          {n.unread ? <span className="visually-hidden"> (unread)</span> : null}
        </strong>
        <span className="notice-body">{n.body}</span>
      </Link>
    ),
  },
  { id: "when", header: "When", cell: (n) => <span title={n.createdAt}>{tableDate(n.createdAt)}</span> },
  {
    id: "state",
    header: "State",
    cell: (n) => (n.settledAt && n.kind === "request.waiting" ? "Decided" : n.readAt ? "Read" : n.settledAt ? "Done" : <strong>Unread</strong>),
  },
];

export default function Notifications() {
  const { rows, page, trail, hasNext } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const unreadOnly = new URLSearchParams(search).get("show") === "unread";
  const busy = useSending(MARK_ALL);
  return (
    <div className="page">
      <header className="page__header">
        <h1>Notifications</h1>
        <p className="page__lead">
          Requests that wait for your decision and what was decided of yours. Choose which of them also reach you by email in{" "}
          <Link to={`${paths.settings()}#notifications`}>your profile</Link>.
        </p>
      </header>
      <ListToolbar
        filters={[{ name: "show", label: "Show", allLabel: "All notifications", options: [{ value: "unread", label: "Unread only" }] }]}
        actions={
          rows.some((n) => n.unread) ? (
            <Form method="post">
              <input type="hidden" name="intent" value={MARK_ALL} />
              <button type="submit" className="button button--ghost" disabled={busy}>
                Mark all read
              </button>
            </Form>
          ) : null
        }
      />
      <DataTable
        page
        caption="Notifications"
        columns={columns}
        rows={rows}
        rowKey={(n) => n.id}
        empty={
          <>
            <h2>{unreadOnly ? "Nothing unread" : "No notifications yet"}</h2>
            <p>When a request waits for your decision, or one of yours is decided, it shows here.</p>
          </>
        }
      />
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
    </div>
  );
}
