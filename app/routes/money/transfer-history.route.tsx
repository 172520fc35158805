// /money/merchant-accounts/transfer-history/{merchantId}: every transfer into
// or out of one merchant account, with status, counterparty, who asked and who
// approved; the account's balances on top.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { numberedPage } from "#server/lists/page";
import { listMerchantTransfers } from "#server/ledger/transfers.db";
import { pageNotFound } from "#server/plumbing/http";
import { requireTenant } from "#server/guards";
import { can } from "#server/permissions";
import { DataTable, Pager, type Column } from "#app/components/lists/data-table";
import { StatusPill } from "#app/components/status-pill";
import { formatAmount, networkLabel, replaceBrandWords, tableDate } from "#app/lib/format";
import { readPage, readTrail } from "#app/lib/lists/list-url";
import { paths } from "#app/lib/paths";
import { transferViews } from "./transfer-history.server";

export const meta: MetaFunction = () => [{ title: "Transfer History" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:transfer");
  const merchant = await getMerchant(tenant, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  const url = new URL(request.url);
  const [balances, result] = await Promise.all([
    getMerchantBalances(tenant, merchant.id),
    numberedPage((after) => listMerchantTransfers(tenant, { merchantId: merchant.id, after }), readTrail(url.searchParams), readPage(url.searchParams)),
  ]);
  return {
    merchant: { id: merchant.id, name: merchant.name, code: merchant.code },
    balances,
    transfers: await transferViews(tenant, merchant.id, result.rows),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    canExport: can(tenant.role, "export:transaction"),
  };
}

type TransferRow = ReturnType<typeof useLoaderData<typeof loader>>["transfers"][number];

const COLUMNS: Column<TransferRow>[] = [
  { id: "when", header: "Asked", cell: (t) => tableDate(t.createdAt) },
  { id: "direction", header: "Direction", cell: (t) => (t.direction === "out" ? "Out" : "In") },
  { id: "counterparty", header: "Counterparty", cell: (t) => networkLabel(t.counterparty) },
  { id: "amount", header: "Amount (GHS)", numeric: true, cell: (t) => `${t.direction === "out" ? "−" : "+"}${formatAmount(t.amount)}` },
  { id: "narration", header: "Narration", cell: (t) => t.narration ?? "—" },
  { id: "status", header: "Status", cell: (t) => <StatusPill entity="transfer" status={t.status} /> },
  { id: "by", header: "Asked by", cell: (t) => t.requestedBy },
  { id: "approver", header: "Approved by", cell: (t) => t.approvedBy ?? "—" },
  { id: "payout", header: "Payout", cell: (t) => <PayoutCell payout={t.payout} /> },
];

/** A payout's state, its statement reference (a link to its settlement) and, once the rail gave one, the rail's reference. */
function PayoutCell({ payout }: { payout: TransferRow["payout"] }) {
  if (!payout) return <>—</>;
  return (
    <div className="cell-stack">
      <StatusPill entity="settlement" status={payout.status} />
      <Link to={paths.settlement(payout.settlementId)} className="cell-sub code code--wrap">
        {payout.reference}
      </Link>
      {payout.railReference ? <span className="cell-sub">Rail reference {payout.railReference}</span> : null}
    </div>
  );
}

export default function TransferHistory() {
  const { merchant, balances, transfers, page, trail, hasNext, canExport } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to="/money/merchant-accounts">Merchant Accounts</Link>
        </p>
        <h1>Transfer History</h1>
        <p className="page__lead">{replaceBrandWords(`${merchant.name} (${merchant.code})`)}</p>
      </header>
      <dl className="totals" aria-label="Balances" data-testid="balances">
        <div>
          <dt>Pending (GHS)</dt>
          <dd>{formatAmount(balances.pending)}</dd>
        </div>
        <div>
          <dt>Available (GHS)</dt>
          <dd>{formatAmount(balances.available)}</dd>
        </div>
        <div>
          <dt>Held by disputes (GHS)</dt>
          <dd>{formatAmount(balances.held)}</dd>
        </div>
        <div>
          <dt>Total (GHS)</dt>
          <dd>{formatAmount(balances.total)}</dd>
        </div>
      </dl>
      {canExport && transfers.length > 0 ? (
        <p className="list-toolbar__actions">
          <a href={`${paths.transferHistory(merchant.id)}/export`} className="button" download>
            Export CSV
          </a>
        </p>
      ) : null}
      <DataTable
        page
        caption={`Transfers of ${replaceBrandWords(merchant.name)}`}
        columns={COLUMNS}
        rows={transfers}
        rowKey={(t) => t.id}
        compare
        empty={
          <>
            <h2>No transfers yet</h2>
            <p>Transfers out of this account, and into it from other merchant accounts, appear here once someone asks for one.</p>
          </>
        }
      />
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
    </div>
  );
}
