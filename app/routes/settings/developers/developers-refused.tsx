// Two sections of the Developers tab: requests the Partner API accepted (202) and then could not apply,
// parked so that they held back nothing else (decision 028), and reversals waiting for a payment the portal does not
// hold. Both say what happened in plain words and what the business can do; the API lists the same (docs/partner-api.md).
import { DEFAULT_PAGE_SIZE } from "#server/lists/page";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { formatCount, tableDate } from "#app/lib/format";
import type { RefusedData } from "./developers-refused.server";

type ParkedRow = RefusedData["parked"]["rows"][number];
type ReversalRow = RefusedData["reversals"]["rows"][number];

function References({ references }: { references: string[] }) {
  if (references.length === 0) return <span>None (a heartbeat or an unreadable request)</span>;
  return (
    <ul className="refused__references">
      {references.map((reference) => (
        <li key={reference}>
          <code className="conflict__reference">
            <bdi>{reference}</bdi>
          </code>
        </li>
      ))}
    </ul>
  );
}

const parkedColumns: Column<ParkedRow>[] = [
  { id: "parked", header: "Set aside", cell: (p) => tableDate(p.parkedAt) },
  { id: "references", header: "References", cell: (p) => <References references={p.references} /> },
  {
    id: "problem",
    header: "What happened",
    cell: (p) => (
      <>
        <p className="refused__problem">{p.problem}</p>
        <details className="conflict__body">
          <summary>Error details</summary>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
          <pre tabIndex={0}>
            <bdi>{p.error}</bdi>
          </pre>
        </details>
      </>
    ),
  },
  { id: "id", header: "Quote to support", cell: (p) => <code>{p.id}</code> },
];

const STATUS_LABEL = { waiting: "Waiting", expired: "Expired: never applied" } as const;

const reversalColumns: Column<ReversalRow>[] = [
  { id: "received", header: "Received", cell: (r) => tableDate(r.receivedAt) },
  {
    id: "reference",
    header: "Reference",
    cell: (r) => (
      <code className="conflict__reference">
        <bdi>{r.reference}</bdi>
      </code>
    ),
  },
  { id: "reason", header: "Reason", cell: (r) => <bdi>{r.reason}</bdi> },
  { id: "status", header: "Status", cell: (r) => <span className={`refused__status refused__status--${r.status}`}>{STATUS_LABEL[r.status]}</span> },
  { id: "expires", header: "Waits until", cell: (r) => tableDate(r.expiresAt) },
];

/** "Showing the newest 25 of 40": the API pages through the rest. */
function Shown({ shown, total, noun, endpoint }: { shown: number; total: number; noun: string; endpoint: string }) {
  if (total === 0) return null;
  return (
    <p className="list-count" aria-live="polite">
      {shown < total
        ? `Showing the newest ${formatCount(shown)} of ${formatCount(total)} ${noun}. The API lists them all: `
        : `${formatCount(total)} ${noun}. The API lists them too: `}
      <code>GET {endpoint}</code>
    </p>
  );
}

export function RefusedSection({ parked }: { parked: RefusedData["parked"] }) {
  return (
    <section className="settings-panel" aria-labelledby="refused-title">
      <div>
        <h2 id="refused-title">Refused after acceptance</h2>
        <p className="page__lead">
          Requests the API accepted (202) that the portal then could not apply. Nothing of such a request was applied, and it held back nothing else you sent.
          Our operators are alerted and apply it again once the cause is fixed; until then, check the references below with your own records.
        </p>
      </div>
      <Shown shown={parked.rows.length} total={parked.total} noun={parked.total === 1 ? "request" : "requests"} endpoint="/api/v1/rejections" />
      <DataTable
        caption="Requests refused after acceptance"
        columns={parkedColumns}
        rows={parked.rows}
        rowKey={(p) => p.id}
        empty={
          <>
            <h3>Nothing refused</h3>
            <p>Every request the API accepted was applied.</p>
          </>
        }
      />
    </section>
  );
}

export function WaitingReversalsSection({ reversals }: { reversals: RefusedData["reversals"] }) {
  const total = reversals.waiting + reversals.expired;
  return (
    <section className="settings-panel" aria-labelledby="waiting-reversals-title">
      <div>
        <h2 id="waiting-reversals-title">Reversals waiting for their payment</h2>
        <p className="page__lead">
          A reversal sent for a reference the portal does not hold waits for its payment for 7 days and is applied when the payment arrives. After that it
          expires and is never applied: a later payment with the same reference is treated as a new payment. Send the payment, or check the reference.
        </p>
      </div>
      {total > 0 ? (
        <p className="list-count">
          {formatCount(reversals.waiting)} waiting, {formatCount(reversals.expired)} expired
          {reversals.rows.length < total ? `; showing the newest ${formatCount(Math.min(reversals.rows.length, DEFAULT_PAGE_SIZE))}` : ""}. The API lists them:{" "}
          <code>GET /api/v1/reversals/waiting</code>
        </p>
      ) : null}
      <DataTable
        caption="Reversals waiting for their payment"
        columns={reversalColumns}
        rows={reversals.rows}
        rowKey={(r) => r.reference}
        empty={
          <>
            <h3>No reversals waiting</h3>
            <p>Every reversal received found its payment.</p>
          </>
        }
      />
    </section>
  );
}
