// /money/settlement-history: what was paid to each merchant, day by day: the
// period, merchant, settlement account, gross, fees, net, status and
// reference, the rail it was paid through (its own reference and status, and since when it waits for the rail's
// answer), the transactions each settlement covers and its payout attempts.
// An administrator can run the day's settlement now (it also runs daily at 06:00).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ComponentProps } from "react";
import * as v from "valibot";
import { numberedPage } from "#server/lists/page";
import { namesOf } from "#server/lists/names.db";
import { getSettlement, listPayoutAttempts, listSettlements, listSettlementTransactions } from "#server/settlement/settlements.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { payoutPortFor, settleAndPay } from "#server/settlement/daily";
import { requireTenant, type TenantRequest } from "#server/guards";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { DataTable, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { calendarDay, formatAmount, formatCount, networkLabel } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { exportHref } from "#app/lib/lists/export-url";
import { PeriodPicker } from "#app/components/lists/period-picker";
import { settlementFilter } from "./settlement-filter.server";
import { payerOf } from "#app/lib/transactions-view";
import { StatusPill } from "#app/components/status-pill";
import { railSummary, railViewOf } from "#app/lib/rails";
import { codeOnDemand, loadWhenIdle, OnDemand } from "#app/components/code-on-demand";
import type { SettlementDetail } from "./settlement-detail";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Settlement History" }];

/** One settlement's panel (?s=), outside the list's first load (./settlement-detail). */
const detailCode = codeOnDemand("settlement-detail", () => import("./settlement-detail"));
// A document that shows a settlement loads it before it hydrates (entry.client); otherwise it loads once the list is
// idle, for the first click on a settlement.
loadWhenIdle(detailCode);
const SettlementDetailPanel = (props: ComponentProps<ReturnType<typeof detailCode.read>["SettlementDetailPanel"]>) =>
  detailCode.read().SettlementDetailPanel(props);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:settlement");
  const { query, filters, period, page, trail } = settlementFilter(new URL(request.url), deps.now());
  const [result, settlement] = await Promise.all([
    numberedPage((after) => listSettlements(tenant, { ...query, after }), trail, page),
    filters.s ? getSettlement(tenant, filters.s) : Promise.resolve(null),
  ]);
  if (filters.s && !settlement) pageNotFound(request);
  const shown = settlement ? [...result.rows, settlement] : result.rows;
  const [merchantName, accountLabel, covered, attempts] = await Promise.all([
    namesOf(tenant, "merchant", [...shown.map((s) => s.merchantId), filters.merchant]),
    namesOf(
      tenant,
      "settlement_account",
      shown.map((s) => s.settlementAccountId),
    ),
    settlement ? listSettlementTransactions(tenant, settlement.id, 100) : Promise.resolve(null),
    settlement ? listPayoutAttempts(tenant, settlement.id) : Promise.resolve([]),
  ]);
  const detail: SettlementDetail | null =
    settlement && covered
      ? {
          ...settlement,
          merchant: merchantName.get(settlement.merchantId) ?? "Unknown merchant",
          merchantId: settlement.merchantId,
          account: accountLabel.get(settlement.settlementAccountId) ?? "Unknown account",
          transactions: covered.rows.map((t) => ({
            id: t.id,
            reference: t.reference,
            channel: t.channel,
            network: t.network,
            amount: t.amount,
            fee: t.fee,
            payer: payerOf(t),
            createdAt: t.createdAt,
          })),
          transactionCount: covered.total,
          attempts,
          // Attempts made, answered or not (the records above hold only the answered ones).
          attemptsMade: settlement.attempts,
          railView: railViewOf(settlement),
        }
      : null;
  // The page will show the panel: its code before the page renders (app/components/code-on-demand.tsx).
  if (detail) await detailCode.preload();
  return {
    rows: result.rows.map((s) => ({
      ...s,
      merchant: merchantName.get(s.merchantId) ?? "Unknown merchant",
      account: accountLabel.get(s.settlementAccountId) ?? "Unknown account",
      railSummary: railSummary(railViewOf(s)),
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    detail,
    // The merchant the list is narrowed to; a merchant of another business has no name and no settlements here.
    narrowedTo: filters.merchant ? (merchantName.get(filters.merchant) ?? "Unknown merchant") : null,
    canRun: can(tenant.role, "run:settlement"),
    canExport: can(tenant.role, "export:transaction"),
    period,
  };
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const signedIn = await requireTenant(request, context, "run:settlement");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const parsed = v.safeParse(v.object({ intent: v.literal("run") }), form);
  if (!parsed.success) return refuse({ form: "That request was not understood." });
  // Starting the run moves every merchant's cleared money towards its account: a money decision, under the same fresh
  // check as a transfer (decision 027); without it nothing runs and the page asks for the check.
  return underFreshCheck(request, signedIn, checkBindings.settlementRun(), form, () => runSettlementNow(request, context, signedIn));
}

async function runSettlementNow(request: Request, context: ActionFunctionArgs["context"], { deps, tenant }: TenantRequest): Promise<never> {
  const { runs, payouts } = await settleAndPay([tenant], payoutPortFor(context.cloudflare.env, context.config.rails), {
    now: deps.now(),
    meta: deps.meta,
    actor: tenant,
  });
  const run = runs[0]!;
  const settled = run.settled.length;
  const message =
    `Settlement run for ${calendarDay(run.periodStart + 12 * 3_600_000)}: ${formatCount(settled)} ${settled === 1 ? "settlement" : "settlements"} made` +
    (run.skipped.length ? `, ${formatCount(run.skipped.length)} skipped (${[...new Set(run.skipped.map((s) => s.reason))].join("; ")})` : "") +
    (payouts
      ? `; payouts: ${formatCount(payouts.paid.length)} paid, ${formatCount(payouts.failed.length)} failed (retried on the next run).`
      : "; payouts wait for a provider.");
  throw await redirectWithFlash(request, context.config.app, "/money/settlement-history", { kind: payouts?.failed.length ? "warning" : "success", message });
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

export default function SettlementHistory() {
  const { rows, page, trail, hasNext, detail, narrowedTo, canRun, canExport, period } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const busy = useSending();
  // A send the server could not take (not this page's form, a method it does not take) says why, by the button.
  const refused = answer && "errors" in answer ? answer.errors.form : undefined;
  const day = (ms: number) => calendarDay(ms + 12 * 3_600_000);
  const columns: Column<Row>[] = [
    {
      id: "period",
      header: "Period",
      cell: (s) => (
        <Link to={filterHref(params, { s: s.id })} preventScrollReset className="cell-title">
          <strong>{day(s.periodStart)}</strong>
          {s.transferId ? <span className="cell-sub">Transfer payout</span> : null}
          <span className="cell-sub code">{s.reference}</span>
        </Link>
      ),
    },
    { id: "merchant", header: "Merchant", cell: (s) => s.merchant },
    { id: "account", header: "Settlement account", cell: (s) => networkLabel(s.account) },
    {
      id: "gross",
      header: "Gross (GHS)",
      numeric: true,
      cell: (s) => formatAmount(s.gross),
    },
    {
      id: "fees",
      header: "Fees (GHS)",
      numeric: true,
      cell: (s) => formatAmount(s.fees),
    },
    {
      id: "net",
      header: "Net (GHS)",
      numeric: true,
      cell: (s) => <strong>{formatAmount(s.net)}</strong>,
    },
    {
      id: "status",
      header: "Status",
      // The rail's name and its status word under the pill, one block (a phone's card lays a cell's children out as a grid).
      cell: (s) => (
        <div className="cell-stack">
          <StatusPill entity="settlement" status={s.status} />
          {s.railSummary ? <span className="cell-sub">{s.railSummary}</span> : null}
        </div>
      ),
    },
  ];
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <h1>Settlement History</h1>
          <p className="page__lead">Each morning at 06:00 every merchant is paid what cleared the day before, to its primary settlement account.</p>
        </div>
        {canRun ? (
          <Form method="post">
            <input type="hidden" name="intent" value="run" />
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? "Running…" : "Run settlement now"}
            </button>
            <FreshCheck check={checkOf(answer)} />
            {refused ? (
              <p className="notice notice--danger notice__message" role="alert">
                {refused}
              </p>
            ) : null}
          </Form>
        ) : null}
      </header>
      <PeriodPicker period={period} drops={["s"]} fallback="the last 30 days" allLabel="All days" />
      <ListToolbar
        alsoDrops={["s"]}
        searchLabel="Search by merchant"
        searchPlaceholder="Merchant name or code"
        filters={[
          {
            name: "status",
            label: "Status",
            allLabel: "Any status",
            options: [
              { value: "pending", label: "Paying out" },
              { value: "paid", label: "Paid" },
              { value: "failed", label: "Failed" },
            ],
          },
        ]}
        actions={
          canExport && rows.length > 0 ? (
            <a href={exportHref("/money/settlement-history/export", search, ["s"])} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      {narrowedTo ? (
        <p className="chips">
          <Link to={filterHref(params, { merchant: null, s: null })} className="chip" aria-label={`Remove the merchant filter: ${narrowedTo}`}>
            {`${narrowedTo} ×`}
          </Link>
        </p>
      ) : null}
      <DataTable
        page
        caption="Settlements"
        columns={columns}
        rows={rows}
        rowKey={(s) => s.id}
        empty={<h2>{params.get("q") || params.get("status") || params.get("range") || narrowedTo ? "No settlements match" : "No settlements yet"}</h2>}
      />
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
      {detail ? (
        <OnDemand code={detailCode} fallback={<p aria-live="polite">Loading…</p>}>
          <SettlementDetailPanel detail={detail} />
        </OnDemand>
      ) : null}
    </div>
  );
}
