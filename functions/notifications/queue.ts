// The notifications queue (partners-portal-notifications, decision 053) between the fan-out and the sender: the
// fan-out hands over "this business has messages to send", and the consumer sends them. A refusal's retry, or an SMS
// held through the quiet hours, is the same message again, delayed until the delivery is due (the backoff lives in
// each delivery's next_attempt_at; the message only wakes the sender). The 5-minute cron sends whatever a lost message
// left. A message is one business: one that throws is retried alone and never holds back another's.
import * as v from "valibot";
import { errorText, logEvent } from "../plumbing/log";
import { businessDb } from "../tenancy/shards";
import type { BusinessDb } from "../tenancy/tenant";
import { nextDeliveryDue } from "./deliveries.db";
import { sendDueNotices, type SendRun, type SendSettings } from "./send";

export const NOTIFICATIONS_QUEUE = "partners-portal-notifications";
/** Cloudflare Queues delay a message by at most 12 hours. */
const MAX_DELAY_SECONDS = 43_200;

const MessageSchema = v.object({ businessId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)) });

/** Whether this deployment has the queue (every deployment does; a bare test Worker may not). */
export function hasNotificationsQueue(env: Env): boolean {
  return typeof (env as Partial<Env>).NOTIFICATIONS?.send === "function";
}

/** Wakes the sender for a business now, or when its next delivery is due. */
export async function queueSending(env: Env, businessId: string, dueAt: number | null = null, now: number = Date.now()): Promise<void> {
  const delaySeconds = dueAt === null ? 0 : Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((dueAt - now) / 1000)));
  await env.NOTIFICATIONS.send({ businessId }, delaySeconds > 0 ? { delaySeconds } : {});
}

/**
 * Sends what is due for one business, then, when this run put something off (a refusal to try again, an SMS for the
 * morning), wakes itself for when it is due. A run that found nothing of its own to put off wakes nobody, so however
 * many messages one business had, one chain of them is left while its deliveries keep failing.
 */
export async function sendAndRequeue(env: Env, business: BusinessDb, settings: SendSettings, now: number): Promise<SendRun> {
  const run = await sendDueNotices(business, settings, now);
  if (run.retrying + run.later > 0 && hasNotificationsQueue(env)) {
    const due = await nextDeliveryDue(business);
    if (due !== null) await queueSending(env, business.businessId, due, now);
  }
  return run;
}

export async function handleNotificationsBatch(batch: MessageBatch<unknown>, env: Env, settings: SendSettings, now: () => number = Date.now): Promise<void> {
  // Many changes of one business in a batch are one sending.
  const seen = new Set<string>();
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = v.safeParse(MessageSchema, message.body);
      if (!parsed.success) {
        logEvent("error", "notifications.bad_message", { id: message.id });
        message.ack();
        return;
      }
      const { businessId } = parsed.output;
      if (seen.has(businessId)) {
        message.ack();
        return;
      }
      seen.add(businessId);
      try {
        const business = await businessDb(env, businessId);
        if (business) await sendAndRequeue(env, business, settings, now());
        message.ack();
      } catch (error) {
        logEvent("error", "notifications.send_failed", { businessId, error: errorText(error) });
        message.retry({ delaySeconds: 60 });
      }
    }),
  );
}
