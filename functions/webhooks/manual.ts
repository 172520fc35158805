// What a person does from an endpoint's log (Settings > Developers): "Send again"
// (one attempt of a delivery now, whatever its status, logged as manual) and
// "Send a test event" (a webhook.test event to this endpoint only, sent at once and
// never retried: the person sees the answer). Neither goes through the queue, so
// neither changes a pending delivery's retry schedule; a 2xx marks the delivery delivered.
import { createTestDelivery } from "./outbox.db";
import { deliveryToSend, leaseDelivery, recordAttempt } from "./sending.db";
import { getWebhookDelivery, type WebhookAttempt } from "./delivery-log.db";
import { NotFoundError, RuleError, type Tenant } from "../tenancy/tenant";
import type { WebhooksConfig } from "../env";
import { LEASE_MARGIN_MS } from "./consumer";
import { sendOnce } from "./delivery";

export interface ManualSendResult {
  deliveryId: string;
  eventId: string;
  delivered: boolean;
  attempt: WebhookAttempt;
}

async function attemptNow(tenant: Tenant, config: WebhooksConfig, deliveryId: string, kind: "again" | "test"): Promise<ManualSendResult> {
  const delivery = await deliveryToSend(tenant, deliveryId);
  if (!delivery) throw new NotFoundError("Delivery");
  if (delivery.endpointStatus !== "enabled") throw new RuleError("Enable the endpoint before sending to it.");
  const now = Date.now();
  if (!(await leaseDelivery(tenant, { deliveryId, queuedAt: null, now, leaseUntil: now + config.timeoutMs + LEASE_MARGIN_MS }))) {
    throw new RuleError("This delivery is being sent right now. Try again in a minute.");
  }
  const result = await sendOnce(delivery, config);
  const attempt = delivery.attempts + 1;
  await recordAttempt(tenant, {
    deliveryId,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    attempt,
    at: result.at,
    responseStatus: result.responseStatus,
    latencyMs: result.latencyMs,
    responseBody: result.responseBody,
    error: result.error,
    manual: true,
    outcome: result.ok ? { status: "delivered" } : kind === "test" ? { status: "failed" } : { status: "unchanged" },
  });
  const logged = (await getWebhookDelivery(tenant, deliveryId))?.attemptLog.at(-1);
  return { deliveryId, eventId: delivery.eventId, delivered: result.ok, attempt: logged! };
}

/** "Send again": one attempt of the tenant's delivery now. */
export async function resendWebhookDelivery(tenant: Tenant, config: WebhooksConfig, deliveryId: string): Promise<ManualSendResult> {
  if (!(await getWebhookDelivery(tenant, deliveryId))) throw new NotFoundError("Delivery");
  return attemptNow(tenant, config, deliveryId, "again");
}

/** "Send a test event" to one enabled endpoint of the tenant's business, now. */
export async function sendWebhookTestEvent(tenant: Tenant, config: WebhooksConfig, endpointId: string): Promise<ManualSendResult> {
  const { deliveryId } = await createTestDelivery(tenant, endpointId, Date.now());
  return attemptNow(tenant, config, deliveryId, "test");
}
