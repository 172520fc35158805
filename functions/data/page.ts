// Keyset pagination: a page is the rows after a cursor (the sort key and id of
// the last row seen), never an OFFSET, so page 1 000 costs what page 1 costs.
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

export function encodeCursor(key: readonly Key[]): string {
  return btoa(JSON.stringify(key)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const CursorSchema = v.array(v.union([v.string(), v.number()]));

/** The key in a cursor; null when the cursor is not one this list made (the list starts again). */
export function decodeCursor(cursor: string | null | undefined, length: number): Key[] | null {
  if (!cursor) return null;
  try {
    const json: unknown = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
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

/** Escapes a user's search text for LIKE ... ESCAPE '\'. */
export function likePattern(text: string, mode: "prefix" | "contains" = "contains"): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === "prefix" ? `${escaped}%` : `%${escaped}%`;
}
