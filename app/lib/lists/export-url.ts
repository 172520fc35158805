// The CSV of a list: its export route with every filter of the list's URL (search, status, period...), less what
// only the screen has (the page, its trail, an open panel), so the file holds the filtered rows of every page.
import { PAGE_PARAM, TRAIL_PARAM } from "#app/lib/lists/list-url";

export function exportHref(path: string, search: string, screenOnly: readonly string[] = []): string {
  const params = new URLSearchParams(search);
  for (const name of [PAGE_PARAM, TRAIL_PARAM, ...screenOnly]) params.delete(name);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
