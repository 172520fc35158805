// Webhooks going out (migration 0011; docs/webhooks.md). What a person does to an
// endpoint takes the tenant first and is audited in the same batch; what the
// system does (emitting, queueing, sending, sweeping) takes the businessId first.
// The one cross-business read is the outbox's work list (claimUnqueuedDeliveries),
// like the payout run's duePayouts: the rows it returns carry their business_id,
// and everything done with them binds it.
import { can } from "../permissions";
import { WEBHOOK_TEST_EVENT_TYPE, isWebhookEventType, type WebhookEventType } from "./types";
import { checkWebhookUrl, type WebhookEnvironment } from "./url-rules";
import { auditStatement, ifChangedAuditStatement } from "../audit/audit.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type RequestMeta, type Tenant, type BusinessDb } from "../tenancy/tenant";
import { DAY_MS } from "../platform/time";

export type WebhookEndpointStatus = "enabled" | "disabled";
export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

/** An endpoint as screens show it: never its secret (see getWebhookSecret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  status: WebhookEndpointStatus;
  disabledReason: string | null;
  /** Epoch ms. */
  disabledAt: number | null;
  /** While a roll is under way, the previous secret still signs deliveries until this instant (epoch ms). */
  previousSecretExpiresAt: number | null;
  lastSuccessAt: number | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

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

export interface WebhookEndpointInput {
  /** As typed: checked with checkWebhookUrl for the environment and stored normalised (a RuleError says why not). */
  url: string;
  description?: string;
  eventTypes: readonly WebhookEventType[];
}

const ENDPOINT_COLUMNS = `id, url, description, event_types, status, disabled_reason, disabled_at, previous_secret_expires_at, last_success_at, created_by, created_at, updated_at`;

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  event_types: string;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  disabled_at: number | null;
  previous_secret_expires_at: number | null;
  last_success_at: number | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    lastSuccessAt: row.last_success_at,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function mayManage(tenant: Tenant): void {
  // The Developers tab: Administrators and Super Administrators.
  if (!can(tenant.role, "manage:developer")) throw new ForbiddenError("Your role cannot manage webhooks.");
}

/** The input as stored: the URL normalised, the types once each; a RuleError names the first problem. */
function checkInput(input: WebhookEndpointInput, environment: WebhookEnvironment): { url: string; description: string; eventTypes: WebhookEventType[] } {
  const verdict = checkWebhookUrl(input.url, environment);
  if (!verdict.ok) throw new RuleError(verdict.reason);
  const eventTypes = [...new Set(input.eventTypes)];
  if (eventTypes.length === 0) throw new RuleError("Choose at least one event type.");
  if (!eventTypes.every(isWebhookEventType)) throw new RuleError("Choose event types from the list.");
  const description = (input.description ?? "").trim();
  if (description.length > 500) throw new RuleError("Keep the description under 500 characters.");
  return { url: verdict.url, description, eventTypes };
}

// ---------------------------------------------------------------- endpoints (people)

export async function listWebhookEndpoints(tenant: Tenant): Promise<WebhookEndpoint[]> {
  const { db } = tenant;
  mayManage(tenant);
  const { results } = await db
    .prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE business_id = ? ORDER BY created_at, id`)
    .bind(tenant.businessId)
    .all<EndpointRow>();
  return results.map(toEndpoint);
}

/** null for an endpoint of another business (a 404 to the caller). */
export async function getWebhookEndpoint(tenant: Tenant, id: string): Promise<WebhookEndpoint | null> {
  const { db } = tenant;
  mayManage(tenant);
  const row = await db
    .prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND business_id = ?`)
    .bind(id, tenant.businessId)
    .first<EndpointRow>();
  return row ? toEndpoint(row) : null;
}

/** The signing secret (and the previous one while a roll is under way), for "Reveal secret". */
export async function getWebhookSecret(tenant: Tenant, id: string): Promise<{ secret: string; previousSecret: string | null } | null> {
  const { db } = tenant;
  mayManage(tenant);
  const row = await db
    .prepare("SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = ? AND business_id = ?")
    .bind(id, tenant.businessId)
    .first<{ secret: string; previous_secret: string | null; previous_secret_expires_at: number | null }>();
  if (!row) return null;
  const previousValid = row.previous_secret !== null && (row.previous_secret_expires_at ?? 0) > Date.now();
  return { secret: row.secret, previousSecret: previousValid ? row.previous_secret : null };
}

/** Makes an enabled endpoint with `secret` (functions/webhooks/signing.ts newWebhookSecret), its URL checked for `environment`; returns it. */
export async function createWebhookEndpoint(
  tenant: Tenant,
  meta: RequestMeta,
  input: WebhookEndpointInput,
  secret: string,
  environment: WebhookEnvironment,
): Promise<WebhookEndpoint> {
  const { db } = tenant;
  mayManage(tenant);
  const { url, description, eventTypes: eventTypeList } = checkInput(input, environment);
  const id = `we_${crypto.randomUUID().replaceAll("-", "")}`;
  const at = nowIso();
  const eventTypes = JSON.stringify(eventTypeList);
  await db.batch([
    db
      .prepare(
        `INSERT INTO webhook_endpoints (id, business_id, url, description, event_types, secret, status, enabled_at, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'enabled', ?, ?, ?, ?)`,
      )
      .bind(id, tenant.businessId, url, description, eventTypes, secret, Date.parse(at), tenant.userId, at, at),
    auditStatement(
      tenant,
      meta,
      {
        action: "webhook_endpoint.create",
        entity: "webhook_endpoint",
        entityId: id,
        after: { url, description, eventTypes: eventTypeList },
      },
      at,
    ),
  ]);
  return (await getWebhookEndpoint(tenant, id))!;
}

/** Changes the URL (checked for `environment`), description and event types. */
export async function updateWebhookEndpoint(
  tenant: Tenant,
  meta: RequestMeta,
  id: string,
  input: WebhookEndpointInput,
  environment: WebhookEnvironment,
): Promise<WebhookEndpoint> {
  const { db } = tenant;
  const before = await getWebhookEndpoint(tenant, id);
  if (!before) throw new NotFoundError("Webhook endpoint");
  const { url, description, eventTypes } = checkInput(input, environment);
  const at = nowIso();
  await db.batch([
    db
      .prepare("UPDATE webhook_endpoints SET url = ?, description = ?, event_types = ?, updated_at = ? WHERE id = ? AND business_id = ?")
      .bind(url, description, JSON.stringify(eventTypes), at, id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      {
        action: "webhook_endpoint.update",
        entity: "webhook_endpoint",
        entityId: id,
        before: { url: before.url, description: before.description, eventTypes: before.eventTypes },
        after: { url, description, eventTypes },
      },
      at,
    ),
  ]);
  return (await getWebhookEndpoint(tenant, id))!;
}

/** Enables (clearing the reason) or disables (by a person) an endpoint. */
export async function setWebhookEndpointEnabled(tenant: Tenant, meta: RequestMeta, id: string, enabled: boolean): Promise<WebhookEndpoint> {
  const { db } = tenant;
  const before = await getWebhookEndpoint(tenant, id);
  if (!before) throw new NotFoundError("Webhook endpoint");
  const at = nowIso();
  const reason = enabled ? null : "Disabled by an administrator.";
  await db.batch([
    // Enabling starts the endpoint afresh: deliveries made before it never count towards disabling it again.
    db
      .prepare(
        "UPDATE webhook_endpoints SET status = ?, disabled_reason = ?, disabled_at = ?, enabled_at = coalesce(?, enabled_at), updated_at = ? WHERE id = ? AND business_id = ?",
      )
      .bind(enabled ? "enabled" : "disabled", reason, enabled ? null : Date.parse(at), enabled ? Date.parse(at) : null, at, id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      {
        action: enabled ? "webhook_endpoint.enable" : "webhook_endpoint.disable",
        entity: "webhook_endpoint",
        entityId: id,
        before: { status: before.status, reason: before.disabledReason },
        after: { status: enabled ? "enabled" : "disabled", reason },
      },
      at,
    ),
  ]);
  return (await getWebhookEndpoint(tenant, id))!;
}

/** Deletes the endpoint with its deliveries and their log (the events stay). */
export async function deleteWebhookEndpoint(tenant: Tenant, meta: RequestMeta, id: string): Promise<void> {
  const { db } = tenant;
  const before = await getWebhookEndpoint(tenant, id);
  if (!before) throw new NotFoundError("Webhook endpoint");
  const at = nowIso();
  await db.batch([
    db.prepare("DELETE FROM webhook_attempts WHERE business_id = ? AND endpoint_id = ?").bind(tenant.businessId, id),
    db.prepare("DELETE FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ?").bind(tenant.businessId, id),
    db.prepare("DELETE FROM webhook_endpoints WHERE id = ? AND business_id = ?").bind(id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      { action: "webhook_endpoint.delete", entity: "webhook_endpoint", entityId: id, before: { url: before.url, eventTypes: before.eventTypes } },
      at,
    ),
  ]);
}

/** How long the previous secret keeps signing after a roll. */
export const SECRET_ROLL_OVERLAP_MS = DAY_MS;

/**
 * Rolls the secret to `secret`: the current one becomes the previous one and
 * still signs deliveries (a second v1=) for 24 hours. A roll during a roll drops the oldest.
 */
export async function rollWebhookSecret(tenant: Tenant, meta: RequestMeta, id: string, secret: string, now = Date.now()): Promise<void> {
  const { db } = tenant;
  const before = await getWebhookEndpoint(tenant, id);
  if (!before) throw new NotFoundError("Webhook endpoint");
  const at = new Date(now).toISOString();
  const expiresAt = now + SECRET_ROLL_OVERLAP_MS;
  await db.batch([
    db
      .prepare(
        "UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?, secret = ?, updated_at = ? WHERE id = ? AND business_id = ?",
      )
      .bind(expiresAt, secret, at, id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      {
        action: "webhook_endpoint.roll_secret",
        entity: "webhook_endpoint",
        entityId: id,
        after: { previousSecretExpiresAt: new Date(expiresAt).toISOString() },
      },
      at,
    ),
  ]);
}

// ---------------------------------------------------------------- the delivery log (people)

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

// The payment an event is about, where its data names one (payment.* carry the payment, refund.* and dispute.* name it).
const PAYMENT_REFERENCE = `coalesce(json_extract(e.payload, '$.reference'), json_extract(e.payload, '$.refund.paymentReference'),
  json_extract(e.payload, '$.dispute.payment_reference'))`;

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

// ---------------------------------------------------------------- emitting (the outbox)

export interface WebhookEventInput {
  /** Given: re-emitting the same id is a no-op (INSERT OR IGNORE). */
  id?: string;
  type: WebhookEventType;
  data: unknown;
  /** When what it describes happened (epoch ms); the envelope's `created`. Retries never count from it (see webhookEventStatements). */
  at: number;
}

export function newEventId(): string {
  return `evt_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Statements for the caller's D1 batch: each event, and one pending delivery per
 * enabled endpoint of the business subscribed to its type, written with the
 * change that caused them (or not at all). Nothing is written for an event no
 * endpoint wants. Two statements however many events (they travel as one JSON
 * parameter: the Partner API's consumer writes a thousand payments a batch).
 * An event id given by the caller makes a re-emission a no-op. After the batch
 * commits, the caller runs dispatchPendingDeliveries (functions/webhooks/dispatch.ts),
 * e.g. in ctx.waitUntil; the 5-minute cron sweeps what was missed.
 *
 * `at` is when what the event describes happened (a payment's occurred_at, perhaps days ago); `now` is when the
 * portal makes the event: its created_at and its deliveries', from which retries, the disabling rule and the
 * delivery log count.
 */
export function webhookEventStatements(
  { businessId, db }: BusinessDb,
  events: { id?: string; type: WebhookEventType; data: unknown; at: number }[],
  now: number = Date.now(),
): D1PreparedStatement[] {
  if (events.length === 0) return [];
  const json = JSON.stringify(events.map((e) => ({ id: e.id ?? newEventId(), type: e.type, payload: JSON.stringify(e.data ?? {}), at: e.at })));
  const subscribed = `e.business_id = ?1 AND e.status = 'enabled' AND EXISTS (SELECT 1 FROM json_each(e.event_types) WHERE value = j.value->>'type')`;
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO webhook_events (id, business_id, type, payload, happened_at, created_at)
         SELECT j.value->>'id', ?1, j.value->>'type', j.value->>'payload', j.value->>'at', ?3 FROM json_each(?2) j
         WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE ${subscribed})`,
      )
      .bind(businessId, json, now),
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
      .prepare("INSERT OR IGNORE INTO webhook_events (id, business_id, type, payload, happened_at, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(event.id, businessId, event.type, JSON.stringify(event.data ?? {}), event.at, event.at),
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

// ---------------------------------------------------------------- the outbox and the sender (system)

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
  payload: string;
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
  e.happened_at AS eventAt, e.payload, d.created_at AS createdAt, w.enabled_at AS endpointEnabledAt, d.status, d.attempts,
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

// ---------------------------------------------------------------- the 5-minute sweep (system)

export interface SilentTerminal {
  id: string;
  serial: string;
  merchantId: string | null;
  pointOfSaleId: string | null;
  lastSeenAt: number | null;
}

/** Terminals in service, silent since before `silentBefore`, not yet announced for this silence. */
export async function silentTerminalsToAnnounce({ businessId, db }: BusinessDb, silentBefore: number, limit: number): Promise<SilentTerminal[]> {
  const { results } = await db
    .prepare(
      `SELECT id, serial, merchant_id AS merchantId, point_of_sale_id AS pointOfSaleId, last_seen_at AS lastSeenAt FROM terminals
       WHERE business_id = ? AND status IN ('assigned', 'active') AND (last_seen_at IS NULL OR last_seen_at < ?)
         AND (silent_announced_seen_at IS NULL OR silent_announced_seen_at <> coalesce(last_seen_at, -1))
       ORDER BY serial LIMIT ?`,
    )
    .bind(businessId, silentBefore, limit)
    .all<SilentTerminal>();
  return results;
}

/** For the batch that emits terminal.silent: this silence (its last_seen_at) is announced. */
export function markSilentAnnouncedStatement({ businessId, db }: BusinessDb, terminal: SilentTerminal): D1PreparedStatement {
  return db
    .prepare("UPDATE terminals SET silent_announced_seen_at = ? WHERE id = ? AND business_id = ?")
    .bind(terminal.lastSeenAt ?? -1, terminal.id, businessId);
}
