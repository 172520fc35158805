import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { replaceBrandWords } from "../lib/format";

/**
 * A reference, a code or an account number inside running text (KFF-261126-0000500, MRC-0001, 463-09378022): letters
 * and digits joined by hyphens, with a digit somewhere (a date, 26/11/2026, is left to wrap as text does). A browser may break a line after any hyphen; a code
 * is read and typed back character by character, so it stays on one line.
 */
const CODE = /(?<![\w-])(?=[\w-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])/g;

/** The longest reference the portal shows (a settlement's, STL-MRC-0001-20261125-K3F9QZ2M, is 30; a longer merchant code adds to it). */
const LONGEST_CODE = 34;

/** `text` with each code in it kept on one line (a `.code` span); the text itself when it holds none. */
export function withCodes(text: string): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CODE)) {
    // Longer than a reference (an id, a hash): it may wrap, or it would push a phone's card sideways.
    if (match[0].length > LONGEST_CODE) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(
      <span key={match.index} className="code">
        {match[0]}
      </span>,
    );
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Elements whose text is not shown as markup (an option's label, a field's value): their text is replaced, never wrapped. */
const PLAIN_TEXT = new Set(["option", "select", "textarea", "title", "svg"]);

function shown(node: ReactNode, codes: boolean): ReactNode {
  if (typeof node === "string") return codes ? withCodes(replaceBrandWords(node)) : replaceBrandWords(node);
  if (Array.isArray(node)) return Children.map(node as ReactNode[], (child: ReactNode) => shown(child, codes));
  if (isValidElement<{ children?: ReactNode }>(node) && node.props.children !== undefined) {
    const plain = typeof node.type === "string" && PLAIN_TEXT.has(node.type);
    return cloneElement(node as ReactElement<{ children?: ReactNode }>, undefined, shown(node.props.children, codes && !plain));
  }
  return node;
}

/**
 * Text people typed or old data holds (a merchant's name, a sector, a reason) as shown: SPEC section 9's old brand word
 * reads as the current one. Every text child is replaced, inside links and wrappers too; props (a link's address, a
 * field's value) are not display text and stay as they are. For text that cannot hold markup (an option's label).
 */
export function shownText(node: ReactNode): ReactNode {
  return shown(node, false);
}

/** shownText, and each reference or code in the text kept on one line: table cells and detail values pass through here. */
export function shownValue(node: ReactNode): ReactNode {
  return shown(node, true);
}

/** A record's fields as term and value pairs (the detail pages' cards); empty values read N/A. */
export function Details({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="details">
      {rows.map(([term, value]) => (
        <div key={term} className="details__row">
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === "" ? "N/A" : shownValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
