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
