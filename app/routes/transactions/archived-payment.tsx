// A payment found in an archived month (docs/archive.md), shown with the payment detail's facts and postings: apart from
// ./archived-months so that the list of archived months does not bring the payment detail's code with it (decision 043).
import { monthLabel } from "./archived-months";
import { PaymentFacts, Postings, type PaymentDetailView } from "./payment-detail";

/** A payment found in an archived month: read-only, with its month. */
export function ArchivedPayment({ detail, month }: { detail: PaymentDetailView; month: string }) {
  return (
    <section className="card archived-payment" aria-labelledby="archived-payment-title" data-testid="archived-payment">
      <h2 id="archived-payment-title">{detail.reference}</h2>
      <p className="page__lead">{`Archived with ${monthLabel(month)}: read-only, and not in the list or its totals.`}</p>
      <PaymentFacts detail={detail} extra={[["Archived month", monthLabel(month)]]} />
      <h3>Ledger postings</h3>
      <Postings entries={detail.entries} />
    </section>
  );
}
