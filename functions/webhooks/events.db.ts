// The events feed (GET /api/v1/events, decision 044): the events a business's changes made in the last 30 days, with the
// same ids and bodies its webhook deliveries carry (in the reader's version), so a receiver that was down catches up by reading them. Ordered by
// when the portal recorded each event (created_at), newest first: a payment announced today may have happened
// yesterday, and a receiver catching up wants what was recorded while it was away. Test events ("Send a test event")
// belong to one endpoint and are not in the feed.
import type { BusinessDb } from "../tenancy/tenant";
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEventType } from "./types";
import { DAY_MS } from "../plumbing/time";

/** How far back the feed reads. */
export const EVENTS_FEED_DAYS = 30;

export interface FeedEvent {
  id: string;
  type: WebhookEventType;
  /** When what it describes happened (epoch ms): the webhook body's `created`. */
  happenedAt: number;
  /** When the portal recorded it (epoch ms): the feed's order. */
  recordedAt: number;
  /** The JSON text of the body's `data` as stored, in the shape of payloadVersion, with its extra facts: rendered in the reader's version. */
  payload: string;
  payloadVersion: string;
  payloadExtra: string | null;
}

export interface EventsFilter {
  type?: WebhookEventType;
  /** Epoch ms, inclusive; never before the feed's 30 days. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

const COLUMNS = "id, type, happened_at AS happenedAt, created_at AS recordedAt, payload, payload_version AS payloadVersion, payload_extra AS payloadExtra";

/**
 * One page (and one row more, to know whether another follows) after the key (recordedAt, id), newest first, read by
 * the index of the filter: (business, type, created_at, id) or (business, created_at, id).
 */
export async function listEventsPage(
  { businessId, db }: BusinessDb,
  now: number,
  filter: EventsFilter,
  after: readonly [number, string] | null,
  limit: number,
): Promise<FeedEvent[]> {
  const where = ["business_id = ?", "created_at >= ?"];
  const binds: unknown[] = [businessId, Math.max(now - EVENTS_FEED_DAYS * DAY_MS, filter.from ?? 0)];
  if (filter.type) {
    where.push("type = ?");
    binds.push(filter.type);
  } else {
    where.push("type <> ?");
    binds.push(WEBHOOK_TEST_EVENT_TYPE);
  }
  if (filter.to !== undefined) {
    where.push("created_at < ?");
    binds.push(filter.to);
  }
  if (after) {
    where.push("created_at <= ? AND (created_at < ? OR id < ?)");
    binds.push(after[0], after[0], after[1]);
  }
  const index = filter.type ? "webhook_events_by_type" : "webhook_events_by_record";
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM webhook_events INDEXED BY ${index} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, limit + 1)
    .all<FeedEvent>();
  return results;
}

/** One event of the feed's 30 days, or null (another business's, a test event, or older). */
export async function getEvent({ businessId, db }: BusinessDb, id: string, now: number): Promise<FeedEvent | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM webhook_events WHERE business_id = ? AND id = ? AND type <> ? AND created_at >= ?`)
    .bind(businessId, id, WEBHOOK_TEST_EVENT_TYPE, now - EVENTS_FEED_DAYS * DAY_MS)
    .first<FeedEvent>();
}

/** How many events a run drops a business at most: the next day's run takes the rest. */
const DROP_BATCH = 5_000;

/**
 * Drops the business's events older than the feed's 30 days (and a day's margin) that no delivery refers to: the feed
 * no longer answers them, and keeping every payment's event for ever would double what a payment costs on disk. An
 * event a delivery refers to stays with its delivery log.
 */
export async function dropOldEvents({ businessId, db }: BusinessDb, now: number): Promise<number> {
  const before = now - (EVENTS_FEED_DAYS + 1) * DAY_MS;
  const result = await db
    .prepare(
      `DELETE FROM webhook_events WHERE business_id = ?1 AND id IN (
         SELECT e.id FROM webhook_events e INDEXED BY webhook_events_by_record
         WHERE e.business_id = ?1 AND e.created_at < ?2
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d INDEXED BY webhook_deliveries_by_event WHERE d.business_id = ?1 AND d.event_id = e.id)
         LIMIT ?3)`,
    )
    .bind(businessId, before, DROP_BATCH)
    .run();
  return result.meta.changes ?? 0;
}
