// /platform: the operations view, where platform staff land (decision 039). Every business on the platform, searched
// by name or id and filtered by status and database, with each one's figures of the day read on its own database:
// payments today, the ingest lag, parked messages, the webhook failure rate and disputes due. Only platform staff reach
// it: the guard answers 404 to anyone else.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Link, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requirePlatform } from "#server/operators/guards";
import { LIFECYCLES, searchPlatformBusinesses } from "#server/operators/businesses.db";
import { failureRate, figuresOf, NO_FIGURES } from "#server/operators/figures.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { shardNames } from "#server/tenancy/shards";
import { DataTable, ListCount, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { platformCan } from "#server/operators/roles";
import { StatusPill } from "#app/components/status-pill";
import { formatCount } from "#app/lib/format";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { statusLabel } from "#app/lib/statuses";
import type { PageHandle } from "#app/lib/shell/page";
import { CountAndSum, FailureRate, formatSpan } from "./figures";

export const meta: MetaFunction = () => [{ title: "Platform" }];
export const handle: PageHandle = { layout: "platform" };
export { readOnlyPlatformAction as action } from "#server/operators/guards";

const PLATFORM_LIST_PARAMS = {
  q: searchParam,
  status: oneOf(LIFECYCLES),
  shard: v.optional(v.pipe(v.string(), v.regex(/^(DB|SHARD_[A-Z0-9_]{1,30})$/))),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const env = context.cloudflare.env;
  const { filters, page, trail } = listParams(new URL(request.url), PLATFORM_LIST_PARAMS);
  const databases = ["DB", ...shardNames(env)];
  const query = { search: filters.q, lifecycle: filters.status, shard: filters.shard && databases.includes(filters.shard) ? filters.shard : undefined };
  const [result, total] = await Promise.all([
    numberedPage((after) => searchPlatformBusinesses(deps.db, { ...query, after }), trail, page),
    searchPlatformBusinesses(deps.db, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
  ]);
  const now = deps.now();
  const figures = await figuresOf(env, result.rows, now);
  return {
    staff: { name: staff.name, role: staff.role },
    businesses: result.rows.map((business) => {
      const found = figures.get(business.id) ?? NO_FIGURES;
      return {
        ...business,
        ...found,
        // The ingest lag: how long the oldest message the API accepted for it has waited unapplied (parked).
        lagMs: found.oldestParkedAt === null ? null : Math.max(0, now - found.oldestParkedAt),
        failureRate: failureRate(found.webhooks),
      };
    }),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    databases,
    lifecycles: LIFECYCLES,
    filtered: Boolean(filters.q || filters.status || query.shard),
    // Onboarding a business is asked for from here (/platform/businesses/new).
    mayOnboard: platformCan(staff.role, "platform:request"),
  };
}

type Business = ReturnType<typeof useLoaderData<typeof loader>>["businesses"][number];

const COLUMNS: readonly Column<Business>[] = [
  {
    id: "name",
    header: "Business",
    cell: (b) => (
      <Link to={platformPaths.platformBusiness(b.id)} className="cell-title">
        <strong>{b.tradingName && b.tradingName !== b.name ? b.tradingName : b.name}</strong>
        <span className="cell-sub">{b.tradingName && b.tradingName !== b.name ? `${b.name} · ${b.id}` : b.id}</span>
      </Link>
    ),
  },
  { id: "status", header: "Status", cell: (b) => <StatusPill entity="business" status={b.lifecycle} /> },
  { id: "shard", header: "Database", cell: (b) => (b.movingTo ? `${b.shard} → ${b.movingTo}` : b.shard) },
  { id: "today", header: "Payments today", numeric: true, cell: (b) => <CountAndSum {...b.paymentsToday} /> },
  { id: "lag", header: "Ingest lag", numeric: true, cell: (b) => (b.lagMs === null ? "None waiting" : formatSpan(b.lagMs)) },
  { id: "parked", header: "Parked", numeric: true, cell: (b) => formatCount(b.parked) },
  { id: "webhooks", header: "Webhook failures", numeric: true, cell: (b) => <FailureRate {...b.webhooks} rate={b.failureRate} /> },
  { id: "disputes", header: "Disputes due", numeric: true, cell: (b) => formatCount(b.disputesDue) },
];

export default function PlatformOverview() {
  const { staff, businesses, page, trail, hasNext, total, databases, lifecycles, filtered, mayOnboard } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <h1>Platform</h1>
          <p className="page__lead">
            Signed in as {staff.name}, {staff.role}.
          </p>
          <p className="page__lead">
            Each business with today&apos;s figures (Africa/Accra) from its own database. Ingest lag: how long the oldest payment message the Partner API
            accepted has waited unapplied (parked). Webhook failures: deliveries of the last 24 hours whose last try failed. Disputes due: open disputes that
            still need a response, as the business&apos;s dashboard counts them.
          </p>
        </div>
        {mayOnboard ? (
          <Link to={platformPaths.platformOnboarding()} className="button button--primary">
            Onboard a business
          </Link>
        ) : null}
      </header>
      <ListToolbar
        searchLabel="Search businesses"
        searchPlaceholder="Name, trading name or id"
        filters={[
          { name: "status", label: "Status", allLabel: "Any status", options: lifecycles.map((s) => ({ value: s, label: statusLabel("business", s) })) },
          { name: "shard", label: "Database", allLabel: "Any database", options: databases.map((d) => ({ value: d, label: d })) },
        ]}
      />
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={businesses.length} total={total} noun={total === 1 ? "business" : "businesses"} />
      <DataTable
        caption="Businesses on the platform"
        columns={COLUMNS}
        rows={businesses}
        rowKey={(b) => b.id}
        compare
        empty={filtered ? <p>No business matches. Try another search, or clear the filters.</p> : <p>No business is on the platform yet.</p>}
      />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}
