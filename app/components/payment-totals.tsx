// The totals of a filtered set of payments (the transactions list): count, gross, fees and net.
import { formatAmount, formatCount } from "../lib/format";

export function PaymentTotals({ totals }: { totals: { count: number; gross: number; fees: number; net: number } }) {
  return (
    <dl className="totals" aria-label="Totals for these filters" data-testid="totals">
      <div>
        <dt>Payments</dt>
        <dd>{formatCount(totals.count)}</dd>
      </div>
      <div>
        <dt>Gross (GHS)</dt>
        <dd>{formatAmount(totals.gross)}</dd>
      </div>
      <div>
        <dt>Fees (GHS)</dt>
        <dd>{formatAmount(totals.fees)}</dd>
      </div>
      <div>
        <dt>Net (GHS)</dt>
        <dd>{formatAmount(totals.net)}</dd>
      </div>
    </dl>
  );
}
