// /merchants: every merchant of the business, with search (name, trading name,
// phone, TIN), filters (status, sector, region), sort, keyset pages, counts and
// a CSV of the whole filtered set. The reference list for the other screens.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { listMerchants, listMerchantSectors, type Merchant } from "#server/merchants/merchants.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { DataTable, ListCount, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { formatPathLike, tableDate } from "#app/lib/format";
import { GHANA_REGIONS } from "#app/lib/forms/ghana";
import * as v from "valibot";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { StatusPill } from "#app/components/status-pill";
import { paths } from "#app/lib/paths";
import { readMerchantSearch } from "#app/lib/merchant-search";

export const meta: MetaFunction = () => [{ title: "Merchants" }];

export const MERCHANT_LIST_PARAMS = {
  q: searchParam,
  status: oneOf(["active", "inactive"] as const),
  sector: v.optional(v.pipe(v.string(), v.maxLength(60))),
  region: oneOf(GHANA_REGIONS),
  sort: oneOf(["name", "newest"] as const),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:merchant");
  const { filters, page, trail } = listParams(new URL(request.url), MERCHANT_LIST_PARAMS);
  const query = { ...readMerchantSearch(filters.q), status: filters.status, sector: filters.sector, region: filters.region, sort: filters.sort };
  const [result, total, sectors] = await Promise.all([
    numberedPage((after) => listMerchants(tenant, { ...query, after }), trail, page),
    listMerchants(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
    listMerchantSectors(tenant),
  ]);
  return {
    merchants: result.rows,
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    sectors,
    filtered: Boolean(filters.q || filters.status || filters.sector || filters.region),
    canRequest: can(tenant.role, "request:merchant"),
    canExport: can(tenant.role, "export:merchant"),
  };
}

type MerchantRow = Pick<Merchant, "id" | "code" | "name" | "tradingName" | "tin" | "sector" | "town" | "region" | "contactPhone" | "status" | "createdAt">;

export const MERCHANT_COLUMNS: Column<MerchantRow>[] = [
  {
    id: "name",
    header: "Merchant",
    cell: (m) => (
      <Link to={paths.merchant(m.id)} className="cell-title">
        <strong>{m.name}</strong>
        <span className="cell-sub">{m.tradingName !== m.name ? m.tradingName : m.code}</span>
      </Link>
    ),
  },
  { id: "code", header: "Code", cell: (m) => m.code },
  { id: "tin", header: "TIN", cell: (m) => m.tin },
  { id: "sector", header: "Sector", cell: (m) => formatPathLike(m.sector) },
  { id: "place", header: "Town", cell: (m) => `${m.town}, ${m.region}` },
  { id: "phone", header: "Phone", cell: (m) => m.contactPhone },
  { id: "status", header: "Status", cell: (m) => <StatusPill entity="merchant" status={m.status} /> },
  { id: "created", header: "Added", cell: (m) => tableDate(m.createdAt) },
];

export default function Merchants() {
  const { merchants, page, trail, hasNext, total, sectors, filtered, canRequest, canExport } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <h1>Merchants</h1>
          <p className="page__lead">The businesses that accept payments through you, their points of sale and settlement accounts.</p>
        </div>
        {canRequest ? (
          <Link to="/merchants/add-merchant" className="button button--primary">
            Add merchant
          </Link>
        ) : null}
      </header>
      <ListToolbar
        searchLabel="Search merchants"
        searchPlaceholder="Name, trading name, code, phone or TIN"
        filters={[
          {
            name: "status",
            label: "Status",
            allLabel: "Any status",
            options: [
              { value: "active", label: "Active" },
              { value: "inactive", label: "Inactive" },
            ],
          },
          { name: "sector", label: "Sector", allLabel: "Any sector", options: sectors.map((s) => ({ value: s, label: formatPathLike(s) })) },
          { name: "region", label: "Region", allLabel: "Any region", options: GHANA_REGIONS.map((r) => ({ value: r, label: r })) },
        ]}
        sort={{
          options: [
            { value: "name", label: "Name A–Z" },
            { value: "newest", label: "Newest first" },
          ],
        }}
        actions={
          canExport && total > 0 ? (
            <a href={`/merchants/export${search}`} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={merchants.length} total={total} noun={total === 1 ? "merchant" : "merchants"} />
      <DataTable
        page
        caption="Merchants"
        columns={MERCHANT_COLUMNS}
        rows={merchants}
        rowKey={(m) => m.id}
        empty={
          filtered ? (
            <>
              <h2>No merchant matches</h2>
              <p>Try another search, or clear the filters.</p>
            </>
          ) : (
            <>
              <h2>No merchants yet</h2>
              <p>
                {canRequest
                  ? "Add the first merchant; it goes live when another person approves it."
                  : "Merchants appear here once they are added and approved."}
              </p>
            </>
          )
        }
      />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}
