// Events the consumer stored in D1 because no EVENTS_ENDPOINT is set (the local
// default), for the development page /__dev/events.
import * as v from "valibot";
import { storedEventRows } from "./analytics-events.db";
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
  const { rows, total } = await storedEventRows(db, limit);
  const events: StoredEvent[] = [];
  for (const row of rows) {
    // Rows are written only by the consumer after validation; checked again on the way out.
    const event = v.safeParse(AnalyticsEventSchema, JSON.parse(String(row.event_json)));
    if (event.success) events.push({ hash: String(row.hash), receivedAt: String(row.received_at), event: event.output });
  }
  return { total, events };
}
