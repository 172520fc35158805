// What the platform's queues could not deliver, for the Queues screen: the Partner API's parked messages (ingest_parked,
// decision 028) on each database, by business, source and error, and the analytics events the dead-letter queue's
// consumer parked (analytics_parked, core database). Only counts, times and errors: never a message's body.
// Parked rows are the exception (a deploy that fixes their cause replays them), so these read each table whole,
// grouped, and cap what they return.
import type { Db } from "../tenancy/tenant";

/** Groups returned per database at most, the largest first. */
export const PARKED_GROUPS_LIMIT = 100;
/** Errors are grouped by their first characters: the same cause with different references reads as one. */
const ERROR_PREFIX = 120;

export interface ParkedGroup {
  businessId: string;
  /** 'consumer': refused after isolation; 'dead_letter': arrived on the dead-letter queue. */
  source: "consumer" | "dead_letter";
  error: string;
  count: number;
  oldestAt: number;
  newestAt: number;
}

/** One database's parked Partner API messages, by business, source and (the start of) the error. */
export async function parkedGroups(db: Db): Promise<ParkedGroup[]> {
  const { results } = await db
    .prepare(
      `SELECT business_id AS businessId, source, substr(error, 1, ${ERROR_PREFIX}) AS error, COUNT(*) AS count,
         MIN(parked_at) AS oldestAt, MAX(parked_at) AS newestAt
       FROM ingest_parked GROUP BY business_id, source, substr(error, 1, ${ERROR_PREFIX}) ORDER BY count DESC, businessId LIMIT ?`,
    )
    .bind(PARKED_GROUPS_LIMIT)
    .all<ParkedGroup>();
  return results;
}

export interface DeadLetteredEvents {
  count: number;
  oldestAt: string | null;
  errors: { error: string; count: number }[];
}

/** The analytics events parked by the dead-letter queue's consumer (functions/analytics/consumer.ts), core database. */
export async function deadLetteredEvents(core: Db): Promise<DeadLetteredEvents> {
  const [totals, errors] = await core.batch([
    core.prepare("SELECT COUNT(*) AS count, MIN(parked_at) AS oldestAt FROM analytics_parked"),
    core.prepare(
      `SELECT coalesce(substr(last_error, 1, ${ERROR_PREFIX}), '') AS error, COUNT(*) AS count FROM analytics_parked
         GROUP BY coalesce(substr(last_error, 1, ${ERROR_PREFIX}), '') ORDER BY count DESC LIMIT 10`,
    ),
  ]);
  const total = (totals?.results[0] as { count: number; oldestAt: string | null } | undefined) ?? { count: 0, oldestAt: null };
  return { ...total, errors: (errors?.results ?? []) as { error: string; count: number }[] };
}

/** Given-up emails listed per database at most, the newest first. */
export const DEAD_EMAILS_LIMIT = 50;

export interface DeadDelivery {
  businessId: string;
  id: string;
  channel: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  title: string;
}

/**
 * The notification emails given up on a database (decision 053: the address refused, or a day of refusals), newest
 * first, for platform staff: the notice's title and the provider's error, never the address (it is the person's).
 */
export async function deadNotificationEmails(db: Db, limit = DEAD_EMAILS_LIMIT): Promise<DeadDelivery[]> {
  const { results } = await db
    .prepare(
      `SELECT d.business_id, d.id, d.channel, d.attempts, d.last_error, d.created_at, n.title
       FROM notification_deliveries d JOIN notifications n ON n.business_id = d.business_id AND n.id = d.notification_id
       WHERE d.status = 'dead' ORDER BY d.created_at DESC LIMIT ?`,
    )
    .bind(limit)
    .all<{ business_id: string; id: string; channel: string; attempts: number; last_error: string | null; created_at: string; title: string }>();
  return results.map((row) => ({
    businessId: row.business_id,
    id: row.id,
    channel: row.channel,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    title: row.title,
  }));
}
