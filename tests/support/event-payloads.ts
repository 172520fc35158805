// Every event a test portal wrote, checked against what the OpenAPI document says its data holds
// (functions/partner-api/event-schemas.ts): each event as stored against the schema of the version it is stored in,
// and each delivery of it as its endpoint receives it (rendered in the endpoint's version, as the sender renders it)
// against that version's schema. Run after the tests that make each kind of event.
import * as v from "valibot";
import { expect } from "vitest";
import { EVENT_DATA_BY_VERSION } from "#server/partner-api/event-schemas";
import { renderEventData } from "#server/webhooks/event-versions";
import { CURRENT_API_VERSION, isApiVersion, type ApiVersion } from "#server/partner-api/versions";
import { isWebhookEventType, type WebhookEventType } from "#server/webhooks/types";
import type { Portal } from "./portal";

interface EventRow {
  id: string;
  type: string;
  payload: string;
  payloadVersion: string;
  payloadExtra: string | null;
  /** The version of the endpoint a delivery goes to; null for the event itself. */
  endpointVersion: string | null;
}

function expectAsDocumented(type: WebhookEventType, version: ApiVersion, data: unknown, what: string): void {
  const parsed = v.safeParse(EVENT_DATA_BY_VERSION[version][type], data);
  expect(parsed.success, `${what} (${version}): ${parsed.success ? "" : parsed.issues.map((i) => `${v.getDotPath(i)} ${i.message}`).join("; ")}`).toBe(true);
}

/** Checks every event row, and every delivery of one, of every database of the portal; returns the types it saw. */
export async function expectEventsAsDocumented(portal: Portal): Promise<Set<string>> {
  const seen = new Set<string>();
  const COLUMNS = "e.id, e.type, e.payload, e.payload_version AS payloadVersion, e.payload_extra AS payloadExtra";
  for (const db of [portal.core(), ...portal.shards()]) {
    const events = await db.prepare(`SELECT ${COLUMNS}, NULL AS endpointVersion FROM webhook_events e WHERE e.type <> 'webhook.test'`).all<EventRow>();
    const deliveries = await db
      .prepare(
        `SELECT ${COLUMNS}, w.api_version AS endpointVersion FROM webhook_deliveries d
         JOIN webhook_events e ON e.id = d.event_id AND e.business_id = d.business_id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.business_id = d.business_id WHERE e.type <> 'webhook.test'`,
      )
      .all<EventRow>();
    for (const event of [...events.results, ...deliveries.results]) {
      if (!isWebhookEventType(event.type)) continue; // a test's own made-up event
      seen.add(event.type);
      if (event.endpointVersion === null) {
        expect(isApiVersion(event.payloadVersion), `${event.id} is stored in a version: ${event.payloadVersion}`).toBe(true);
        expectAsDocumented(event.type, event.payloadVersion as ApiVersion, JSON.parse(event.payload), `${event.type} ${event.id} as stored`);
      } else {
        const version = isApiVersion(event.endpointVersion) ? event.endpointVersion : CURRENT_API_VERSION;
        expectAsDocumented(event.type, version, JSON.parse(renderEventData(event, version)), `${event.type} ${event.id} to an endpoint`);
      }
    }
  }
  return seen;
}
