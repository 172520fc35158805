// Every event a test portal wrote, checked against what the OpenAPI document says its data holds
// (functions/partner-api/event-schemas.ts): run after the tests that make each kind of event.
import * as v from "valibot";
import { expect } from "vitest";
import { EVENT_DATA } from "#server/partner-api/event-schemas";
import { isWebhookEventType } from "#server/webhooks/types";
import type { Portal } from "./portal";

/** Checks every event row of every database of the portal; returns the types it saw. */
export async function expectEventsAsDocumented(portal: Portal): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const db of [portal.core(), ...portal.shards()]) {
    const { results } = await db
      .prepare("SELECT id, type, payload FROM webhook_events WHERE type <> 'webhook.test'")
      .all<{ id: string; type: string; payload: string }>();
    for (const event of results) {
      if (!isWebhookEventType(event.type)) continue; // a test's own made-up event
      seen.add(event.type);
      const parsed = v.safeParse(EVENT_DATA[event.type][0], JSON.parse(event.payload));
      expect(parsed.success, `${event.type} ${event.id}: ${parsed.success ? "" : parsed.issues.map((i) => `${v.getDotPath(i)} ${i.message}`).join("; ")}`).toBe(
        true,
      );
    }
  }
  return seen;
}
