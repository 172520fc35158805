// Per-client request counts (rate_windows). A client is an address, not a business, so these take db first. The limits are in functions/plumbing/rate-limit.ts.
import type { Db } from "./d1-coalesce";

// In an upsert's SET every expression sees the row as it was, so both CASEs
// agree on whether the window had expired.
const COUNT_SQL = `INSERT INTO rate_windows (client, window_start, count) VALUES (?1, ?2, 1)
ON CONFLICT (client) DO UPDATE SET
  count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
  window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
RETURNING count, window_start`;

/** Counts one request of `client` at `now`; a window started at or before `windowEdge` has ended and starts again. */
export async function countInWindow(db: Db, client: string, now: number, windowEdge: number): Promise<{ count: number; window_start: number } | null> {
  return db.prepare(COUNT_SQL).bind(client, now, windowEdge).first<{ count: number; window_start: number }>();
}

/** Drops the ended windows of the clients in [from, to). */
export async function dropWindows(db: Db, from: string, to: string, windowEdge: number): Promise<void> {
  await db.prepare("DELETE FROM rate_windows WHERE client >= ? AND client < ? AND window_start <= ?").bind(from, to, windowEdge).run();
}
