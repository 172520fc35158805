// The webhook endpoints a business keeps (migration 0011; docs/webhooks.md): what a person does to one takes the tenant
// first and is audited in the same batch. Only Administrators and Super Administrators see or change them (mayManage).
import { can } from "../permissions";
import { isWebhookEventType, type WebhookEventType } from "./types";
import { checkWebhookUrl, type WebhookEnvironment } from "./url-rules";
import { auditStatement } from "../audit/audit.db";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { DAY_MS } from "../plumbing/time";
import { CURRENT_API_VERSION } from "../partner-api/versions";

export type WebhookEndpointStatus = "enabled" | "disabled";

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
  /** The API version its deliveries' bodies are rendered in: the one current when it was made (migration 0037). */
  apiVersion: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpointInput {
  /** As typed: checked with checkWebhookUrl for the environment and stored normalised (a RuleError says why not). */
  url: string;
  description?: string;
  eventTypes: readonly WebhookEventType[];
}

const ENDPOINT_COLUMNS = `id, url, description, event_types, status, disabled_reason, disabled_at, previous_secret_expires_at, last_success_at, api_version, created_by, created_at, updated_at`;

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
  api_version: string;
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
    apiVersion: row.api_version,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function mayManage(tenant: Tenant): void {
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

/**
 * Makes an enabled endpoint with `secret` (functions/webhooks/signing.ts newWebhookSecret), its URL checked for
 * `environment`, pinned to the current API version (its deliveries' bodies are in that version's shapes); returns it.
 */
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
        `INSERT INTO webhook_endpoints (id, business_id, url, description, event_types, secret, status, enabled_at, api_version, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'enabled', ?, ?, ?, ?, ?)`,
      )
      .bind(id, tenant.businessId, url, description, eventTypes, secret, Date.parse(at), CURRENT_API_VERSION, tenant.userId, at, at),
    auditStatement(
      tenant,
      meta,
      {
        action: "webhook_endpoint.create",
        entity: "webhook_endpoint",
        entityId: id,
        after: { url, description, eventTypes: eventTypeList, apiVersion: CURRENT_API_VERSION },
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
