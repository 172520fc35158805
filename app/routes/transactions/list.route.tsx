// /transactions: every payment of the business for a period, filtered by
// status, channel, network, merchant, point of sale and terminal, searched by
// reference or its last characters, phone, card's last four, amount or merchant's
// name (app/routes/transactions/transaction-search.ts); totals of the filtered set; a detail
// panel with the ledger postings; CSV of the whole filtered set; the archived
// months (docs/archive.md) and a payment found there by its exact reference.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import type { ComponentProps } from "react";
import { refundTotalsOf } from "#server/refunds/refunds.db";
import { namesOf } from "#server/lists/names.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { keptTransactionTotals } from "#server/reports/closed-days.db";
import { getTransaction, listTransactions, type Transaction } from "#server/payments/transactions.db";
import { pageNotFound } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { paths } from "#app/lib/paths";
import { DataTable, ListCount, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { PeriodPicker } from "#app/components/lists/period-picker";
import { calendarDay, networkLabel, tableDate } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { merchantChoices } from "#app/lib/merchant-choices.server";
import { MERCHANT_FINDER_PARAM } from "#app/lib/merchant-search";
import { NETWORKS, TRANSACTION_STATUSES, payerOf } from "#app/lib/transactions-view";
import { statusLabel } from "#app/lib/statuses";
import { transactionColumns } from "#app/components/columns/transactions";
import { codeOnDemand, loadWhenIdle, OnDemand } from "#app/components/code-on-demand";
import { archiveLookup } from "./transactions-archive.server";
import { PaymentTotals } from "./payment-totals";
import { paymentDetailOf } from "./payment-detail.server";
import { transactionFilter } from "./list-filter.server";
import { MerchantFinder } from "#app/components/merchant-finder";

export const meta: MetaFunction = () => [{ title: "Transactions" }];

/** The one-payment panels, outside the list's first load (./payment-panels). */
const panels = codeOnDemand("payment-panels", () => import("./payment-panels"));
// In the browser, a document that shows a payment or an archived month loads them before it hydrates (entry.client);
// otherwise they load once the list is idle, for the first click on a payment. (No clientLoader waiting for them, as
// Settings has: its own chunk would put this page back over 105 kB; a click before they are here keeps the list,
// marked busy, until they are.)
loadWhenIdle(panels);
const PaymentDetailPanel = (props: ComponentProps<ReturnType<typeof panels.read>["PaymentDetailPanel"]>) => panels.read().PaymentDetailPanel(props);
const ArchivedPayment = (props: ComponentProps<ReturnType<typeof panels.read>["ArchivedPayment"]>) => panels.read().ArchivedPayment(props);
const ArchivedMonthsNow = (props: ComponentProps<ReturnType<typeof panels.read>["ArchivedMonths"]>) => panels.read().ArchivedMonths(props);
const ArchivedInPeriodNow = (props: ComponentProps<ReturnType<typeof panels.read>["ArchivedInPeriod"]>) => panels.read().ArchivedInPeriod(props);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:transaction");
  const url = new URL(request.url);
  const { filter, filters, period, page, trail } = transactionFilter(url, deps.now());
  const selected = Number(url.searchParams.get("tx"));
  const [result, totals, merchants, selectedPayment] = await Promise.all([
    numberedPage((after) => listTransactions(tenant, { ...filter, after }), trail, page),
    keptTransactionTotals(tenant, filter, deps.now()),
    merchantChoices(tenant, { typed: url.searchParams.get(MERCHANT_FINDER_PARAM), selected: filters.merchant }),
    Number.isSafeInteger(selected) && selected > 0
      ? getTransaction(tenant, selected).then(async (row) => (row ? { row, more: await paymentDetailOf(tenant, row) } : null))
      : Promise.resolve(null),
  ]);
  const detailRow = selectedPayment?.row ?? null;
  // A payment of another business (or none at all) behind ?tx= is the SPEC's page-level 404.
  if (url.searchParams.has("tx") && !detailRow) pageNotFound(request);
  // An exact reference the list does not have may be in an archived month.
  const archive = await archiveLookup(tenant, context.cloudflare.env.ARCHIVE, result.rows.length === 0 ? filter : {}, period);
  // The page will show a payment's panel: its code before the page renders (app/components/code-on-demand.tsx).
  if (detailRow || archive.found.length > 0 || archive.months.length > 0 || archive.inPeriod.length > 0) await panels.preload();
  const names = await namesOf(tenant, "merchant", [
    ...result.rows.map((t) => t.merchantId),
    ...(detailRow ? [detailRow.merchantId] : []),
    ...archive.found.map((f) => f.transaction.merchantId),
  ]);
  const refundTotals = await refundTotalsOf(tenant, [...result.rows.map((t) => t.id), ...(detailRow ? [detailRow.id] : [])]);
  const view = (t: Transaction) => ({
    id: t.id,
    reference: t.reference,
    merchantId: t.merchantId,
    merchant: names.get(t.merchantId) ?? "Unknown merchant",
    pointOfSaleId: t.pointOfSaleId,
    terminalId: t.terminalId,
    channel: t.channel,
    network: t.network,
    payer: payerOf(t),
    amount: t.amount,
    fee: t.fee,
    status: t.status,
    createdAt: t.createdAt,
    clearedAt: t.clearedAt,
    refunded: refundTotals.get(t.id)?.refunded ?? 0,
  });
  const left = detailRow ? detailRow.amount - (refundTotals.get(detailRow.id)?.refunded ?? 0) - (refundTotals.get(detailRow.id)?.pending ?? 0) : 0;
  return {
    rows: result.rows.map(view),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    totals,
    period: {
      range: period.range,
      fromDay: period.fromDay,
      toDay: period.toDay,
      error: period.error,
    },
    merchants: merchants.choices,
    moreMerchants: merchants.more || url.searchParams.has(MERCHANT_FINDER_PARAM),
    filtered: Boolean(filters.q || filters.status || filters.channel || filters.network || filters.merchant || filters.pos || filters.terminal),
    narrowedTo: {
      pos: filters.pos ?? null,
      terminal: filters.terminal ?? null,
    },
    detail:
      detailRow && selectedPayment
        ? {
            ...view(detailRow),
            ...selectedPayment.more,
            refundHref: can(tenant.role, "request:refund") && detailRow.status === "successful" && left > 0 ? paths.refundPayment(detailRow.id) : null,
          }
        : null,
    canExport: can(tenant.role, "export:transaction"),
    archivedMonths: archive.months,
    archivedInPeriod: archive.inPeriod,
    archived: archive.found.map((f) => ({
      month: f.month,
      detail: {
        ...view(f.transaction),
        failureReason: f.transaction.failureReason,
        reversalReason: f.transaction.reversalReason,
        reversedAt: f.transaction.reversedAt,
        entries: f.entries,
      },
    })),
  };
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

function withParam(search: string, key: string, value: string | null): string {
  const params = new URLSearchParams(search);
  if (value === null) params.delete(key);
  else params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : "?";
}

function columns(search: string): Column<Row>[] {
  return [
    {
      id: "reference",
      header: "Reference",
      cell: (t) => (
        <Link to={withParam(search, "tx", String(t.id))} preventScrollReset className="cell-title">
          <strong className="code">{t.reference}</strong>
          <span className="cell-sub">{tableDate(t.createdAt)}</span>
        </Link>
      ),
    },
    ...transactionColumns(["merchant", "channel", "payer", "amount", "fee", "status"]),
  ];
}

export default function Transactions() {
  const data = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const exportSearch = withParam(withParam(withParam(search, "tx", null), "page", null), "trail", null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>Transactions</h1>
        <p className="page__lead">{`Payments from ${calendarDay(data.period.fromDay)} to ${calendarDay(data.period.toDay)} (Africa/Accra).`}</p>
      </header>

      <PeriodPicker period={data.period} drops={["tx"]} fallback="the last 7 days" />

      <ListToolbar
        alsoDrops={["tx"]}
        searchLabel="Search transactions"
        searchPlaceholder="Reference, phone, last 4 or amount"
        filters={[
          {
            name: "status",
            label: "Status",
            allLabel: "Any status",
            options: TRANSACTION_STATUSES.map((s) => ({
              value: s,
              label: statusLabel("transaction", s),
            })),
          },
          {
            name: "channel",
            label: "Channel",
            allLabel: "Any channel",
            options: [
              { value: "card", label: "Card" },
              { value: "mobile_money", label: "Mobile money" },
            ],
          },
          {
            name: "network",
            label: "Network or scheme",
            allLabel: "Any network",
            options: NETWORKS.map((n) => ({ value: n, label: networkLabel(n) })),
          },
          {
            name: "merchant",
            label: "Merchant",
            allLabel: "Any merchant",
            options: data.merchants.map((m) => ({
              value: m.id,
              label: m.name,
            })),
          },
        ]}
        actions={
          data.canExport && data.totals.count > 0 ? (
            <a href={`/transactions/export${exportSearch === "?" ? "" : exportSearch}`} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      {data.moreMerchants ? <MerchantFinder param={MERCHANT_FINDER_PARAM} id="merchant-finder" label="Find a merchant for the filter" /> : null}
      {data.narrowedTo.pos || data.narrowedTo.terminal ? (
        <p className="chips">
          {data.narrowedTo.pos ? (
            <Link to={filterHref(params, { pos: null })} className="chip" aria-label="Remove the point of sale filter">
              One point of sale ×
            </Link>
          ) : null}
          {data.narrowedTo.terminal ? (
            <Link to={filterHref(params, { terminal: null })} className="chip" aria-label="Remove the terminal filter">
              One terminal ×
            </Link>
          ) : null}
        </p>
      ) : null}
      {data.archivedInPeriod.length > 0 ? (
        <OnDemand code={panels} fallback={null}>
          <ArchivedInPeriodNow months={data.archivedInPeriod} />
        </OnDemand>
      ) : null}
      {data.archived.map((a) => (
        <OnDemand key={a.detail.reference} code={panels} fallback={<p aria-live="polite">Loading…</p>}>
          <ArchivedPayment detail={a.detail} month={a.month} />
        </OnDemand>
      ))}
      <PaymentTotals totals={data.totals} />
      <ListCount
        page={data.page}
        pageSize={DEFAULT_PAGE_SIZE}
        shown={data.rows.length}
        total={data.totals.count}
        noun={data.totals.count === 1 ? "payment" : "payments"}
      />
      <DataTable
        page
        caption="Transactions"
        columns={columns(search)}
        rows={data.rows}
        rowKey={(t) => String(t.id)}
        empty={
          <>
            <h2>No payments {data.filtered ? "match" : "in this period"}</h2>
            <p>{data.filtered ? "Try another search, or clear the filters." : "Choose a longer period to see more."}</p>
          </>
        }
      />
      <Pager page={data.page} totalPages={Math.max(1, Math.ceil(data.totals.count / DEFAULT_PAGE_SIZE))} trail={data.trail} hasNext={data.hasNext} />
      {data.archivedMonths.length > 0 ? (
        <OnDemand code={panels} fallback={null}>
          <ArchivedMonthsNow months={data.archivedMonths} canExport={data.canExport} />
        </OnDemand>
      ) : null}
      {data.detail ? (
        <OnDemand code={panels} fallback={<p aria-live="polite">Loading…</p>}>
          <PaymentDetailPanel detail={data.detail} closeHref={withParam(search, "tx", null)} />
        </OnDemand>
      ) : null}
    </div>
  );
}
