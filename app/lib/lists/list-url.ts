// A list's state in its URL (search, filters, sort, page and the page trail),
// so a list can be bookmarked, shared, reloaded and navigated back to.

/** The URL parameters the list machinery owns; filters and search are the list's own. */
export const PAGE_PARAM = "page";
export const TRAIL_PARAM = "trail";

/**
 * Cursors are base64url: a dot never appears in one. One holds a sort key as
 * UTF-8: a 120-character name in a script of 3-byte letters makes about 540
 * characters, so 1 024 keeps every cursor a list makes.
 */
export function readTrail(params: URLSearchParams): string[] {
  return (params.get(TRAIL_PARAM) ?? "")
    .split(".")
    .filter((part) => /^[\w-]{1,1024}$/.test(part))
    .slice(0, 200);
}

export function readPage(params: URLSearchParams): number {
  const page = Number(params.get(PAGE_PARAM));
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/** The same list at another page; the trail up to that page goes along so it is one query. */
export function pageHref(current: URLSearchParams, page: number, trail: readonly string[]): string {
  const next = new URLSearchParams(current);
  next.delete(PAGE_PARAM);
  next.delete(TRAIL_PARAM);
  if (page > 1) {
    next.set(PAGE_PARAM, String(page));
    const kept = trail.slice(0, page - 1);
    if (kept.length) next.set(TRAIL_PARAM, kept.join("."));
  }
  const query = next.toString();
  return query ? `?${query}` : "?";
}

/** The list with one filter changed: back to page 1, since the old trail no longer applies. */
export function filterHref(current: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(current);
  next.delete(PAGE_PARAM);
  next.delete(TRAIL_PARAM);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `?${query}` : "?";
}

/**
 * What a list form carries along unseen: every parameter of the URL it does not set itself (a period, a tab, a
 * sort another form chose), less the page and trail, which a changed list starts again without. A GET form sends
 * only its own fields, so without these a Status filter would silently drop the chosen period.
 */
export function keptParams(current: URLSearchParams, sets: readonly string[]): [string, string][] {
  const owned = new Set([...sets, PAGE_PARAM, TRAIL_PARAM]);
  return [...current].filter(([key]) => !owned.has(key));
}

/**
 * A list form's fields as the URL they lead to: only what narrows the list (no empty fields, no field left at its
 * default), each name once (the form's own field wins over a kept one of the same name).
 */
export function narrowedQuery(fields: Iterable<[string, FormDataEntryValue]>, defaults: Readonly<Record<string, string>> = {}): URLSearchParams {
  const chosen = new URLSearchParams();
  for (const [key, value] of fields) {
    if (typeof value !== "string") continue;
    const text = value.trim();
    if (text === "" || defaults[key] === text) chosen.delete(key);
    else chosen.set(key, text);
  }
  return chosen;
}
