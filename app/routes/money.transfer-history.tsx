// /money/merchant-accounts/transfer-history/{merchantId}: every transfer into
// or out of one merchant account, with status, counterparty, who asked and who
// approved; the account's balances on top.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getMerchantBalances } from "../../functions/data/ledger";
import { getMerchant } from "../../functions/data/merchants";
import { numberedPage } from "../../functions/data/page";
import { listMerchantTransfers } from "../../functions/data/transfers";
import { pageNotFound } from "../../functions/http";
import { requireTenant } from "../../functions/guards";
import { DataTable, Pager, type Column } from "../components/data-table";
import { formatAmount, formatDate } from "../lib/format";
import { readPage, readTrail } from "../lib/list-url";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:transfer");
  const merchant = await getMerchant(tenant, deps.db, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  const url = new URL(request.url);
  const [balances, result] = await Promise.all([
    getMerchantBalances(tenant, deps.db, merchant.id),
    numberedPage(
      (after) => listMerchantTransfers(tenant, deps.db, { merchantId: merchant.id, after }),
      readTrail(url.searchParams),
      readPage(url.searchParams),
    ),
  ]);
  // Names of the people and counterparties on this page, one query each.
  const people = [...new Set(result.rows.flatMap((t) => [t.requestedBy, t.approvedBy]).filter((id): id is string => Boolean(id)))];
  const merchants = [...new Set(result.rows.flatMap((t) => [t.fromMerchantId, t.toMerchantId]).filter((id): id is string => Boolean(id)))];
  const accounts = [...new Set(result.rows.map((t) => t.toSettlementAccountId).filter((id): id is string => Boolean(id)))];
  const list = (n: number) => Array.from({ length: n }, () => "?").join(", ");
  const [names, merchantNames, accountNames] = await Promise.all([
    people.length
      ? deps.db
          .prepare(`SELECT id, name FROM users WHERE id IN (${list(people.length)})`)
          .bind(...people)
          .all<{ id: string; name: string }>()
      : { results: [] },
    merchants.length
      ? deps.db
          .prepare(`SELECT id, name FROM merchants WHERE business_id = ? AND id IN (${list(merchants.length)})`)
          .bind(tenant.businessId, ...merchants)
          .all<{ id: string; name: string }>()
      : { results: [] },
    accounts.length
      ? deps.db
          .prepare(`SELECT id, provider || ' ' || account_number AS name FROM settlement_accounts WHERE business_id = ? AND id IN (${list(accounts.length)})`)
          .bind(tenant.businessId, ...accounts)
          .all<{ id: string; name: string }>()
      : { results: [] },
  ]);
  const nameOf = new Map([...names.results, ...merchantNames.results, ...accountNames.results].map((row) => [row.id, row.name]));
  return {
    merchant: { id: merchant.id, name: merchant.name, code: merchant.code },
    balances,
    transfers: result.rows.map((t) => {
      const outgoing = t.fromMerchantId === merchant.id;
      const counterpartyId = outgoing ? (t.toMerchantId ?? t.toSettlementAccountId) : t.fromMerchantId;
      return {
        id: t.id,
        direction: outgoing ? ("out" as const) : ("in" as const),
        counterparty: `${outgoing && t.toSettlementAccountId ? "Settlement account " : "Merchant account "}${nameOf.get(counterpartyId ?? "") ?? "unknown"}`,
        amount: t.amount,
        status: t.status,
        requestedBy: nameOf.get(t.requestedBy) ?? "Unknown",
        approvedBy: t.approvedBy ? (nameOf.get(t.approvedBy) ?? "Unknown") : null,
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

const STATUS = {
  pending_approval: ["Waiting for approval", "status status--wait"],
  rejected: ["Rejected", "status status--bad"],
  completed: ["Completed", "status status--good"],
  failed: ["Failed", "status status--bad"],
} as const;

const COLUMNS: Column<TransferRow>[] = [
  { id: "when", header: "Asked", cell: (t) => formatDate(t.createdAt) },
  { id: "direction", header: "Direction", cell: (t) => (t.direction === "out" ? "Out" : "In") },
  { id: "counterparty", header: "Counterparty", cell: (t) => t.counterparty },
  { id: "amount", header: "Amount (GHS)", numeric: true, cell: (t) => `${t.direction === "out" ? "−" : "+"}${formatAmount(t.amount)}` },
  { id: "status", header: "Status", cell: (t) => <span className={STATUS[t.status][1]}>{STATUS[t.status][0]}</span> },
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
