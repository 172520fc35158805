// The requests a bulk decision's check covers, named in the check dialog (app/components/forms/fresh-check-dialog.tsx)
// before the person confirms: the check is for exactly these (decision 027). One that will not be decided says why.
import type { CoveredRequest } from "#server/decisions/business";

export type { CoveredRequest };

export function CoveredList({ requests }: { requests: CoveredRequest[] }) {
  const count = requests.length;
  return (
    <section className="check-covers" aria-labelledby="check-covers-title" data-testid="check-covers">
      <h3 id="check-covers-title" className="check-covers__title">
        {`This check covers ${count === 1 ? "this request" : `these ${count} requests`}:`}
      </h3>
      <ul className="check-covers__list">
        {requests.map((request) => (
          <li key={request.id}>
            <span className="check-covers__name">{request.title}</span>
            {request.refusal ? <span className="check-covers__refusal">{` Will not be decided: ${request.refusal}`}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
