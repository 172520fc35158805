// Events the consumer stored in D1 because no EVENTS_ENDPOINT is set (the local
// default), for the development page /__dev/events.
import * as v from "valibot";
import { AnalyticsEventSchema, type AnalyticsEvent } from "./schema";

export interface StoredEvent {
  hash: string;
  receivedAt: string;
  event: AnalyticsEvent;
}

export interface StoredEvents {
  /** All stored events. */
  total: number;
  /** The newest `limit`, newest first. */
  events: StoredEvent[];
}

export async function listStoredEvents(db: D1Database, limit: number): Promise<StoredEvents> {
  const [list, count] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT hash, event_json, received_at FROM analytics_events ORDER BY id DESC LIMIT ?").bind(limit),
    db.prepare("SELECT count(*) AS n FROM analytics_events"),
  ]);
  const events: StoredEvent[] = [];
  for (const row of list?.results ?? []) {
    // Rows are written only by the consumer after validation; checked again on the way out.
    const event = v.safeParse(AnalyticsEventSchema, JSON.parse(String(row.event_json)));
    if (event.success) events.push({ hash: String(row.hash), receivedAt: String(row.received_at), event: event.output });
  }
  return { total: Number(count?.results[0]?.n ?? 0), events };
}
