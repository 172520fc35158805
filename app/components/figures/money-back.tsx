// Reversals and refunds side by side: the processor undoing a payment and the business giving money back
// are different events, so the dashboard and reports count them apart.
import type { MoneyBack } from "#server/refunds/refunds.db";
import { formatAmount, formatCount } from "#app/lib/format";

export function MoneyBackFigures({ back, label }: { back: MoneyBack; label: string }) {
  return (
    <dl className="totals" aria-label={label} data-testid="money-back">
      <div>
        <dt>Reversals (GHS)</dt>
        <dd>
          {formatAmount(back.reversals.amount)}
          <span className="cell-sub">{back.reversals.count === 1 ? "1 payment reversed" : `${formatCount(back.reversals.count)} payments reversed`}</span>
        </dd>
      </div>
      <div>
        <dt>Refunds (GHS)</dt>
        <dd>
          {formatAmount(back.refunds.amount)}
          <span className="cell-sub">{back.refunds.count === 1 ? "1 refund" : `${formatCount(back.refunds.count)} refunds`}</span>
        </dd>
      </div>
    </dl>
  );
}
