// Idempotency-Key for the Partner API (migration 0010): per business, a key is
// claimed by the first request that carries it, with a hash of that request;
// the answer is kept with it. Rows older than a day are dropped.
import type { BusinessDb, Db } from "../tenancy/tenant";
import { DAY_MS } from "../plumbing/time";

export interface KeptAnswer {
  requestHash: string;
  status: number;
  body: string;
}

/** Claims the key for this request; null when it was free (now ours), else what the first request kept. */
export async function claimIdempotencyKey(
  { businessId, db }: BusinessDb,
  key: string,
  claim: { requestHash: string; status: number; body: string },
  now: number,
): Promise<KeptAnswer | null> {
  const inserted = await db
    .prepare(
      `INSERT INTO api_idempotency (business_id, idempotency_key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (business_id, idempotency_key) DO NOTHING RETURNING 1 AS ok`,
    )
    .bind(businessId, key, claim.requestHash, claim.status, claim.body, now)
    .first<{ ok: number }>();
  if (inserted) return null;
  return keptAnswerOf({ businessId, db }, key);
}

/** The answer kept for a key, if any (read without claiming it: a dispute keeps its answer in its own batch). */
export async function keptAnswerOf({ businessId, db }: BusinessDb, key: string): Promise<KeptAnswer | null> {
  return db
    .prepare("SELECT request_hash AS requestHash, status, body FROM api_idempotency WHERE business_id = ? AND idempotency_key = ?")
    .bind(businessId, key)
    .first<KeptAnswer>();
}

/** An answer to keep with its key, written in the same batch as what the request made (a dispute, a refund request). */
export interface KeptAnswerRow {
  key: string;
  requestHash: string;
  status: number;
  body: string;
}

/** The statement that keeps it: the key's primary key makes a second request with the same key fail its whole batch. */
export function keepAnswerStatement({ businessId, db }: BusinessDb, kept: KeptAnswerRow, now: number): D1PreparedStatement {
  return db
    .prepare("INSERT INTO api_idempotency (business_id, idempotency_key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(businessId, kept.key, kept.requestHash, kept.status, kept.body, now);
}

/** Frees a claim whose request could not be queued, so a retry with the same key runs. */
export async function releaseIdempotencyKey({ businessId, db }: BusinessDb, key: string): Promise<void> {
  await db.prepare("DELETE FROM api_idempotency WHERE business_id = ? AND idempotency_key = ?").bind(businessId, key).run();
}

/** Drops keys older than a day (the daily cron). Belongs to no one business. */
export async function dropOldIdempotencyKeys(db: Db, now: number): Promise<void> {
  await db
    .prepare("DELETE FROM api_idempotency WHERE created_at < ?")
    .bind(now - DAY_MS)
    .run();
}
