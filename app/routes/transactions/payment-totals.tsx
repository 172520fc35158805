// The totals of a filtered set of payments (the transactions list). The count is of every payment, whatever its
// status, and says how many succeeded; the money cards sum the successful ones only (a failed payment moved nothing,
// a reversed one went back), and each says so in its label. The first <dd> begins with the
// count of all payments: the ingest benchmark (scripts/bench/ingest.ts) reads it.
import { formatAmount, formatCount } from "#app/lib/format";

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

export function PaymentTotals({ totals }: { totals: PaymentTotalsFigures }) {
  return (
    <dl className="totals" aria-label="Totals for these filters" data-testid="totals">
      <div>
        <dt>Payments, every status</dt>
        <dd>{countWords(totals)}</dd>
      </div>
      <div>
        <dt>Gross of successful payments (GHS)</dt>
        <dd>{formatAmount(totals.gross)}</dd>
      </div>
      <div>
        <dt>Fees of successful payments (GHS)</dt>
        <dd>{formatAmount(totals.fees)}</dd>
      </div>
      <div>
        <dt>Net of successful payments (GHS)</dt>
        <dd>{formatAmount(totals.net)}</dd>
      </div>
    </dl>
  );
}
