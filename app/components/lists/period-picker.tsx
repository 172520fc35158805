// The period of a money list: the quick ranges as links and two typed days, both kept in the URL (range, from, to)
// with every other parameter of the list, so the list and its CSV read the same period.
import { Link, useLocation } from "@remix-run/react";
import { ListForm } from "#app/components/lists/list-form";
import { DateInput } from "#app/components/forms/form";
import { QUICK_RANGES } from "#app/lib/date-range";
import { filterHref } from "#app/lib/lists/list-url";

export interface PickedPeriod {
  /** null: no period asked for, on a list that shows every period unless one is (`allLabel`). */
  range: string | null;
  fromDay: string;
  toDay: string;
  error: string | null;
}

export function PeriodPicker({
  period,
  drops = [],
  fallback,
  allLabel,
}: {
  period: PickedPeriod;
  /** Parameters a changed period drops (an open panel that may not be in the new period). */
  drops?: readonly string[];
  /** What the list shows when the typed days are refused ("the last 7 days"). */
  fallback: string;
  /** A first link for every period, on a list that has no period unless one is chosen. */
  allLabel?: string;
}) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const cleared = Object.fromEntries(drops.map((name) => [name, null]));
  const shown = period.range !== null;
  return (
    <>
      <nav className="range-tabs" aria-label="Period">
        {allLabel ? (
          <Link
            to={filterHref(params, { ...cleared, range: null, from: null, to: null })}
            className="range-tabs__tab"
            aria-current={period.range === null ? "true" : undefined}
          >
            {allLabel}
          </Link>
        ) : null}
        {QUICK_RANGES.filter((r) => r.value !== "custom").map((r) => (
          <Link
            key={r.value}
            to={filterHref(params, { ...cleared, range: r.value, from: null, to: null })}
            className="range-tabs__tab"
            aria-current={period.range === r.value ? "true" : undefined}
          >
            {r.label}
          </Link>
        ))}
      </nav>
      <ListForm sets={["range", "from", "to", ...drops]} className="inline-form range-form" label="Custom period">
        <input type="hidden" name="range" value="custom" />
        <label htmlFor="period-from">
          From
          <DateInput
            id="period-from"
            name="from"
            defaultValue={shown ? period.fromDay : ""}
            required
            aria-invalid={period.error ? true : undefined}
            aria-describedby={period.error ? "range-error" : undefined}
          />
        </label>
        <label htmlFor="period-to">
          To
          <DateInput id="period-to" name="to" defaultValue={shown ? period.toDay : ""} required aria-invalid={period.error ? true : undefined} />
        </label>
        <button type="submit" className="button">
          Show period
        </button>
        {period.error ? (
          <p className="field-error" id="range-error" role="alert">
            {`${period.error} Showing ${fallback} instead.`}
          </p>
        ) : null}
      </ListForm>
    </>
  );
}
