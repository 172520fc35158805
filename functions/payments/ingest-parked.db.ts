// Partner API queue messages the consumer could not apply (migration 0024, decision 028): kept in D1 with their error
// instead of holding back the rest of their batch, read by the business (Developers tab, GET /api/v1/rejections) and
// by operators (`npm run ingest:replay`), and removed once an operator has put them back on the queue.
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb, Db } from "../tenancy/tenant";

export interface ParkInput {
  businessId: string;
  messageId: string;
  source: "consumer" | "dead_letter";
  /** The queue message's body as queued (the door refuses card numbers, so it holds none). */
  body: unknown;
  references: string[];
  error: string;
  attempts: number;
  receivedAt: number | null;
  parkedAt: number;
}

export interface ParkedMessage {
  id: string;
  businessId: string;
  source: "consumer" | "dead_letter";
  references: string[];
  error: string;
  attempts: number;
  receivedAt: number | null;
  parkedAt: number;
}

export interface ParkedWithBody extends ParkedMessage {
  /** JSON text of the queue message. */
  body: string;
}

/** Errors are kept to this many characters: enough to read, never a whole statement. */
const ERROR_MAX = 500;

export function newParkedId(): string {
  return `prk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

/** Parks one message; a message parked again (its ack was lost) keeps its first row. */
export function parkMessageStatement(db: Db, input: ParkInput): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ingest_parked (business_id, id, message_id, source, body, refs, error, attempts, received_at, parked_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT (business_id, message_id) DO NOTHING`,
    )
    .bind(
      input.businessId,
      newParkedId(),
      input.messageId,
      input.source,
      JSON.stringify(input.body ?? null),
      JSON.stringify(input.references),
      input.error.slice(0, ERROR_MAX),
      input.attempts,
      input.receivedAt,
      input.parkedAt,
    );
}

const COLUMNS = `id, business_id AS businessId, source, refs, error, attempts, received_at AS receivedAt, parked_at AS parkedAt`;

type Row = Omit<ParkedMessage, "references"> & { refs: string };
const fromRow = ({ refs, ...row }: Row): ParkedMessage => ({ ...row, references: JSON.parse(refs) as string[] });

/** The business's parked messages, newest first, keyset paged. */
export async function listParkedMessages(tenant: BusinessDb, query: PageQuery = {}): Promise<Page<ParkedMessage>> {
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const { results } = await tenant.db
    .prepare(
      `SELECT ${COLUMNS} FROM ingest_parked
       WHERE business_id = ?1 ${after ? "AND (parked_at, id) < (?2, ?3)" : ""} ORDER BY parked_at DESC, id DESC LIMIT ?4`,
    )
    .bind(tenant.businessId, after?.[0] ?? null, after?.[1] ?? null, size + 1)
    .all<Row>();
  return toPage(results.map(fromRow), size, (row) => [row.parkedAt, row.id]);
}

export async function countParkedMessages(tenant: BusinessDb): Promise<number> {
  return (await tenant.db.prepare("SELECT count(*) AS n FROM ingest_parked WHERE business_id = ?").bind(tenant.businessId).first<number>("n")) ?? 0;
}

/** Every business's parked messages in one database, oldest first (the operator's listing and replay). */
export async function allParkedMessages(db: Db, limit: number): Promise<ParkedWithBody[]> {
  const { results } = await db.prepare(`SELECT ${COLUMNS}, body FROM ingest_parked ORDER BY parked_at, id LIMIT ?`).bind(limit).all<Row & { body: string }>();
  return results.map((row) => ({ ...fromRow(row), body: row.body }));
}

export async function parkedMessageById(db: Db, id: string): Promise<ParkedWithBody | null> {
  const row = await db.prepare(`SELECT ${COLUMNS}, body FROM ingest_parked WHERE id = ?`).bind(id).first<Row & { body: string }>();
  return row ? { ...fromRow(row), body: row.body } : null;
}

export function unparkStatement(db: Db, businessId: string, id: string): D1PreparedStatement {
  return db.prepare("DELETE FROM ingest_parked WHERE business_id = ? AND id = ?").bind(businessId, id);
}
