// The events feed (GET /api/v1/events, issue 29): the events a business's changes made in the last 30 days, with the
// same ids and bodies its webhook deliveries carry, so a receiver that was down catches up by reading them. Ordered by
// when the portal recorded each event (created_at), newest first: a payment announced today may have happened
// yesterday, and a receiver catching up wants what was recorded while it was away. Test events ("Send a test event")
// belong to one endpoint and are not in the feed.
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb } from "../tenancy/tenant";
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEventType } from "./types";
import { DAY_MS } from "../platform/time";

/** How far back the feed reads. */
export const EVENTS_FEED_DAYS = 30;

export interface FeedEvent {
  id: string;
  type: WebhookEventType;
  /** When what it describes happened (epoch ms): the webhook body's `created`. */
  happenedAt: number;
  /** When the portal recorded it (epoch ms): the feed's order. */
  recordedAt: number;
  /** The JSON text of the body's `data`, exactly as deliveries send it. */
  payload: string;
}

export interface EventsQuery extends PageQuery {
  type?: WebhookEventType;
  /** Epoch ms, inclusive; never before the feed's 30 days. */
  from?: number;
  /** Epoch ms, exclusive. */
  to?: number;
}

const COLUMNS = "id, type, happened_at AS happenedAt, created_at AS recordedAt, payload";

/** Newest first, by the index of the filter: (business, type, created_at, id) or (business, created_at, id). */
export async function listEvents({ businessId, db }: BusinessDb, now: number, query: EventsQuery = {}): Promise<Page<FeedEvent>> {
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const from = Math.max(now - EVENTS_FEED_DAYS * DAY_MS, query.from ?? 0);
  const where = ["business_id = ?", "created_at >= ?"];
  const binds: unknown[] = [businessId, from];
  if (query.type) {
    where.push("type = ?");
    binds.push(query.type);
  } else {
    where.push("type <> ?");
    binds.push(WEBHOOK_TEST_EVENT_TYPE);
  }
  if (query.to !== undefined) {
    where.push("created_at < ?");
    binds.push(query.to);
  }
  if (after) {
    where.push("(created_at < ? OR (created_at = ? AND id < ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const index = query.type ? "webhook_events_by_type" : "webhook_events_by_record";
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM webhook_events INDEXED BY ${index} WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, size + 1)
    .all<FeedEvent>();
  return toPage(results, size, (event) => [event.recordedAt, event.id]);
}

/** One event of the feed's 30 days, or null (another business's, a test event, or older). */
export async function getEvent({ businessId, db }: BusinessDb, id: string, now: number): Promise<FeedEvent | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM webhook_events WHERE business_id = ? AND id = ? AND type <> ? AND created_at >= ?`)
    .bind(businessId, id, WEBHOOK_TEST_EVENT_TYPE, now - EVENTS_FEED_DAYS * DAY_MS)
    .first<FeedEvent>();
}
