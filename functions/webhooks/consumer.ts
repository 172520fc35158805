// The WEBHOOKS queue consumer (partners-portal-webhooks). One message is one
// delivery (an event to an endpoint). Per message:
//   1. Stale or settled: a copy queued under an older outbox marker, or a delivery
//      no longer pending (delivered, failed, deleted with its endpoint) -> ack.
//   2. Early (a retry's time not yet come) -> retry with the time left.
//   3. Disabled endpoint -> the delivery is failed, nothing is sent -> ack.
//   4. Lease it (one sender at a time; a copy that finds it leased is dropped, the
//      sweep re-queues a delivery whose sender died), send once (delivery.ts), record.
//   5. 2xx -> delivered, ack. Otherwise the backoff (backoff.ts) says when to try
//      again -> message.retry({ delaySeconds }); or, past the window (counted from
//      when the portal made the delivery), the delivery is failed, and an endpoint
//      with no 2xx since then (every delivery failed for the whole window) is
//      disabled and its administrators get an SMS.
// Poison isolation: every message is handled on its own, so one that
// throws never holds back, retries or dead-letters the others of its batch. A
// message that throws is an attempt that failed on the portal's side: it is logged
// with the error (the delivery log shows it), retried on the delivery's own
// schedule, and at the end of its window marked failed with that error, instead of
// looping unseen. Such a failure is the portal's, so it never disables the endpoint.
import * as v from "valibot";
import { deliveryToPark, deliveryToSend, failDelivery, leaseDelivery, recordAttempt, type DeliveryToSend } from "./sending.db";
import type { FullConfig, WebhooksConfig } from "../env";
import { errorText, logEvent } from "../plumbing/log";
import { nextStep, webhookRetryDelaySeconds } from "./backoff";
import { sendOnce, type AttemptResult } from "./delivery";
import { disableAndTell } from "./notify";
import type { BusinessDb } from "../tenancy/tenant";
import { businessDb, databaseNamed } from "../tenancy/shards";
import { businessPlace } from "../tenancy/directory.db";

const MessageSchema = v.object({ deliveryId: v.string(), businessId: v.string(), queuedAt: v.number() });

/** A sender holds a delivery for the timeout and this much more. */
export const LEASE_MARGIN_MS = 30_000;
const MAX_DELAY_SECONDS = 43_200;

export async function handleWebhooksBatch(batch: MessageBatch<unknown>, env: Env, settings: FullConfig): Promise<void> {
  await Promise.all(
    batch.messages.map((message) => handleMessage(message, env, settings).catch((error: unknown) => parkOrRetry(message, env, settings.webhooks, error))),
  );
}

/** What the log says of a message the consumer could not process. */
export function crashText(error: unknown): string {
  return `The portal could not process this delivery: ${errorText(error)}`.slice(0, 1000);
}

/**
 * A message whose handling threw: recorded as a failed attempt with the error, then retried on the delivery's own
 * backoff or, past its window, failed for good (the log says why). When even that cannot be written (the database
 * itself failing), the queue retries this message alone, backing off by how often it came back.
 */
async function parkOrRetry(message: Message<unknown>, env: Env, config: WebhooksConfig, error: unknown): Promise<void> {
  const text = crashText(error);
  logEvent("error", "webhooks.consumer_crashed", { messageId: message.id, error: text });
  try {
    const { deliveryId, businessId, queuedAt } = v.parse(MessageSchema, message.body);
    const business = await businessDb(env, businessId);
    const delivery = business ? await deliveryToPark(business, deliveryId, queuedAt) : null;
    // Settled meanwhile, queued again under a newer marker, or its business gone: nothing of this copy to keep.
    if (!business || !delivery) return message.ack();
    const now = Date.now();
    const attempt = delivery.attempts + 1;
    const step = nextStep(attempt, delivery.createdAt, now, config);
    await recordAttempt(business, {
      deliveryId,
      endpointId: delivery.endpointId,
      eventId: delivery.eventId,
      attempt,
      at: now,
      responseStatus: null,
      latencyMs: null,
      responseBody: null,
      error: text,
      manual: false,
      outcome: step.retry ? { status: "pending", nextAttemptAt: step.at } : { status: "failed" },
    });
    if (!step.retry) {
      logEvent("error", "webhooks.delivery_parked", { deliveryId, attempts: attempt, error: text });
      return message.ack();
    }
    message.retry({ delaySeconds: step.delaySeconds });
  } catch (again: unknown) {
    logEvent("error", "webhooks.park_failed", { messageId: message.id, error: errorText(again) });
    message.retry({ delaySeconds: Math.min(MAX_DELAY_SECONDS, webhookRetryDelaySeconds(message.attempts, config)) });
  }
}

async function handleMessage(message: Message<unknown>, env: Env, settings: FullConfig): Promise<void> {
  const config = settings.webhooks;
  const parsed = v.safeParse(MessageSchema, message.body);
  if (!parsed.success) {
    logEvent("error", "webhooks.invalid_message", { messageId: message.id });
    return message.ack();
  }
  const { deliveryId, businessId, queuedAt } = parsed.output;
  const place = await businessPlace(env.DB, businessId);
  if (!place) return message.ack();
  // A suspended business's deliveries wait (decision 039): left queued, the sweep sends them again once it is reactivated.
  if (place.lifecycle === "suspended") {
    logEvent("info", "webhooks.business_suspended", { deliveryId, businessId });
    return message.ack();
  }
  const business: BusinessDb = { businessId, db: databaseNamed(env, place.shard) };
  const delivery = await deliveryToSend(business, deliveryId);
  if (!delivery || delivery.status !== "pending" || delivery.queuedAt !== queuedAt) return message.ack();
  const now = Date.now();
  if (delivery.nextAttemptAt > now + 1000) {
    return message.retry({ delaySeconds: Math.min(MAX_DELAY_SECONDS, Math.ceil((delivery.nextAttemptAt - now) / 1000)) });
  }
  if (delivery.endpointStatus !== "enabled") {
    await failDelivery(business, deliveryId, "Not sent: the endpoint is disabled.", now);
    return message.ack();
  }
  const leased = await leaseDelivery(business, { deliveryId, queuedAt, now, leaseUntil: now + config.timeoutMs + LEASE_MARGIN_MS });
  if (!leased) return message.ack();

  const result = await sendOnce(delivery, config);
  const attempt = delivery.attempts + 1;
  if (result.ok) {
    await record(business, delivery, attempt, result, { status: "delivered" });
    return message.ack();
  }
  const step = nextStep(attempt, delivery.createdAt, result.at, config);
  if (step.retry) {
    await record(business, delivery, attempt, result, { status: "pending", nextAttemptAt: step.at });
    logEvent("warn", "webhooks.attempt_failed", { deliveryId, attempt, error: result.error });
    return message.retry({ delaySeconds: step.delaySeconds });
  }
  await record(business, delivery, attempt, result, { status: "failed" });
  logEvent("warn", "webhooks.delivery_failed", { deliveryId, attempts: attempt, error: result.error });
  await disableAndTell(env, business, delivery, result.at, settings);
  message.ack();
}

function record(
  business: BusinessDb,
  delivery: DeliveryToSend,
  attempt: number,
  result: AttemptResult,
  outcome: Parameters<typeof recordAttempt>[1]["outcome"],
): Promise<void> {
  return recordAttempt(business, {
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    attempt,
    at: result.at,
    responseStatus: result.responseStatus,
    latencyMs: result.latencyMs,
    responseBody: result.responseBody,
    error: result.error,
    manual: false,
    outcome,
  });
}
