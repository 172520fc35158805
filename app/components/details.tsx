import type { ReactNode } from "react";

/** A record's fields as term and value pairs (the detail pages' cards); empty values read N/A. */
export function Details({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="details">
      {rows.map(([term, value]) => (
        <div key={term} className="details__row">
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === "" ? "N/A" : value}</dd>
        </div>
      ))}
    </dl>
  );
}
