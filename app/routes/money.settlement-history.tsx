// /money/settlement-history: what was paid to each merchant, day by day: the
// period, merchant, settlement account, gross, fees, net, status and
// reference, the transactions each settlement covers and its payout attempts.
// An administrator can run the day's settlement now (it also runs daily at 06:00).
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { numberedPage } from "../../functions/data/page";
import { getSettlement, listSettlements } from "../../functions/data/settlements";
import { redirectWithFlash } from "../../functions/flash";
import { pageNotFound, refuse } from "../../functions/http";
import { can } from "../../functions/permissions";
import { payoutPortFor, settleAndPay } from "../../functions/settlement/daily";
import { requireTenant } from "../../functions/guards";
import { DataTable, ListToolbar, Pager, type Column } from "../components/data-table";
import { formatAmount, formatCount, formatDate } from "../lib/format";
import { filterHref } from "../lib/list-url";
import { listParams, oneOf } from "../lib/list-params";
import { CHANNEL_LABEL, payerOf } from "../lib/transactions-view";
import { Details } from "../components/details";

const PARAMS = {
  status: oneOf(["pending", "paid", "failed"] as const),
  merchant: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))),
  s: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/))),
};

const slots = (n: number) => Array.from({ length: n }, () => "?").join(", ");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:settlement");
  const { filters, page, trail } = listParams(new URL(request.url), PARAMS);
  const [result, merchants] = await Promise.all([
    numberedPage(
      (after) =>
        listSettlements(tenant, deps.db, {
          status: filters.status,
          merchantId: filters.merchant,
          after,
        }),
      trail,
      page,
    ),
    deps.db
      .prepare("SELECT id, name FROM merchants WHERE business_id = ? ORDER BY name COLLATE NOCASE LIMIT 500")
      .bind(tenant.businessId)
      .all<{ id: string; name: string }>(),
  ]);
  const accountIds = [...new Set(result.rows.map((s) => s.settlementAccountId))];
  const accounts = accountIds.length
    ? (
        await deps.db
          .prepare(
            `SELECT id, provider || ' ' || account_number AS label FROM settlement_accounts WHERE business_id = ? AND id IN (${slots(accountIds.length)})`,
          )
          .bind(tenant.businessId, ...accountIds)
          .all<{ id: string; label: string }>()
      ).results
    : [];
  const merchantName = new Map(merchants.results.map((m) => [m.id, m.name]));
  const accountLabel = new Map(accounts.map((a) => [a.id, a.label]));
  let detail = null;
  if (filters.s) {
    const settlement = await getSettlement(tenant, deps.db, filters.s);
    if (!settlement) pageNotFound(request);
    const [covered, count, attempts, account] = await Promise.all([
      deps.db
        .prepare(
          `SELECT t.id, t.reference, t.channel, t.network, t.amount, t.fee, t.card_bin AS cardBin, t.card_last4 AS cardLast4, t.customer_msisdn AS customerMsisdn, t.created_at AS createdAt
           FROM settlement_items i JOIN transactions t ON t.id = i.transaction_id WHERE i.settlement_id = ? AND t.business_id = ? ORDER BY t.created_at LIMIT 100`,
        )
        .bind(settlement.id, tenant.businessId)
        .all<{
          id: number;
          reference: string;
          channel: "card" | "mobile_money";
          network: string;
          amount: number;
          fee: number;
          cardBin: string | null;
          cardLast4: string | null;
          customerMsisdn: string | null;
          createdAt: number;
        }>(),
      deps.db.prepare("SELECT COUNT(*) AS n FROM settlement_items WHERE settlement_id = ?").bind(settlement.id).first<number>("n"),
      deps.db
        .prepare("SELECT attempt, outcome, error, at FROM payout_attempts WHERE business_id = ? AND settlement_id = ? ORDER BY attempt")
        .bind(tenant.businessId, settlement.id)
        .all<{
          attempt: number;
          outcome: string;
          error: string | null;
          at: string;
        }>(),
      deps.db
        .prepare("SELECT provider || ' ' || account_number AS label FROM settlement_accounts WHERE id = ?")
        .bind(settlement.settlementAccountId)
        .first<string>("label"),
    ]);
    detail = {
      ...settlement,
      merchant: merchantName.get(settlement.merchantId) ?? "Unknown merchant",
      account: account ?? "Unknown account",
      transactions: covered.results.map((t) => ({
        id: t.id,
        reference: t.reference,
        channel: t.channel,
        network: t.network,
        amount: t.amount,
        fee: t.fee,
        payer: payerOf(t),
        createdAt: t.createdAt,
      })),
      transactionCount: count ?? 0,
      attempts: attempts.results,
    };
  }
  return {
    rows: result.rows.map((s) => ({
      ...s,
      merchant: merchantName.get(s.merchantId) ?? "Unknown merchant",
      account: accountLabel.get(s.settlementAccountId) ?? "Unknown account",
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    merchants: merchants.results,
    detail,
    canRun: can(tenant.role, "run:settlement"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "run:settlement");
  const parsed = v.safeParse(v.object({ intent: v.literal("run") }), Object.fromEntries(await request.formData()));
  if (!parsed.success) return refuse({ form: "That request was not understood." });
  const { runs, payouts } = await settleAndPay(deps.db, payoutPortFor(context.cloudflare.env), {
    businessId: tenant.businessId,
    now: deps.now(),
    meta: deps.meta,
    actor: tenant,
  });
  const run = runs[0]!;
  const settled = run.settled.length;
  const message =
    `Settlement run for ${formatDate(run.periodStart + 12 * 3_600_000, "day")}: ${formatCount(settled)} ${settled === 1 ? "settlement" : "settlements"} made` +
    (run.skipped.length ? `, ${formatCount(run.skipped.length)} skipped (${[...new Set(run.skipped.map((s) => s.reason))].join("; ")})` : "") +
    (payouts
      ? `; payouts: ${formatCount(payouts.paid.length)} paid, ${formatCount(payouts.failed.length)} failed (retried on the next run).`
      : "; payouts wait for a provider.");
  throw await redirectWithFlash(request, context.config, "/money/settlement-history", { kind: payouts?.failed.length ? "warning" : "success", message });
}

const STATUS = {
  pending: ["Paying out", "status status--wait"],
  paid: ["Paid", "status status--good"],
  failed: ["Failed, will retry", "status status--bad"],
} as const;

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

export default function SettlementHistory() {
  const { rows, page, trail, hasNext, merchants, detail, canRun } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const busy = useNavigation().state === "submitting";
  const day = (ms: number) => formatDate(ms + 12 * 3_600_000, "day");
  const columns: Column<Row>[] = [
    {
      id: "period",
      header: "Period",
      cell: (s) => (
        <Link to={filterHref(params, { s: s.id })} preventScrollReset className="cell-title">
          <strong>{day(s.periodStart)}</strong>
          <span className="cell-sub">{s.reference}</span>
        </Link>
      ),
    },
    { id: "merchant", header: "Merchant", cell: (s) => s.merchant },
    { id: "account", header: "Settlement account", cell: (s) => s.account },
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
      cell: (s) => <span className={STATUS[s.status][1]}>{STATUS[s.status][0]}</span>,
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
          </Form>
        ) : null}
      </header>
      <ListToolbar
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
          {
            name: "merchant",
            label: "Merchant",
            allLabel: "Any merchant",
            options: merchants.map((m) => ({ value: m.id, label: m.name })),
          },
        ]}
      />
      <DataTable caption="Settlements" columns={columns} rows={rows} rowKey={(s) => s.id} empty={<h2>No settlements yet</h2>} />
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
      {detail ? (
        <aside className="detail-panel" role="dialog" aria-labelledby="settlement-title" data-testid="settlement-detail">
          <header className="detail-panel__header">
            <h2 id="settlement-title">{detail.reference}</h2>
            <Link to={filterHref(params, { s: null })} preventScrollReset className="detail-panel__close" aria-label="Close the settlement">
              ×
            </Link>
          </header>
          <Details
            rows={
              [
                ["Merchant", detail.merchant],
                ["Settlement account", detail.account],
                ["Period", day(detail.periodStart)],
                ["Status", STATUS[detail.status][0]],
                ["Gross (GHS)", formatAmount(detail.gross)],
                ["Fees (GHS)", formatAmount(detail.fees)],
                ["Net (GHS)", formatAmount(detail.net)],
                ["Paid", detail.paidAt ? formatDate(detail.paidAt) : "Not yet"],
              ] as const
            }
          />
          <h3>Payout attempts</h3>
          {detail.attempts.length === 0 ? (
            <p>Not sent yet.</p>
          ) : (
            <ul className="latest">
              {detail.attempts.map((a) => (
                <li key={a.attempt} className="latest__item">
                  <span>{`Attempt ${a.attempt} · ${formatDate(a.at)}`}</span>
                  <span className={a.outcome === "paid" ? "status status--good" : "status status--bad"} title={a.error ?? undefined}>
                    {a.outcome === "paid" ? "Paid" : `Failed: ${a.error ?? "unknown"}`}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <h3>{`Transactions covered (${formatCount(detail.transactionCount)})`}</h3>
          <ul className="latest" data-testid="covered">
            {detail.transactions.map((t) => (
              <li key={t.id} className="latest__item">
                <div>
                  <strong>{t.reference}</strong>
                  <span className="cell-sub">{`${CHANNEL_LABEL[t.channel]} · ${t.network} · ${t.payer} · ${formatDate(t.createdAt)}`}</span>
                </div>
                <div className="latest__amount">{`GHS ${formatAmount(t.amount)}`}</div>
              </li>
            ))}
          </ul>
          {detail.transactionCount > detail.transactions.length ? <p className="cell-sub">{`The first ${detail.transactions.length} are shown.`}</p> : null}
        </aside>
      ) : null}
    </div>
  );
}
