// /platform: where platform staff land (decision 039). The businesses on the platform, where each lives and where it
// stands. Only platform staff reach it: the guard answers 404 to anyone else.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePlatform } from "#server/operators/guards";
import { listPlatformBusinesses } from "#server/operators/businesses.db";
import { platformCan } from "#server/operators/roles";
import { DataTable, type Column } from "#app/components/data-table";
import { StatusPill } from "#app/components/status-pill";
import { formatDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/page";

export const meta: MetaFunction = () => [{ title: "Platform" }];
export const handle: PageHandle = { layout: "platform" };
export { readOnlyPlatformAction as action } from "#server/operators/guards";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  return {
    staff: { name: staff.name, role: staff.role },
    businesses: await listPlatformBusinesses(deps.db),
    // Onboarding a business is asked for from here (/platform/businesses/new).
    mayOnboard: platformCan(staff.role, "platform:request"),
  };
}

type Business = ReturnType<typeof useLoaderData<typeof loader>>["businesses"][number];

const COLUMNS: readonly Column<Business>[] = [
  { id: "name", header: "Business", cell: (b) => (b.tradingName && b.tradingName !== b.name ? `${b.tradingName} (${b.name})` : b.name) },
  { id: "town", header: "Town", cell: (b) => b.town },
  { id: "status", header: "Status", cell: (b) => <StatusPill entity="business" status={b.lifecycle} /> },
  { id: "shard", header: "Database", cell: (b) => (b.movingTo ? `${b.shard} → ${b.movingTo}` : b.shard) },
  { id: "since", header: "On the platform since", cell: (b) => formatDate(b.createdAt) },
];

export default function PlatformOverview() {
  const { staff, businesses, mayOnboard } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Platform</h1>
        <p className="page__lead">
          Signed in as {staff.name}, {staff.role}.
        </p>
        {mayOnboard ? (
          <Link to="/platform/businesses/new" className="button button--primary">
            Onboard a business
          </Link>
        ) : null}
      </header>
      <section className="card" aria-labelledby="businesses-title">
        <h2 id="businesses-title">Businesses</h2>
        <DataTable
          caption="Businesses on the platform"
          columns={COLUMNS}
          rows={businesses}
          rowKey={(b) => b.id}
          empty={<p>No business is on the platform yet.</p>}
        />
      </section>
    </div>
  );
}
