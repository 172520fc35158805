// The requests a bulk decision's check covers, named in the check dialog (app/components/forms/fresh-check-dialog.tsx)
// before the person confirms: the check is for exactly these (decision 027). One that will not be decided says why.
// A page of them is longer than a phone's screen: the list scrolls in its own box, so the ways to confirm stay in view.
import type { CoveredRequest } from "#server/decisions/business";

export type { CoveredRequest };

export function CoveredList({ requests }: { requests: CoveredRequest[] }) {
  const count = requests.length;
  // By name, as a person looks one up (the binding's own order is the ids').
  const named = [...requests].sort((a, b) => a.title.localeCompare(b.title, "en-GH", { numeric: true }));
  return (
    <section className="check-covers" aria-labelledby="check-covers-title" data-testid="check-covers">
      <h3 id="check-covers-title" className="check-covers__title">
        {`This check covers ${count === 1 ? "this request" : `these ${count} requests`}:`}
      </h3>
      {/* A box that scrolls must take focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="check-covers__scroll" role="group" aria-labelledby="check-covers-title" tabIndex={0}>
        <ul className="check-covers__list">
          {named.map((request) => (
            <li key={request.id}>
              <span className="check-covers__name">{request.title}</span>
              {request.refusal ? <span className="check-covers__refusal">{` Will not be decided: ${request.refusal}`}</span> : null}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
