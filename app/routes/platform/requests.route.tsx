// /platform/requests: the platform's maker-checker queue (decision 039). What waits for a decision, oldest first, and
// what was decided, newest first. Each row links to the request, where a second Platform Administrator decides.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Link, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requirePlatform } from "#server/operators/guards";
import { PLATFORM_SPECS } from "#server/operators/kinds";
import { listPlatformRequests } from "#server/operators/requests.db";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { StatusPill } from "#app/components/status-pill";
import { tableDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/shell/page";

export const meta: MetaFunction = () => [{ title: "Platform Requests" }];
export const handle: PageHandle = { layout: "platform" };
export { readOnlyPlatformAction as action } from "#server/operators/guards";

const View = v.fallback(v.picklist(["waiting", "decided"]), "waiting");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const view = v.parse(View, new URL(request.url).searchParams.get("view") ?? undefined);
  const rows = await listPlatformRequests(deps.db, view);
  return {
    view,
    requests: rows.flatMap((r) => {
      const spec = PLATFORM_SPECS[r.kind];
      if (!spec) return [];
      return [
        { id: r.id, title: spec.title(r), makerName: r.makerName, own: r.makerId === staff.userId, madeAt: r.madeAt, status: r.status, decidedAt: r.decidedAt },
      ];
    }),
  };
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["requests"][number];

const COLUMNS: readonly Column<Row>[] = [
  { id: "title", header: "Request", cell: (r) => <Link to={platformPaths.platformRequest(r.id)}>{r.title}</Link> },
  { id: "maker", header: "Asked by", cell: (r) => (r.own ? `${r.makerName} (you)` : r.makerName) },
  { id: "made", header: "Asked at", cell: (r) => tableDate(r.madeAt) },
  { id: "status", header: "Status", cell: (r) => <StatusPill entity="approval" status={r.status} /> },
];

const TABS = [
  { view: "waiting", label: "Waiting" },
  { view: "decided", label: "Decided" },
] as const;

export default function PlatformRequests() {
  const { view, requests } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Platform Requests</h1>
        <p className="page__lead">What one Platform Administrator asked for and another must approve before it takes effect.</p>
      </header>
      <nav className="tabs" aria-label="Which requests">
        <ul className="tabs__list">
          {TABS.map((tab) => (
            <li key={tab.view}>
              <Link
                to={platformPaths.platformRequests(tab.view)}
                className={tab.view === view ? "tabs__tab tabs__tab--current" : "tabs__tab"}
                aria-current={tab.view === view ? "page" : undefined}
              >
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="card" aria-label={view === "waiting" ? "Waiting requests" : "Decided requests"}>
        <DataTable
          page
          caption={view === "waiting" ? "Requests waiting for a decision" : "Requests decided"}
          columns={COLUMNS}
          rows={requests}
          rowKey={(r) => r.id}
          empty={<p>{view === "waiting" ? "Nothing waits for a decision." : "No request has been decided yet."}</p>}
        />
      </section>
    </div>
  );
}
