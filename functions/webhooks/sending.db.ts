// What the sender reads and writes for one delivery (consumer.ts, manual.ts, notify.ts): the delivery with its endpoint
// and event, the lease that keeps one sender at a time, the attempt and its outcome, and the endpoint disabled when
// every delivery failed for the window. The system's doing, so the businessId comes first.
import type { WebhookEndpointStatus } from "./endpoints.db";
import type { WebhookDeliveryStatus } from "./delivery-log.db";
import { ifChangedAuditStatement } from "../audit/audit.db";
import type { BusinessDb } from "../tenancy/tenant";

export interface DeliveryToSend {
  id: string;
  businessId: string;
  endpointId: string;
  url: string;
  endpointStatus: WebhookEndpointStatus;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  eventId: string;
  eventType: string;
  /** When what the event describes happened: the envelope's `created`. */
  eventAt: number;
  /** The event's data as stored, in the shape of payloadVersion, with its extra facts (./event-versions.ts). */
  payload: string;
  payloadVersion: string;
  payloadExtra: string | null;
  /** The version the endpoint is pinned to: the body is rendered in it. */
  endpointVersion: string;
  /** When the portal made the delivery (epoch ms): the retry window and the disabling rule count from it. */
  createdAt: number;
  /** When the endpoint was made or last enabled (epoch ms); null only for rows older than migration 0026's backfill. */
  endpointEnabledAt: number | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  queuedAt: number | null;
  leaseUntil: number | null;
}

const TO_SEND = `SELECT d.id, d.business_id AS businessId, d.endpoint_id AS endpointId, w.url, w.status AS endpointStatus, w.secret,
  w.previous_secret AS previousSecret, w.previous_secret_expires_at AS previousSecretExpiresAt, d.event_id AS eventId, e.type AS eventType,
  e.happened_at AS eventAt, e.payload, e.payload_version AS payloadVersion, e.payload_extra AS payloadExtra, w.api_version AS endpointVersion, d.created_at AS createdAt, w.enabled_at AS endpointEnabledAt, d.status, d.attempts,
  d.next_attempt_at AS nextAttemptAt, d.queued_at AS queuedAt, d.lease_until AS leaseUntil
  FROM webhook_deliveries d
  JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.business_id = d.business_id
  JOIN webhook_events e ON e.id = d.event_id AND e.business_id = d.business_id`;

export async function deliveryToSend({ businessId, db }: BusinessDb, deliveryId: string): Promise<DeliveryToSend | null> {
  return db.prepare(`${TO_SEND} WHERE d.id = ? AND d.business_id = ?`).bind(deliveryId, businessId).first<DeliveryToSend>();
}

/**
 * Holds a pending delivery until `leaseUntil` so one sender sends it at a time; only
 * the copy queued under `queuedAt` may (null: a person's "Send again", whatever the delivery's status).
 */
export async function leaseDelivery(
  { businessId, db }: BusinessDb,
  lease: { deliveryId: string; queuedAt: number | null; now: number; leaseUntil: number },
): Promise<boolean> {
  const condition = lease.queuedAt === null ? "1 = 1" : "status = 'pending' AND queued_at = ?";
  const row = await db
    .prepare(
      `UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND business_id = ? AND ${condition} AND (lease_until IS NULL OR lease_until < ?) RETURNING id`,
    )
    .bind(lease.leaseUntil, lease.deliveryId, businessId, ...(lease.queuedAt === null ? [] : [lease.queuedAt]), lease.now)
    .first<{ id: string }>();
  return row !== null;
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  at: number;
  responseStatus: number | null;
  latencyMs: number | null;
  responseBody: string | null;
  error: string | null;
  manual: boolean;
  /** What the delivery becomes: delivered, pending until nextAttemptAt, failed; "unchanged" keeps its status (a failed manual attempt). */
  outcome: { status: "delivered" } | { status: "pending"; nextAttemptAt: number } | { status: "failed" } | { status: "unchanged" };
}

/** The attempt, the delivery's new state and (on a 2xx) the endpoint's last success, in one batch; the lease is released. */
export async function recordAttempt({ businessId, db }: BusinessDb, record: AttemptRecord): Promise<void> {
  const statements = [
    db
      .prepare(
        `INSERT INTO webhook_attempts (business_id, delivery_id, endpoint_id, event_id, attempt, at, response_status, latency_ms, response_body, error, manual)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        businessId,
        record.deliveryId,
        record.endpointId,
        record.eventId,
        record.attempt,
        record.at,
        record.responseStatus,
        record.latencyMs,
        record.responseBody,
        record.error,
        record.manual ? 1 : 0,
      ),
  ];
  const { outcome } = record;
  const status = outcome.status === "unchanged" ? null : outcome.status;
  const nextAttemptAt = outcome.status === "pending" ? outcome.nextAttemptAt : null;
  statements.push(
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = coalesce(?, status), attempts = attempts + 1, next_attempt_at = coalesce(?, next_attempt_at),
           last_status = ?, last_error = ?, lease_until = NULL, updated_at = ? WHERE id = ? AND business_id = ?`,
      )
      .bind(status, nextAttemptAt, record.responseStatus, record.error, record.at, record.deliveryId, businessId),
  );
  if (outcome.status === "delivered") {
    statements.push(
      db
        .prepare("UPDATE webhook_endpoints SET last_success_at = max(coalesce(last_success_at, 0), ?) WHERE id = ? AND business_id = ?")
        .bind(record.at, record.endpointId, businessId),
    );
  }
  await db.batch(statements);
}

/**
 * What the consumer needs to record a message it could not process: the delivery as stored, read without its
 * event or endpoint (either may be what made it fail). Only the copy queued under `queuedAt`, and only while pending.
 */
export async function deliveryToPark(
  { businessId, db }: BusinessDb,
  deliveryId: string,
  queuedAt: number,
): Promise<{ id: string; endpointId: string; eventId: string; attempts: number; createdAt: number } | null> {
  return db
    .prepare(
      `SELECT id, endpoint_id AS endpointId, event_id AS eventId, attempts, created_at AS createdAt FROM webhook_deliveries
       WHERE id = ? AND business_id = ? AND status = 'pending' AND queued_at = ?`,
    )
    .bind(deliveryId, businessId, queuedAt)
    .first();
}

/** A delivery that will not be sent (its endpoint is disabled): failed, with why. */
export async function failDelivery({ businessId, db }: BusinessDb, deliveryId: string, error: string, now: number): Promise<void> {
  await db
    .prepare(
      "UPDATE webhook_deliveries SET status = 'failed', last_error = ?, lease_until = NULL, updated_at = ? WHERE id = ? AND business_id = ? AND status = 'pending'",
    )
    .bind(error, now, deliveryId, businessId)
    .run();
}

/**
 * Disables an enabled endpoint that has not answered 2xx since `failingSince` (when the portal made the finally
 * failed delivery: every delivery failed for the whole window) and was already enabled then: an endpoint is never
 * disabled for failing longer than it has existed, nor by a delivery made before it was enabled again. Audited as
 * the system's doing (only when it changed). True when this call disabled it.
 */
export async function disableFailingEndpoint(
  { businessId, db }: BusinessDb,
  endpoint: { id: string; failingSince: number; reason: string; now: number },
): Promise<boolean> {
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ?
         WHERE id = ? AND business_id = ? AND status = 'enabled' AND coalesce(last_success_at, 0) < ?6 AND coalesce(enabled_at, 0) <= ?6`,
      )
      .bind(endpoint.reason, endpoint.now, new Date(endpoint.now).toISOString(), endpoint.id, businessId, endpoint.failingSince),
    ifChangedAuditStatement(
      { userId: null, businessId },
      db,
      { ip: null, userAgent: "webhooks", requestId: null },
      { action: "webhook_endpoint.auto_disable", entity: "webhook_endpoint", entityId: endpoint.id, after: { status: "disabled", reason: endpoint.reason } },
      new Date(endpoint.now).toISOString(),
    ),
  ]);
  return (update?.meta.changes ?? 0) > 0;
}

/** One number per active Administrator and Super Administrator of the business (their first linked phone). */
export async function administratorPhones({ businessId, db }: BusinessDb): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT min(p.msisdn) AS msisdn FROM memberships m JOIN users u ON u.id = m.user_id JOIN user_phones p ON p.user_id = m.user_id
       WHERE m.business_id = ? AND m.status = 'active' AND u.status = 'active' AND m.role IN ('Administrator', 'Super Administrator')
       GROUP BY m.user_id ORDER BY m.user_id`,
    )
    .bind(businessId)
    .all<{ msisdn: string }>();
  return results.map((row) => row.msisdn);
}
