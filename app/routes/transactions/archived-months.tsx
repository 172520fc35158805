// The cold archive on the transactions screen (docs/archive.md): which months are archived, with their counts and
// a CSV each, and a payment found there by its exact reference.
import { calendarMonth, formatAmount, formatCount } from "#app/lib/format";
import { paths } from "#app/lib/paths";

export interface ArchivedMonthView {
  month: string;
  payments: number;
  successful: number;
  gross: number;
  fees: number;
}

/** "Sep 2025" (SPEC's day format without the day). */
export function monthLabel(month: string): string {
  return calendarMonth(month);
}

export function ArchivedMonths({ months, canExport }: { months: readonly ArchivedMonthView[]; canExport: boolean }) {
  if (months.length === 0) return null;
  return (
    <section className="card archived-months" aria-labelledby="archived-months-title" data-testid="archived-months">
      <h2 id="archived-months-title">Archived months</h2>
      <p className="page__lead">
        Payments of these months are kept in the archive, not in the list above. Search an exact reference to find one; download a month to see them all.
      </p>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col" className="num">
              Payments
            </th>
            <th scope="col" className="num">
              Gross (GHS)
            </th>
            <th scope="col" className="num">
              Net (GHS)
            </th>
            {canExport ? (
              <th scope="col">
                <span className="visually-hidden">Download</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <td data-label="Month">
                <strong>{monthLabel(m.month)}</strong>
              </td>
              <td data-label="Payments" className="num">
                {formatCount(m.payments)}
              </td>
              <td data-label="Gross (GHS)" className="num">
                {formatAmount(m.gross)}
              </td>
              <td data-label="Net (GHS)" className="num">
                {formatAmount(m.gross - m.fees)}
              </td>
              {canExport ? (
                <td data-label="Download">
                  <a href={paths.archivedMonthCsv(m.month)} download aria-label={`Download ${monthLabel(m.month)} as CSV`}>
                    CSV
                  </a>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Archived months within the period shown: their payments are in neither the list nor its totals. */
export function ArchivedInPeriod({ months }: { months: readonly string[] }) {
  if (months.length === 0) return null;
  const names = months.map(monthLabel).join(", ");
  return (
    <p className="archived-note" data-testid="archived-in-period">
      <strong>{`${names} ${months.length === 1 ? "is" : "are"} archived:`}</strong>
      {` ${months.length === 1 ? "its" : "their"} payments are not in this list or its totals. Find one by its exact reference, or download ${months.length === 1 ? "it" : "them"} under `}
      <a href="#archived-months-title">Archived months</a>.
    </p>
  );
}
