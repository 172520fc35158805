// The development SMS outbox (dev_outbox), shown at /__dev/outbox. It holds messages to phone numbers, not a business's rows, so these take db first.
import type { Db } from "../tenancy/tenant";

export interface OutboxMessage {
  to: string;
  body: string;
  createdAt: string;
}

export async function addOutboxMessage(db: Db, to: string, body: string, at: string): Promise<void> {
  await db.prepare("INSERT INTO dev_outbox (to_msisdn, body, created_at) VALUES (?, ?, ?)").bind(to, body, at).run();
}

/** The dev outbox, newest first. */
export async function listOutbox(db: Db, limit: number): Promise<{ total: number; messages: OutboxMessage[] }> {
  const [count, rows] = await db.batch<{ n: number } | { to_msisdn: string; body: string; created_at: string }>([
    db.prepare("SELECT count(*) AS n FROM dev_outbox"),
    db.prepare("SELECT to_msisdn, body, created_at FROM dev_outbox ORDER BY id DESC LIMIT ?").bind(limit),
  ]);
  const total = (count?.results[0] as { n: number } | undefined)?.n ?? 0;
  const messages = ((rows?.results ?? []) as { to_msisdn: string; body: string; created_at: string }[]).map((row) => ({
    to: row.to_msisdn,
    body: row.body,
    createdAt: row.created_at,
  }));
  return { total, messages };
}
