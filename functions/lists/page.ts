// Keyset pagination: a page is the rows after a cursor (the sort key and id of
// the last row seen), never an OFFSET, so page 1 000 costs what page 1 costs.
import { base64url } from "jose";
import * as v from "valibot";

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface PageQuery {
  /** The cursor of the previous page's last row. */
  after?: string | null;
  limit?: number;
  /** Count the whole filtered set too (costs a second query; ask only when shown). */
  withTotal?: boolean;
}

export interface Page<T> {
  rows: T[];
  /** Cursor for the next page; null on the last page. */
  next: string | null;
  total?: number;
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

type Key = string | number;

// A cursor is the key's JSON as UTF-8, base64url: names in Akan, Ga and Ewe letters
// (Ɔ, Ɛ, Ŋ), Arabic script or emoji are keys like any other (btoa takes Latin-1 only).
export function encodeCursor(key: readonly Key[]): string {
  return base64url.encode(JSON.stringify(key));
}

const CursorSchema = v.array(v.union([v.string(), v.number()]));
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The key in a cursor; null when the cursor is not one this list made (the list starts again). */
export function decodeCursor(cursor: string | null | undefined, length: number): Key[] | null {
  if (!cursor) return null;
  try {
    const json: unknown = JSON.parse(utf8.decode(base64url.decode(cursor)));
    const parsed = v.safeParse(CursorSchema, json);
    return parsed.success && parsed.output.length === length ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Cuts the extra row fetched to learn whether another page follows. */
export function toPage<T>(rows: T[], size: number, keyOf: (row: T) => Key[]): Page<T> {
  const hasMore = rows.length > size;
  const pageRows = hasMore ? rows.slice(0, size) : rows;
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, next: hasMore && last ? encodeCursor(keyOf(last)) : null };
}

/** At most this many pages are read ahead to reach a page whose cursor the URL lacks. */
export const MAX_PAGES_WALKED = 3;

export interface NumberedPage<T> extends Page<T> {
  /** The page shown (1-based): the one asked for, or the last one that exists on the way. */
  number: number;
  /** trail[i] is the cursor that opens page i + 2, for pages 2 .. number (+1 when known). */
  trail: string[];
}

/**
 * Keyset pages addressed by number for the pagination control: the URL keeps
 * the cursors of the pages passed (the trail), so page N is one query; a page a
 * little ahead of the trail (the control's "next but one") reads the pages in
 * between, at most MAX_PAGES_WALKED of them.
 */
export async function numberedPage<T>(load: (after: string | null) => Promise<Page<T>>, trail: readonly string[], wanted: number): Promise<NumberedPage<T>> {
  const target = Math.max(1, Math.floor(wanted) || 1);
  const known = trail.slice(0, target - 1);
  let walks = 0;
  while (known.length < target - 1 && walks < MAX_PAGES_WALKED) {
    walks += 1;
    const step = await load(known.at(-1) ?? null);
    if (!step.next) break;
    known.push(step.next);
  }
  const page = await load(known.at(-1) ?? null);
  return { ...page, number: known.length + 1, trail: page.next ? [...known, page.next] : known };
}
