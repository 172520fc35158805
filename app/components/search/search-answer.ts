// What the top bar's search answers (GET /search?q=, app/routes/search/search.route.ts) and its box reads: results
// grouped by kind, each a link, its text already as the screens show it.

export type SearchKind = "payment" | "merchant" | "terminal" | "person" | "dispute" | "settlement";

export interface SearchItem {
  id: string;
  title: string;
  detail: string;
  href: string;
}

export interface SearchGroup {
  kind: SearchKind;
  label: string;
  items: SearchItem[];
}

export interface SearchAnswer {
  /** The text searched, trimmed: the box shows an answer only for the text it asked about. */
  q: string;
  groups: SearchGroup[];
}

/** Where the box asks. */
export const SEARCH_PATH = "/search";
