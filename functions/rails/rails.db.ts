// The callback ids already received (rail_callbacks, migration 0031). It belongs to no business: a callback names
// its order, not its business, and ids are the rail's.
export async function rememberCallback(db: D1Database, rail: "switch" | "paystack", id: string, now: number): Promise<boolean> {
  const row = await db
    .prepare("INSERT INTO rail_callbacks (rail, id, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id")
    .bind(rail, id, now)
    .first<{ id: string }>();
  return row !== null;
}

/** Forgets an id whose callback could not be applied (a database error), so the rail's own retry is taken. */
export async function forgetCallback(db: D1Database, rail: "switch" | "paystack", id: string): Promise<void> {
  await db.prepare("DELETE FROM rail_callbacks WHERE rail = ? AND id = ?").bind(rail, id).run();
}

/** A signed callback that matched nothing this portal sent to that rail (migration 0039): kept, never applied. */
export async function recordUnmatchedCallback(
  db: D1Database,
  callback: { rail: "switch" | "paystack"; id: string; kind: "payout" | "refund"; key: string; status: string; why: string },
  now: number,
): Promise<void> {
  await db
    .prepare("INSERT OR IGNORE INTO rail_callbacks_unmatched (rail, id, kind, rail_key, status, why, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(callback.rail, callback.id, callback.kind, callback.key.slice(0, 200), callback.status.slice(0, 40), callback.why, now)
    .run();
}
