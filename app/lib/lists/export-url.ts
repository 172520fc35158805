// The CSV of a list: its export route with every filter of the list's URL (search, status, period...), less what
// only the screen has (the page, its trail, an open panel), so the file holds the filtered rows of every page.
import { filterHref } from "#app/lib/lists/list-url";

export function exportHref(path: string, search: string, screenOnly: readonly string[] = []): string {
  // filterHref drops the page and its trail already.
  const query = filterHref(new URLSearchParams(search), Object.fromEntries(screenOnly.map((name) => [name, null])));
  return query === "?" ? path : `${path}${query}`;
}
