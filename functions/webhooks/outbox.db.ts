// The outbox: events and their pending deliveries are written in the batch of the change they describe, then marked
// queued (queued_at) when handed to the WEBHOOKS queue (dispatch.ts). What the system does here takes the businessId
// first; the test event is a person's, so it takes the tenant.
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEventType } from "./types";
import { getWebhookEndpoint } from "./endpoints.db";
import { NotFoundError, RuleError, type Tenant, type BusinessDb } from "../tenancy/tenant";
import { STORED_EVENT_VERSION, type EventExtra } from "./event-versions";

export interface WebhookEventInput {
  /** Given: re-emitting the same id is a no-op (INSERT OR IGNORE). */
  id?: string;
  type: WebhookEventType;
  /** In the shape of STORED_EVENT_VERSION (./event-versions.ts): the object as GET answers it. */
  data: unknown;
  /** What older versions' shapes of the event say that `data` does not hold (payload_extra). */
  extra?: EventExtra;
  /** When what it describes happened (epoch ms); the envelope's `created`. Retries never count from it (see webhookEventStatements). */
  at: number;
}

export function newEventId(): string {
  return `evt_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Statements for the caller's D1 batch: each event, and one pending delivery per
 * enabled endpoint of the business subscribed to its type, written with the
 * change that caused them (or not at all). Every event is kept, wanted by an
 * endpoint or not: the events feed (GET /api/v1/events) answers them to a receiver
 * that was down or has no endpoint. Two statements however many events (they travel as one JSON
 * parameter: the Partner API's consumer writes a thousand payments a batch).
 * An event id given by the caller makes a re-emission a no-op. After the batch
 * commits, the caller runs dispatchPendingDeliveries (functions/webhooks/dispatch.ts),
 * e.g. in ctx.waitUntil; the 5-minute cron sweeps what was missed.
 *
 * `at` is when what the event describes happened (a payment's occurred_at, perhaps days ago); `now` is when the
 * portal makes the event: its created_at and its deliveries', from which retries, the disabling rule and the
 * delivery log count.
 *
 * The event is stored once, its data in STORED_EVENT_VERSION's shape (payload_version) with its `extra`: each delivery
 * is rendered in its endpoint's version when it is sent, the feed in the request's (./event-versions.ts).
 */
export function webhookEventStatements({ businessId, db }: BusinessDb, events: WebhookEventInput[], now: number = Date.now()): D1PreparedStatement[] {
  if (events.length === 0) return [];
  const json = JSON.stringify(
    events.map((e) => ({
      id: e.id ?? newEventId(),
      type: e.type,
      payload: JSON.stringify(e.data ?? {}),
      extra: e.extra && Object.keys(e.extra).length > 0 ? JSON.stringify(e.extra) : null,
      at: e.at,
    })),
  );
  const subscribed = `e.business_id = ?1 AND e.status = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.event_types) WHERE value = j.value->>'type')`;
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_events (id, business_id, type, payload, payload_version, payload_extra, happened_at, created_at)
         SELECT j.value->>'id', ?1, j.value->>'type', j.value->>'payload', ?4, j.value->>'extra', j.value->>'at', ?3 FROM json_each(?2) j`,
      )
      .bind(businessId, json, now, STORED_EVENT_VERSION),
    // The delivery id is the event's and the endpoint's, so one statement makes them all.
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, business_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
         SELECT 'wd_' || substr(j.value->>'id', 5) || '_' || substr(e.id, 4), e.business_id, e.id, j.value->>'id', 'pending', 0, ?3, ?3, ?3
         FROM json_each(?2) j JOIN webhook_endpoints e ON ${subscribed}
         WHERE EXISTS (SELECT 1 FROM webhook_events v WHERE v.id = j.value->>'id' AND v.business_id = ?1)`,
      )
      .bind(businessId, json, now),
  ];
}

/** A test event and its one delivery to this endpoint, already marked queued (the caller sends it at once). */
function testEventStatements(
  { businessId, db }: BusinessDb,
  event: { id: string; type: string; data: unknown; at: number },
  endpoint: { id: string; queuedAt: number },
): D1PreparedStatement[] {
  return [
    db
      .prepare("INSERT OR IGNORE INTO webhook_events (id, business_id, type, payload, payload_version, happened_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind(event.id, businessId, event.type, JSON.stringify(event.data ?? {}), STORED_EVENT_VERSION, event.at, event.at),
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_deliveries (id, business_id, endpoint_id, event_id, status, attempts, next_attempt_at, queued_at, created_at, updated_at)
         SELECT ?, e.business_id, e.id, ?, 'pending', 0, ?, ?, ?, ? FROM webhook_endpoints e WHERE e.id = ? AND e.business_id = ?`,
      )
      .bind(`wd_${crypto.randomUUID().replaceAll("-", "")}`, event.id, event.at, endpoint.queuedAt, event.at, event.at, endpoint.id, businessId),
  ];
}

/**
 * "Send a test event": an event of type webhook.test and its delivery to this
 * endpoint only, marked as already queued (it is sent at once by the caller, not through the queue).
 */
export async function createTestDelivery(tenant: Tenant, endpointId: string, now: number): Promise<{ eventId: string; deliveryId: string }> {
  const { db } = tenant;
  const endpoint = await getWebhookEndpoint(tenant, endpointId);
  if (!endpoint) throw new NotFoundError("Webhook endpoint");
  if (endpoint.status !== "enabled") throw new RuleError("Enable the endpoint before sending it a test event.");
  const eventId = newEventId();
  const data = { message: "A test event from Partners Portal: your endpoint is reachable and verifies signatures.", endpointId };
  await db.batch(testEventStatements(tenant, { id: eventId, type: WEBHOOK_TEST_EVENT_TYPE, data, at: now }, { id: endpointId, queuedAt: now }));
  const row = await db
    .prepare("SELECT id FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ? AND event_id = ?")
    .bind(tenant.businessId, endpointId, eventId)
    .first<{ id: string }>();
  return { eventId, deliveryId: row!.id };
}

export interface QueuedDelivery {
  deliveryId: string;
  businessId: string;
  /** The outbox marker this message was sent under: a message with an older one is a stale copy. */
  queuedAt: number;
  nextAttemptAt: number;
}

/** Marks up to `limit` pending, not yet queued deliveries as queued at `now` and returns them (one business when given). */
export async function claimUnqueuedDeliveries({ businessId, db }: BusinessDb, now: number, limit: number): Promise<QueuedDelivery[]> {
  const { results } = await db
    .prepare(
      `UPDATE webhook_deliveries SET queued_at = ?
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE business_id = ? AND status = 'pending' AND queued_at IS NULL ORDER BY next_attempt_at LIMIT ?) AND queued_at IS NULL
       RETURNING id, business_id, queued_at, next_attempt_at`,
    )
    .bind(now, businessId, limit)
    .all<{ id: string; business_id: string; queued_at: number; next_attempt_at: number }>();
  return results.map((row) => ({ deliveryId: row.id, businessId: row.business_id, queuedAt: row.queued_at, nextAttemptAt: row.next_attempt_at }));
}

/** Gives deliveries back to the outbox when sending them to the queue failed. */
export async function unqueueDeliveries({ businessId, db }: BusinessDb, deliveries: QueuedDelivery[]): Promise<void> {
  await db.batch(
    deliveries.map((delivery) =>
      db
        .prepare("UPDATE webhook_deliveries SET queued_at = NULL WHERE id = ? AND business_id = ? AND queued_at = ?")
        .bind(delivery.deliveryId, businessId, delivery.queuedAt),
    ),
  );
}

/**
 * The sweep's repair: a pending delivery queued long ago whose next attempt is
 * long overdue lost its message (dropped after max_retries, or never sent): back to the outbox.
 */
export async function requeueLostDeliveries({ businessId, db }: BusinessDb, overdueBefore: number, now: number): Promise<number> {
  const result = await db
    .prepare(
      `UPDATE webhook_deliveries SET queued_at = NULL
       WHERE business_id = ? AND status = 'pending' AND queued_at IS NOT NULL AND next_attempt_at < ? AND (lease_until IS NULL OR lease_until < ?)`,
    )
    .bind(businessId, overdueBefore, now)
    .run();
  return result.meta.changes;
}
