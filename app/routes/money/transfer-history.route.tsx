// /money/merchant-accounts/transfer-history/{merchantId}: every transfer into
// or out of one merchant account, with status, counterparty, who asked and who
// approved; the account's balances on top.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { namesOf } from "#server/lists/names.db";
import { numberedPage } from "#server/lists/page";
import { listMerchantTransfers } from "#server/ledger/transfers.db";
import { pageNotFound } from "#server/plumbing/http";
import { requireTenant } from "#server/guards";
import { DataTable, Pager, type Column } from "#app/components/lists/data-table";
import { StatusPill } from "#app/components/status-pill";
import { formatAmount, formatDate, networkLabel } from "#app/lib/format";
import { readPage, readTrail } from "#app/lib/lists/list-url";

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
  // Names of the people and counterparties on this page.
  const [people, merchants, accounts] = await Promise.all([
    namesOf(
      tenant,
      "person",
      result.rows.flatMap((t) => [t.requestedBy, t.approvedBy]),
    ),
    namesOf(
      tenant,
      "merchant",
      result.rows.flatMap((t) => [t.fromMerchantId, t.toMerchantId]),
    ),
    namesOf(
      tenant,
      "settlement_account",
      result.rows.map((t) => t.toSettlementAccountId),
    ),
  ]);
  return {
    merchant: { id: merchant.id, name: merchant.name, code: merchant.code },
    balances,
    transfers: result.rows.map((t) => {
      const outgoing = t.fromMerchantId === merchant.id;
      const toAccount = outgoing && t.toSettlementAccountId !== null;
      const counterpartyId = outgoing ? (t.toMerchantId ?? t.toSettlementAccountId) : t.fromMerchantId;
      return {
        id: t.id,
        direction: outgoing ? ("out" as const) : ("in" as const),
        counterparty: `${toAccount ? "Settlement account " : "Merchant account "}${(toAccount ? accounts : merchants).get(counterpartyId ?? "") ?? "unknown"}`,
        amount: t.amount,
        status: t.status,
        requestedBy: people.get(t.requestedBy) ?? "Unknown",
        approvedBy: t.approvedBy ? (people.get(t.approvedBy) ?? "Unknown") : null,
        createdAt: t.createdAt,
        decidedAt: t.decidedAt,
      };
    }),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
  };
}

type TransferRow = ReturnType<typeof useLoaderData<typeof loader>>["transfers"][number];

const COLUMNS: Column<TransferRow>[] = [
  { id: "when", header: "Asked", cell: (t) => formatDate(t.createdAt, "numeric") },
  { id: "direction", header: "Direction", cell: (t) => (t.direction === "out" ? "Out" : "In") },
  { id: "counterparty", header: "Counterparty", cell: (t) => networkLabel(t.counterparty) },
  { id: "amount", header: "Amount (GHS)", numeric: true, cell: (t) => `${t.direction === "out" ? "−" : "+"}${formatAmount(t.amount)}` },
  { id: "status", header: "Status", cell: (t) => <StatusPill entity="transfer" status={t.status} /> },
  { id: "by", header: "Asked by", cell: (t) => t.requestedBy },
  { id: "approver", header: "Approved by", cell: (t) => t.approvedBy ?? "—" },
];

export default function TransferHistory() {
  const { merchant, balances, transfers, page, trail, hasNext } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to="/money/merchant-accounts">Merchant Accounts</Link>
        </p>
        <h1>Transfer History</h1>
        <p className="page__lead">{`${merchant.name} (${merchant.code})`}</p>
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
      <DataTable
        caption={`Transfers of ${merchant.name}`}
        columns={COLUMNS}
        rows={transfers}
        rowKey={(t) => t.id}
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
