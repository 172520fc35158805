// One table for every list: columns are per-entity definitions, rows come from
// the loader, and search, filters, sort and page live in the URL (GET forms and
// links, so lists work before the script loads). At 980 px and below each row
// is a card with its labels; wider, a table with more columns than its card
// holds lays each row out as a grid of labelled values instead of scrolling,
// unless its rows are compared down their columns (`compare`): that one stays a
// table, scrolling inside its frame with its first column held in sight.
import { Link, useLocation, useNavigation } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { useBeforePaintEffect } from "#app/components/before-paint";
import { LIST_ID } from "#app/lib/shell/page";
import { formatCount } from "#app/lib/format";
import { filterHref, pageHref } from "#app/lib/lists/list-url";
import { ListForm } from "./list-form";
import { shownText, shownValue } from "#app/components/details";
import { pageWindow } from "#app/lib/lists/pagination";

export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and amounts line up on the right. */
  numeric?: boolean;
  /** The row's main action: kept in sight at the right edge while the table scrolls (before the script has laid it out). */
  action?: boolean;
}

function cellClass<Row>(column: Column<Row>): string | undefined {
  return [column.numeric ? "num" : "", column.action ? "action" : ""].filter(Boolean).join(" ") || undefined;
}

/**
 * Lays the table out as a table when its columns fit the card, as rows of labelled
 * values when they do not. Measured (not guessed from a breakpoint) because how
 * wide a list needs to be depends on its columns and on the data in them. The
 * choice is an attribute React does not render, so a re-render keeps it.
 */
function useFitToCard(rows: unknown, compare: boolean) {
  const wrap = useRef<HTMLDivElement>(null);
  useBeforePaintEffect(() => {
    const element = wrap.current;
    if (!element) return;
    let width = -1;
    const fit = () => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      delete element.dataset.fit;
      if (!compare && element.scrollWidth > element.clientWidth + 1) element.dataset.fit = "rows";
      // A frame with nothing to scroll needs no stop in the tab order.
      element.tabIndex = element.scrollWidth > element.clientWidth + 1 ? 0 : -1;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, [rows, compare]);
  return wrap;
}

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  page = false,
  compare = false,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Shown instead of the table when there are no rows (say why and what to do). */
  empty: ReactNode;
  /** The page's own list (one a page): the shell's "Skip to the list" lands on it (LIST_ID). */
  page?: boolean;
  /**
   * Rows a person compares down each column (a money list's amounts): wider than a phone it stays a table whatever
   * its width, its first column sticky while the rest scrolls sideways, never a grid of labelled values.
   */
  compare?: boolean;
}) {
  const busy = useNavigation().state === "loading";
  const wrap = useFitToCard(rows, compare);
  if (rows.length === 0) return <div className="empty-state">{empty}</div>;
  // Before the script lays the table out it may scroll sideways: focusable and named, a keyboard can scroll it.
  // A group, not a region: a landmark per list would crowd the page's own sections, often named as the caption is.
  return (
    // A region that scrolls must take focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="table-wrap" id={page ? LIST_ID : undefined} aria-busy={busy} ref={wrap} role="group" aria-label={caption} tabIndex={0}>
      <table className={compare ? "data-table data-table--compare" : "data-table"}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.id} scope="col" className={cellClass(column)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.id} data-label={column.header} className={cellClass(column)}>
                  {shownValue(column.cell(row))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterDefinition {
  name: string;
  label: string;
  options: readonly FilterOption[];
  /** The choice that means "no filter". */
  allLabel: string;
}

/**
 * Search box, filter and sort selects in one GET form: a change submits at once
 * (with the script), the Apply button does it without. Whatever else the URL
 * holds (the period, a tab) stays.
 */
export function ListToolbar({
  searchLabel,
  searchPlaceholder,
  filters,
  sort,
  actions,
  alsoDrops = [],
}: {
  /** Omitted: the list has no search box. */
  searchLabel?: string;
  searchPlaceholder?: string;
  filters: readonly FilterDefinition[];
  sort?: { options: readonly FilterOption[] };
  actions?: ReactNode;
  /** Parameters a narrowed list no longer applies to (an open payment), dropped when the toolbar is sent. */
  alsoDrops?: readonly string[];
}) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const active = filters.filter((filter) => params.get(filter.name)).length;
  const filtered = active > 0 || Boolean(params.get("q"));
  const defaultSort = sort?.options[0]?.value;
  const narrowing = ["q", ...filters.map((filter) => filter.name)];
  const cleared = Object.fromEntries([...narrowing, ...alsoDrops].map((name) => [name, null]));
  return (
    <div className="list-toolbar">
      <ListForm
        sets={[...narrowing, "sort", ...alsoDrops]}
        defaults={defaultSort ? { sort: defaultSort } : {}}
        submitOnSelect
        className="list-toolbar__form"
        role="search"
      >
        {searchLabel ? (
          <label className="list-toolbar__search">
            <span className="visually-hidden">{searchLabel}</span>
            <input type="search" name="q" defaultValue={params.get("q") ?? ""} placeholder={searchPlaceholder ?? searchLabel} />
          </label>
        ) : null}
        {filters.length > 0 || sort ? (
          // On a phone the selects fold behind one button (a disclosure, so it opens without the script); wider, the stylesheet shows them in line.
          <details className="list-toolbar__more">
            <summary className="button">
              Filters
              {active > 0 ? (
                <>
                  <span className="tabs__count" aria-hidden="true">
                    {active}
                  </span>
                  <span className="visually-hidden">{`, ${active} on`}</span>
                </>
              ) : null}
            </summary>
            <div className="list-toolbar__filters">
              {filters.map((filter) => (
                <label key={filter.name} className="list-toolbar__filter">
                  <span>{filter.label}</span>
                  <select name={filter.name} defaultValue={params.get(filter.name) ?? ""}>
                    <option value="">{filter.allLabel}</option>
                    {filter.options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {shownText(option.label)}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
              {sort ? (
                <label className="list-toolbar__filter">
                  <span>Sort</span>
                  <select name="sort" defaultValue={params.get("sort") ?? defaultSort}>
                    {sort.options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
            </div>
          </details>
        ) : null}
        <button type="submit" className="button">
          Apply
        </button>
        {filtered ? (
          <Link to={filterHref(params, cleared)} className="button button--ghost">
            Clear
          </Link>
        ) : null}
      </ListForm>
      {actions ? <div className="list-toolbar__actions">{actions}</div> : null}
    </div>
  );
}

/** "Showing 26–50 of 1,204" for a page of a list. */
export function ListCount({ page, pageSize, shown, total, noun }: { page: number; pageSize: number; shown: number; total: number | null; noun: string }) {
  if (shown === 0) return null;
  const from = (page - 1) * pageSize + 1;
  const to = from + shown - 1;
  return (
    <p className="list-count" aria-live="polite">
      {`Showing ${formatCount(from)}–${formatCount(to)}${total === null ? "" : ` of ${formatCount(total)}`} ${noun}`}
    </p>
  );
}

/**
 * SPEC section 9's control: previous, current and next page numbers, padded
 * to three, with Previous and Next. Each link carries the trail of cursors.
 */
export function Pager({ page, totalPages, trail, hasNext }: { page: number; totalPages: number | null; trail: readonly string[]; hasNext: boolean }) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const last = totalPages ?? (hasNext ? page + 1 : page);
  if (last <= 1) return null;
  const numbers = pageWindow(page, last);
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link to={pageHref(params, page - 1, trail)} className="pager__step" rel="prev" preventScrollReset={false}>
          Previous
        </Link>
      ) : (
        <span className="pager__step" aria-disabled="true">
          Previous
        </span>
      )}
      <ol className="pager__pages">
        {numbers.map((number) => (
          <li key={number}>
            {number === page ? (
              <span className="pager__page pager__page--current" aria-current="page">
                {formatCount(number)}
              </span>
            ) : (
              <Link to={pageHref(params, number, trail)} className="pager__page" aria-label={`Page ${number}`}>
                {formatCount(number)}
              </Link>
            )}
          </li>
        ))}
      </ol>
      {hasNext ? (
        <Link to={pageHref(params, page + 1, trail)} className="pager__step" rel="next">
          Next
        </Link>
      ) : (
        <span className="pager__step" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
