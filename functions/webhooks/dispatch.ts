// The outbox's second half: deliveries written in a batch (webhookEventStatements)
// are handed to the WEBHOOKS queue here, after that batch committed. Callers run
// dispatchPendingDeliveries right after (ctx.waitUntil); the 5-minute sweep runs it
// too, for whatever a caller missed (a crash between the batch and the queue).
import { claimUnqueuedDeliveries, requeueLostDeliveries, unqueueDeliveries, type QueuedDelivery } from "./outbox.db";
import { errorText, logEvent } from "../plumbing/log";
import type { BusinessDb } from "../tenancy/tenant";
import { everyBusinessDb } from "../tenancy/shards";

/** What a WEBHOOKS message carries. */
export interface WebhookQueueMessage {
  deliveryId: string;
  businessId: string;
  /** The outbox marker: a copy with another one is stale (the delivery was queued again since). */
  queuedAt: number;
}

/** Queues refuse longer delays (12 hours). */
const MAX_DELAY_SECONDS = 43_200;
const CLAIM_LIMIT = 100;
const MAX_ROUNDS = 20;

function delayOf(delivery: QueuedDelivery, now: number): number {
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((delivery.nextAttemptAt - now) / 1000)));
}

/** Sends not-yet-queued pending deliveries to the queue (of one business when given, else of every one); returns how many. */
export async function dispatchPendingDeliveries(env: Env, now: number = Date.now(), business?: BusinessDb): Promise<number> {
  let sent = 0;
  // A suspended business's deliveries wait (decision 039): queued again by the sweep once it is reactivated.
  for (const each of business ? [business] : await everyBusinessDb(env, { activeOnly: true })) sent += await dispatchBusiness(env, each, now);
  return sent;
}

async function dispatchBusiness(env: Env, business: BusinessDb, now: number): Promise<number> {
  let sent = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const claimed = await claimUnqueuedDeliveries(business, now, CLAIM_LIMIT);
    if (claimed.length === 0) break;
    try {
      await env.WEBHOOKS.sendBatch(
        claimed.map((delivery) => {
          const body: WebhookQueueMessage = { deliveryId: delivery.deliveryId, businessId: delivery.businessId, queuedAt: delivery.queuedAt };
          return { body, contentType: "json" as const, delaySeconds: delayOf(delivery, now) };
        }),
      );
    } catch (error) {
      logEvent("error", "webhooks.dispatch_failed", { count: claimed.length, error: errorText(error) });
      await unqueueDeliveries(business, claimed).catch((unqueueError: unknown) => {
        // They stay marked; the sweep finds them overdue and queues them again.
        logEvent("error", "webhooks.unqueue_failed", { error: errorText(unqueueError) });
      });
      break;
    }
    sent += claimed.length;
    if (claimed.length < CLAIM_LIMIT) break;
  }
  return sent;
}

/**
 * A reactivated business's deliveries (decision 039): those its suspension left queued (their messages were dropped
 * unsent) go back to the outbox and out now, not after the sweep's wait for lost ones. A message still in the queue
 * carries an older marker and is dropped by the consumer, so nothing is sent twice.
 */
export async function resumeDeliveries(env: Env, business: BusinessDb, now: number = Date.now()): Promise<number> {
  await requeueLostDeliveries(business, Number.MAX_SAFE_INTEGER, now);
  return dispatchPendingDeliveries(env, now, business);
}
