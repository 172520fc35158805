// The analytics relay's tables (analytics_events, analytics_seen, analytics_parked; decision 007). Events are
// de-duplicated by hash across all businesses, so these take db first. The protocol is in functions/analytics/consumer.ts.
import type { Db } from "../tenancy/tenant";

/** Stores one event and marks its hash relayed (no EVENTS_ENDPOINT), for the caller's batch; idempotent. */
export function storeEventStatements(db: Db, event: { hash: string; eventJson: string; receivedAt: string }, now: string): D1PreparedStatement[] {
  return [
    db
      .prepare("INSERT INTO analytics_events (hash, event_json, received_at) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING")
      .bind(event.hash, event.eventJson, event.receivedAt),
    db
      .prepare(
        `INSERT INTO analytics_seen (hash, received_at, status, relayed_at, attempts) VALUES (?1, ?2, 'relayed', ?3, 1)
         ON CONFLICT (hash) DO UPDATE SET status = 'relayed', relayed_at = coalesce(relayed_at, ?3), claim_token = NULL, claimed_at = NULL`,
      )
      .bind(event.hash, event.receivedAt, now),
  ];
}

const CLAIM_SQL = `INSERT INTO analytics_seen (hash, received_at, status, claim_token, claimed_at, attempts)
VALUES (?1, ?2, 'claimed', ?3, ?4, 1)
ON CONFLICT (hash) DO UPDATE SET status = 'claimed', claim_token = excluded.claim_token, claimed_at = excluded.claimed_at, attempts = attempts + 1
  WHERE status = 'pending' OR (status = 'claimed' AND claimed_at <= ?5)
RETURNING claim_token`;

/** Claims the hash with `token` if it is new, pending, or claimed at or before `staleBefore`; the token it holds afterwards, or null. */
export async function claimEvent(
  db: Db,
  claim: { hash: string; receivedAt: string; token: string; now: number; staleBefore: number },
): Promise<{ claim_token: string } | null> {
  return db.prepare(CLAIM_SQL).bind(claim.hash, claim.receivedAt, claim.token, claim.now, claim.staleBefore).first<{ claim_token: string }>();
}

export async function eventStatus(db: Db, hash: string): Promise<{ status: string } | null> {
  return db.prepare("SELECT status FROM analytics_seen WHERE hash = ?").bind(hash).first<{ status: string }>();
}

/** Relayed, whoever holds the claim (the service's 2xx is the proof). */
export async function markRelayed(db: Db, hash: string, at: string): Promise<void> {
  await db
    .prepare("UPDATE analytics_seen SET status = 'relayed', relayed_at = ?, claim_token = NULL, claimed_at = NULL, last_error = NULL WHERE hash = ?")
    .bind(at, hash)
    .run();
}

/** Gives the claim back (pending, keeping the error), only if `token` still holds it. */
export async function releaseClaim(db: Db, hash: string, token: string, error: string): Promise<void> {
  await db
    .prepare("UPDATE analytics_seen SET status = 'pending', claim_token = NULL, claimed_at = NULL, last_error = ? WHERE hash = ? AND claim_token = ?")
    .bind(error, hash, token)
    .run();
}

const PARK_SQL = `INSERT INTO analytics_parked (hash, message_json, parked_at, generation, last_error)
SELECT ?1, ?2, ?3, 1, coalesce(?4, (SELECT last_error FROM analytics_seen WHERE hash = ?1))
WHERE NOT EXISTS (SELECT 1 FROM analytics_seen WHERE hash = ?1 AND status = 'relayed')
ON CONFLICT (hash) DO UPDATE SET message_json = excluded.message_json, parked_at = excluded.parked_at,
  generation = generation + 1, last_error = excluded.last_error`;

/**
 * Parks a dead letter (unless its event was relayed meanwhile), for the caller's batch, with `error` (the store's
 * refusal of a poisoned event) or else the last relay error.
 */
export function parkStatement(db: Db, hash: string, messageJson: string, at: string, error: string | null = null): D1PreparedStatement {
  return db.prepare(PARK_SQL).bind(hash, messageJson, at, error === null ? null : error.slice(0, 1000));
}

export interface ParkedRow {
  hash: string;
  message_json: string;
  generation: number;
  status: string | null;
}

/** The oldest parked messages, each with its event's relay status. */
export async function parkedRows(db: Db, limit: number): Promise<ParkedRow[]> {
  const { results } = await db
    .prepare(
      `SELECT p.hash, p.message_json, p.generation, s.status
       FROM analytics_parked p LEFT JOIN analytics_seen s ON s.hash = p.hash
       ORDER BY p.parked_at, p.hash LIMIT ?`,
    )
    .bind(limit)
    .all<ParkedRow>();
  return results;
}

/** Removes a parked message, only if it was not parked again since it was read (generation); for the caller's batch. */
export function unparkStatement(db: Db, hash: string, generation: number): D1PreparedStatement {
  return db.prepare("DELETE FROM analytics_parked WHERE hash = ? AND generation = ?").bind(hash, generation);
}

export async function countParked(db: Db): Promise<number | undefined> {
  const left = await db.prepare("SELECT count(*) AS n FROM analytics_parked").first<{ n: number }>();
  return left?.n;
}

/** The newest `limit` stored events (raw rows) and how many there are, read in one batch. */
export async function storedEventRows(db: Db, limit: number): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const [list, count] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT hash, event_json, received_at FROM analytics_events ORDER BY id DESC LIMIT ?").bind(limit),
    db.prepare("SELECT count(*) AS n FROM analytics_events"),
  ]);
  return { rows: list?.results ?? [], total: Number(count?.results[0]?.n ?? 0) };
}
