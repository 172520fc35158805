// The totals of a filtered set of payments (the transactions list). The count is of every payment, whatever its
// status; the money cards sum the successful ones only (a failed payment moved nothing, a reversed one went back),
// and each card says so (issue 24, defect 7). The first <dd> stays the bare count of all payments: the ingest
// benchmark (scripts/bench/ingest.ts) reads it.
import { formatAmount, formatCount } from "../lib/format";

export interface PaymentTotalsFigures {
  count: number;
  successful: number;
  gross: number;
  fees: number;
  net: number;
}

/** "15 payments, 12 successful": what the count card counts, in words. */
export function countWords({ count, successful }: Pick<PaymentTotalsFigures, "count" | "successful">): string {
  return `${formatCount(count)} ${count === 1 ? "payment" : "payments"}, ${formatCount(successful)} successful`;
}

const SUCCESSFUL_ONLY = "Successful payments only";

export function PaymentTotals({ totals }: { totals: PaymentTotalsFigures }) {
  return (
    <dl className="totals" aria-label="Totals for these filters" data-testid="totals">
      <div>
        <dt>Payments (every status)</dt>
        <dd>{formatCount(totals.count)}</dd>
        <dd className="totals-note">{countWords(totals)}</dd>
      </div>
      <div>
        <dt>Gross (GHS)</dt>
        <dd>{formatAmount(totals.gross)}</dd>
        <dd className="totals-note">{SUCCESSFUL_ONLY}</dd>
      </div>
      <div>
        <dt>Fees (GHS)</dt>
        <dd>{formatAmount(totals.fees)}</dd>
        <dd className="totals-note">{SUCCESSFUL_ONLY}</dd>
      </div>
      <div>
        <dt>Net (GHS)</dt>
        <dd>{formatAmount(totals.net)}</dd>
        <dd className="totals-note">{SUCCESSFUL_ONLY}</dd>
      </div>
    </dl>
  );
}
