// The delivery log people read on an endpoint's page (Settings > Developers): its deliveries, newest first, each with
// its attempts. Tenant first, like every read a person makes.
import { mayManage } from "./endpoints.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb, Tenant } from "../tenancy/tenant";

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

export interface WebhookAttempt {
  id: number;
  attempt: number;
  /** Epoch ms. */
  at: number;
  /** null: no answer (or not sent, see error). */
  responseStatus: number | null;
  latencyMs: number | null;
  /** The first 1 KB of the answer. */
  responseBody: string | null;
  error: string | null;
  /** A person pressed "Send again" (or sent a test event). */
  manual: boolean;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** When what the event describes happened (epoch ms): a payment's occurred_at, the envelope's `created`. */
  eventAt: number;
  /** The payment the event is about (payment.*, refund.*, dispute.*), as the business knows it; null for the others. */
  paymentReference: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  /** When the portal made the delivery (with its event): the log's order, where retries and the disabling rule count from. */
  createdAt: number;
  updatedAt: number;
}

export interface WebhookDeliveryWithAttempts extends WebhookDelivery {
  /** Oldest first. */
  attemptLog: WebhookAttempt[];
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  event_at: number;
  payment_reference: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

interface AttemptRow {
  id: number;
  delivery_id: string;
  attempt: number;
  at: number;
  response_status: number | null;
  latency_ms: number | null;
  response_body: string | null;
  error: string | null;
  manual: number;
}

// The payment an event is about, where its data names one (payment.* carry the payment, refund.* and dispute.* name it:
// as payment_reference from 2026-12-01, in the shapes of 2026-11-27 for events stored before migration 0037).
const PAYMENT_REFERENCE = `coalesce(json_extract(e.payload, '$.reference'), json_extract(e.payload, '$.payment_reference'),
  json_extract(e.payload, '$.refund.paymentReference'), json_extract(e.payload, '$.dispute.payment_reference'))`;

const DELIVERY_SELECT = `SELECT d.id, d.endpoint_id, d.event_id, e.type AS event_type, e.happened_at AS event_at,
  CASE WHEN substr(e.type, 1, instr(e.type, '.') - 1) IN ('payment', 'refund', 'dispute') THEN ${PAYMENT_REFERENCE} END AS payment_reference,
  d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.created_at, d.updated_at
  FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id AND e.business_id = d.business_id`;

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    eventAt: row.event_at,
    paymentReference: typeof row.payment_reference === "string" ? row.payment_reference : null,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    attempt: row.attempt,
    at: row.at,
    responseStatus: row.response_status,
    latencyMs: row.latency_ms,
    responseBody: row.response_body,
    error: row.error,
    manual: row.manual === 1,
  };
}

/** An endpoint's deliveries, the newest the portal made first (keyset on created_at, id), each with its attempts. */
export async function listWebhookDeliveries(tenant: Tenant, endpointId: string, query: PageQuery = {}): Promise<Page<WebhookDeliveryWithAttempts>> {
  const { db } = tenant;
  mayManage(tenant);
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const where = ["d.business_id = ?", "d.endpoint_id = ?"];
  const binds: unknown[] = [tenant.businessId, endpointId];
  if (after) {
    where.push("(d.created_at < ? OR (d.created_at = ? AND d.id < ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(`${DELIVERY_SELECT} WHERE ${where.join(" AND ")} ORDER BY d.created_at DESC, d.id DESC LIMIT ?`)
    .bind(...binds, size + 1)
    .all<DeliveryRow>();
  const page = toPage(results.map(toDelivery), size, (row) => [row.createdAt, row.id]);
  const attempts = await attemptsOf(
    tenant,
    page.rows.map((row) => row.id),
  );
  return { ...page, rows: page.rows.map((row) => ({ ...row, attemptLog: attempts.get(row.id) ?? [] })) };
}

/** One delivery of the tenant's business with its attempts; null when there is none. */
export async function getWebhookDelivery(tenant: Tenant, deliveryId: string): Promise<WebhookDeliveryWithAttempts | null> {
  const { db } = tenant;
  mayManage(tenant);
  const row = await db.prepare(`${DELIVERY_SELECT} WHERE d.id = ? AND d.business_id = ?`).bind(deliveryId, tenant.businessId).first<DeliveryRow>();
  if (!row) return null;
  const attempts = await attemptsOf(tenant, [row.id]);
  return { ...toDelivery(row), attemptLog: attempts.get(row.id) ?? [] };
}

async function attemptsOf({ businessId, db }: BusinessDb, deliveryIds: string[]): Promise<Map<string, WebhookAttempt[]>> {
  const byDelivery = new Map<string, WebhookAttempt[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const { results } = await db
    .prepare(
      `SELECT id, delivery_id, attempt, at, response_status, latency_ms, response_body, error, manual FROM webhook_attempts
       WHERE business_id = ? AND delivery_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    )
    .bind(businessId, JSON.stringify(deliveryIds))
    .all<AttemptRow>();
  for (const row of results) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push(toAttempt(row));
    byDelivery.set(row.delivery_id, list);
  }
  return byDelivery;
}
