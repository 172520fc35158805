// The development email outbox (dev_email_outbox), shown at /__dev/outbox beside the texts. It holds messages to
// addresses, not a business's rows, so these take the core database first.
import type { Db } from "../tenancy/tenant";

export interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  /** List-Unsubscribe and the like, as the provider would be handed them. */
  headers: Record<string, string>;
  createdAt: string;
}

export async function addOutboxEmail(
  db: Db,
  email: { to: string; subject: string; html: string; text: string; headers: Record<string, string> },
  at: string,
): Promise<void> {
  await db
    .prepare("INSERT INTO dev_email_outbox (to_address, subject, html, text, headers, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(email.to, email.subject, email.html, email.text, JSON.stringify(email.headers), at)
    .run();
}

interface EmailRow {
  id: number;
  to_address: string;
  subject: string;
  text: string;
  headers: string;
  created_at: string;
}

/** The emails, newest first. */
export async function listOutboxEmails(db: Db, limit: number): Promise<{ total: number; emails: OutboxEmail[] }> {
  const [count, rows] = await db.batch<{ n: number } | EmailRow>([
    db.prepare("SELECT count(*) AS n FROM dev_email_outbox"),
    db.prepare("SELECT id, to_address, subject, text, headers, created_at FROM dev_email_outbox ORDER BY id DESC LIMIT ?").bind(limit),
  ]);
  const total = (count?.results[0] as { n: number } | undefined)?.n ?? 0;
  const emails = ((rows?.results ?? []) as EmailRow[]).map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text,
    headers: JSON.parse(row.headers) as Record<string, string>,
    createdAt: row.created_at,
  }));
  return { total, emails };
}

/** One email's HTML as the provider would have been handed it; null when there is none of that id. */
export async function outboxEmailHtml(db: Db, id: number): Promise<string | null> {
  const row = await db.prepare("SELECT html FROM dev_email_outbox WHERE id = ?").bind(id).first<{ html: string }>();
  return row?.html ?? null;
}
