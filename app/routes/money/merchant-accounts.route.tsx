// /money/merchant-accounts: one row per merchant account with its pending,
// available and total balances, derived from the ledger (never stored), and a
// link to the account's transfer history.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { listMerchantBalances } from "#server/ledger/ledger.db";
import { listMerchants } from "#server/merchants/merchants.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { can } from "#server/permissions";
import { DataTable, ListCount, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { formatAmount } from "#app/lib/format";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { paths } from "#app/lib/paths";
import { exportHref } from "#app/lib/lists/export-url";
import { readMerchantSearch } from "#app/lib/merchant-search";

export const meta: MetaFunction = () => [{ title: "Merchant Accounts" }];

export const MERCHANT_ACCOUNT_LIST_PARAMS = { q: searchParam, status: oneOf(["active", "inactive"] as const) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:balance");
  const { filters, page, trail } = listParams(new URL(request.url), MERCHANT_ACCOUNT_LIST_PARAMS);
  const query = { ...readMerchantSearch(filters.q), status: filters.status };
  const [result, total] = await Promise.all([
    numberedPage((after) => listMerchants(tenant, { ...query, after }), trail, page),
    listMerchants(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
  ]);
  const balances = await listMerchantBalances(
    tenant,
    result.rows.map((m) => m.id),
  );
  return {
    accounts: result.rows.map((m) => ({
      id: m.id,
      name: m.name,
      code: m.code,
      status: m.status,
      ...(balances[m.id] ?? { pending: 0, available: 0, held: 0, total: 0 }),
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    filtered: Boolean(filters.q || filters.status),
    canExport: can(tenant.role, "export:transaction"),
  };
}

type Account = ReturnType<typeof useLoaderData<typeof loader>>["accounts"][number];

const COLUMNS: Column<Account>[] = [
  {
    id: "merchant",
    header: "Merchant account",
    cell: (a) => (
      <span className="cell-title">
        <strong>{a.name}</strong>
        <span className="cell-sub">{a.code}</span>
      </span>
    ),
  },
  { id: "pending", header: "Pending (GHS)", numeric: true, cell: (a) => formatAmount(a.pending) },
  { id: "available", header: "Available (GHS)", numeric: true, cell: (a) => formatAmount(a.available) },
  // Money an open dispute holds is the merchant's still, but neither transferred nor settled (decision 023), so it has its own column.
  { id: "held", header: "Held by disputes (GHS)", numeric: true, cell: (a) => formatAmount(a.held) },
  { id: "total", header: "Total (GHS)", numeric: true, cell: (a) => <strong>{formatAmount(a.total)}</strong> },
  {
    id: "history",
    header: "Transfers",
    cell: (a) => (
      <Link to={paths.transferHistory(a.id)} aria-label={`Transfer history of ${a.name}`}>
        Transfer history
      </Link>
    ),
  },
];

export default function MerchantAccounts() {
  const { accounts, page, trail, hasNext, total, filtered, canExport } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Merchant Accounts</h1>
        <p className="page__lead">What the business owes each merchant: pending clears to available (mobile money in 1 day, cards in 3), then settles.</p>
      </header>
      <ListToolbar
        searchLabel="Search merchant accounts"
        searchPlaceholder="Merchant name, code, phone or TIN"
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
        ]}
        actions={
          canExport && total > 0 ? (
            <a href={exportHref("/money/merchant-accounts/export", search)} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={accounts.length} total={total} noun={total === 1 ? "account" : "accounts"} />
      <DataTable
        page
        caption="Merchant accounts"
        columns={COLUMNS}
        rows={accounts}
        rowKey={(a) => a.id}
        empty={filtered ? <h2>No account matches</h2> : <h2>No merchant accounts yet</h2>}
      />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}
