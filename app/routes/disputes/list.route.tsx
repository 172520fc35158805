// /disputes: the disputes the processor opened on this business's payments, open ones first with the
// days left to answer (Africa/Accra days), overdue ones marked; filtered by status in the URL, in keyset pages.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { listDisputes } from "#server/disputes/disputes.db";
import { DISPUTE_STATUSES, reasonCodeLabel } from "#server/disputes/dispute-rules";
import { numberedPage } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { can } from "#server/permissions";
import { DataTable, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { StatusPill } from "#app/components/status-pill";
import { deadlineLabel, dueDay } from "#app/lib/disputes";
import { calendarDay, formatAmount, networkLabel } from "#app/lib/format";
import { listParams, oneOf } from "#app/lib/lists/list-params";
import { paths } from "#app/lib/paths";
import { exportHref } from "#app/lib/lists/export-url";
import { statusLabels } from "#app/lib/statuses";

export const meta: MetaFunction = () => [{ title: "Disputes" }];

export const DISPUTE_LIST_PARAMS = { status: oneOf(DISPUTE_STATUSES) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:dispute");
  const { filters, page, trail } = listParams(new URL(request.url), DISPUTE_LIST_PARAMS);
  const result = await numberedPage((after) => listDisputes(tenant, { status: filters.status, after }), trail, page);
  return {
    now: deps.now(),
    rows: result.rows.map((d) => ({
      id: d.id,
      merchantName: d.merchantName,
      paymentReference: d.paymentReference,
      paymentNetwork: d.paymentNetwork,
      reasonCode: d.reasonCode,
      amount: d.amount,
      evidenceDueAt: d.evidenceDueAt,
      status: d.status,
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    canExport: can(tenant.role, "export:transaction"),
  };
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

export default function Disputes() {
  const { now, rows, page, trail, hasNext, canExport } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const filtered = new URLSearchParams(search).has("status");
  const columns: Column<Row>[] = [
    {
      id: "payment",
      header: "Payment",
      cell: (d) => (
        <Link to={paths.dispute(d.id)} className="cell-title">
          <strong className="code">{d.paymentReference}</strong>
          <span className="cell-sub">{d.merchantName}</span>
        </Link>
      ),
    },
    { id: "reason", header: "Reason code", cell: (d) => `${reasonCodeLabel(d.reasonCode)} · ${networkLabel(d.paymentNetwork)}` },
    { id: "amount", header: "Disputed (GHS)", numeric: true, cell: (d) => <strong>{formatAmount(d.amount)}</strong> },
    {
      id: "deadline",
      header: "Evidence due",
      cell: (d) => {
        const deadline = deadlineLabel(d.evidenceDueAt, now);
        return (
          <span className="cell-title">
            <span>{calendarDay(dueDay(d.evidenceDueAt))}</span>
            {d.status === "open" ? (
              <span className={deadline.overdue ? "status status--bad" : "cell-sub"} data-testid="deadline">
                {deadline.text}
              </span>
            ) : null}
          </span>
        );
      },
    },
    { id: "status", header: "Status", cell: (d) => <StatusPill entity="dispute" status={d.status} /> },
  ];
  return (
    <div className="page">
      <header className="page__header">
        <h1>Disputes</h1>
        <p className="page__lead">
          Payments a payer disputed with their card scheme or mobile-money network. The disputed amount is held from the merchant&apos;s available money until
          the dispute is decided: answer each one with a response and evidence before its deadline.
        </p>
      </header>
      <ListToolbar
        filters={[
          {
            name: "status",
            label: "Status",
            allLabel: "Any status",
            options: Object.entries(statusLabels("dispute")).map(([value, label]) => ({ value, label })),
          },
        ]}
        actions={
          canExport && rows.length > 0 ? (
            <a href={exportHref("/disputes/export", search)} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <DataTable
        page
        caption="Disputes"
        columns={columns}
        rows={rows}
        rowKey={(d) => d.id}
        empty={<h2>{filtered ? "No disputes match" : "No disputes: nothing to answer"}</h2>}
      />
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
    </div>
  );
}
