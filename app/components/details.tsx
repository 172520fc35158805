import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { replaceBrandWords } from "../lib/format";

/**
 * Text people typed or old data holds (a merchant's name, a sector, a reason) as shown: SPEC section 9's old brand word
 * reads as the current one. Every text child is replaced, inside links and wrappers too; props (a link's address, a
 * field's value) are not display text and stay as they are. Table cells and detail values pass through here.
 */
export function shownText(node: ReactNode): ReactNode {
  if (typeof node === "string") return replaceBrandWords(node);
  if (Array.isArray(node)) return Children.map(node, shownText);
  if (isValidElement<{ children?: ReactNode }>(node) && node.props.children !== undefined) {
    return cloneElement(node as ReactElement<{ children?: ReactNode }>, undefined, shownText(node.props.children));
  }
  return node;
}

/** A record's fields as term and value pairs (the detail pages' cards); empty values read N/A. */
export function Details({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="details">
      {rows.map(([term, value]) => (
        <div key={term} className="details__row">
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === "" ? "N/A" : shownText(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
