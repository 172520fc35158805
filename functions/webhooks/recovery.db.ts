// "Send again every failed delivery since …" for one endpoint (decision 044): after a receiver was down long enough for its
// deliveries to fail for good, its owner brings them back in one step instead of pressing "Send again" on each. Each
// failed delivery made since the instant becomes pending again with a fresh retry window (its created_at moves to now,
// so the backoff and the disabling rule count from the resend, not from the first failure) and is queued by the next
// dispatch; the attempt log keeps every earlier attempt. At most RESEND_FAILED_LIMIT a time, oldest first, so one
// request never rewrites an unbounded number of rows; the answer says whether more are left.
import { signInAuditStatement } from "../audit/audit.db";
import { NotFoundError, RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { getWebhookEndpoint, mayManage } from "./endpoints.db";

export const RESEND_FAILED_LIMIT = 1000;

export interface ResendFailedResult {
  queued: number;
  /** More failed deliveries since the instant are left: run it again. */
  more: boolean;
}

export async function resendFailedDeliveries(tenant: Tenant, meta: RequestMeta, endpointId: string, since: number, now: number): Promise<ResendFailedResult> {
  mayManage(tenant);
  const endpoint = await getWebhookEndpoint(tenant, endpointId);
  if (!endpoint) throw new NotFoundError("Webhook endpoint");
  if (endpoint.status !== "enabled") throw new RuleError("Enable the endpoint before sending to it.");
  if (since > now) throw new RuleError("Choose a time in the past.");
  const { db, businessId } = tenant;
  const at = nowIso();
  const failedSince = `SELECT id FROM webhook_deliveries WHERE business_id = ?1 AND endpoint_id = ?2 AND status = 'failed' AND created_at >= ?3`;
  const [updated] = await db.batch<{ id: string }>([
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?4, queued_at = NULL, lease_until = NULL, created_at = ?4, updated_at = ?4
         WHERE business_id = ?1 AND id IN (${failedSince} ORDER BY created_at, id LIMIT ?5) RETURNING id`,
      )
      .bind(businessId, endpointId, since, now, RESEND_FAILED_LIMIT),
    // A person from the delivery log, or no one (the Partner API: the request id ties it to the key's request).
    signInAuditStatement(
      { userId: tenant.userId || null, businessId },
      db,
      meta,
      { action: "webhook_endpoint.resend_failed", entity: "webhook_endpoint", entityId: endpointId, after: { since: new Date(since).toISOString() } },
      at,
    ),
  ]);
  const queued = updated?.results.length ?? 0;
  const left = await db.prepare(`SELECT EXISTS (${failedSince}) AS more`).bind(businessId, endpointId, since).first<{ more: number }>();
  return { queued, more: left?.more === 1 };
}
