// Sending what the fan-out wrote (decision 053): each due delivery is claimed, paced (pacing.ts: SMS waits out the
// quiet hours, what is over a person's hourly cap is folded into their digest), rendered and handed to its channel's
// port; a refusal is tried again on the webhooks' backoff (a minute, doubling to an hour, for a day) or given up at
// once when the address itself was refused. A provider down delays messages and never the change that caused them:
// this runs after the response (ctx.waitUntil), from the notifications queue and on the 5-minute cron, never inside
// an action.
import { nextStep, type BackoffSettings } from "../webhooks/backoff";
import type { BusinessDb } from "../tenancy/tenant";
import { logEvent } from "../plumbing/log";
import { SmsDeliveryError, type SmsPort } from "../sms/port";
import { claimDueDeliveries, recordDeliveryOutcomes, sentInLastHour, type DeliveryOutcome, type DueDelivery } from "./deliveries.db";
import { EmailDeliveryError, type EmailPort } from "./email";
import { noticeEmailMessage } from "./email-message";
import { openNoticePath, unsubscribePath, unsubscribeToken } from "./links";
import { isAlwaysSent, type NotificationChannel } from "./kinds";
import { paceSends } from "./pacing";

export const EMAIL_BACKOFF: BackoffSettings = { retryBaseSeconds: 60, retryMaxSeconds: 3600, retryWindowSeconds: 24 * 3600 };
/** An SMS says its title and as much of its body as keeps it to two text messages. */
export const SMS_MAX_CHARACTERS = 300;

export interface SendSettings {
  /** Null when email is not set up (the job names the setting); email deliveries wait for it. */
  email: EmailPort | null;
  /** Null when no SMS provider is set up; SMS deliveries wait for one. */
  sms: SmsPort | null;
  /** The portal's origin, which an email's links start with. */
  portalUrl: string;
  /** The unsubscribe links' key (functions/notifications/links.ts). */
  linkSecret: string;
}

export interface SendRun {
  sent: number;
  retrying: number;
  dead: number;
  /** Held back by the hourly cap, for the digest. */
  folded: number;
  /** SMS put off to the end of the quiet hours. */
  later: number;
}

/** A notice as a text message: no link (people are taught never to follow one in an SMS about money). */
export function noticeSms(delivery: Pick<DueDelivery, "businessName" | "title" | "body" | "test">): string {
  const text = `${delivery.test ? "[Test] " : ""}Partners Portal, ${delivery.businessName}: ${delivery.title}. ${delivery.body}`;
  return text.length <= SMS_MAX_CHARACTERS ? text : `${text.slice(0, SMS_MAX_CHARACTERS - 1).trimEnd()}…`;
}

async function sendOne(business: BusinessDb, settings: SendSettings, delivery: DueDelivery): Promise<void> {
  if (delivery.channel === "sms") {
    await settings.sms!.send({ to: delivery.address, body: noticeSms(delivery) });
    return;
  }
  const unsubscribe = isAlwaysSent(delivery.kind)
    ? null
    : `${settings.portalUrl}${unsubscribePath(
        await unsubscribeToken(settings.linkSecret, { businessId: business.businessId, userId: delivery.userId, kind: delivery.kind, channel: "email" }),
      )}`;
  await settings.email!.send(
    noticeEmailMessage({
      to: delivery.address,
      businessName: delivery.businessName,
      kind: delivery.kind,
      title: delivery.title,
      body: delivery.body,
      openUrl: `${settings.portalUrl}${openNoticePath(delivery.notificationId)}`,
      unsubscribeUrl: unsubscribe,
      preferencesUrl: `${settings.portalUrl}/settings#notifications`,
      test: delivery.test,
      deliveryId: delivery.id,
    }),
  );
}

/** Whether a refusal was of the address itself (no use trying it again), and its words without the address. */
function refusalOf(error: unknown): { address: boolean; message: string; reason: string } {
  if (error instanceof EmailDeliveryError) return { address: error.reason === "address", message: error.message, reason: error.reason };
  if (error instanceof SmsDeliveryError) return { address: error.reason === "number", message: error.message, reason: error.reason };
  return { address: false, message: String(error), reason: "unavailable" };
}

/** One run of sending for a business: what was sent, is to be tried again, was given up and was folded. */
export async function sendDueNotices(business: BusinessDb, settings: SendSettings, now: number = Date.now()): Promise<SendRun> {
  const channels: NotificationChannel[] = [...(settings.email ? ["email" as const] : []), ...(settings.sms ? ["sms" as const] : [])];
  const due = await claimDueDeliveries(business, now, channels);
  if (due.length === 0) return { sent: 0, retrying: 0, dead: 0, folded: 0, later: 0 };
  const paces = paceSends(
    due.map((delivery) => ({
      id: delivery.id,
      userId: delivery.userId,
      channel: delivery.channel,
      urgent: isAlwaysSent(delivery.kind) || delivery.kind === "digest",
    })),
    await sentInLastHour(
      business,
      due.map((delivery) => delivery.userId),
      now,
    ),
    now,
  );
  const outcomes: DeliveryOutcome[] = [];
  for (const [i, delivery] of due.entries()) {
    const pace = paces[i]!;
    if (pace.step === "later") {
      outcomes.push({ id: delivery.id, sent: false, later: pace.at });
      continue;
    }
    if (pace.step === "fold") {
      outcomes.push({ id: delivery.id, sent: false, folded: true });
      continue;
    }
    try {
      await sendOne(business, settings, delivery);
      outcomes.push({ id: delivery.id, sent: true });
    } catch (error) {
      const refusal = refusalOf(error);
      const step = refusal.address ? { retry: false as const } : nextStep(delivery.attempt, Date.parse(delivery.createdAt), now, EMAIL_BACKOFF);
      outcomes.push({ id: delivery.id, sent: false, error: refusal.message, retryAt: step.retry ? step.at : null });
      logEvent("warn", "notification.refused", {
        businessId: business.businessId,
        delivery: delivery.id,
        channel: delivery.channel,
        reason: refusal.reason,
        error: refusal.message,
      });
    }
  }
  await recordDeliveryOutcomes(business, outcomes, now);
  const failed = outcomes.filter((o): o is Extract<DeliveryOutcome, { retryAt: number | null }> => "retryAt" in o);
  return {
    sent: outcomes.filter((o) => o.sent).length,
    retrying: failed.filter((o) => o.retryAt !== null).length,
    dead: failed.filter((o) => o.retryAt === null).length,
    folded: outcomes.filter((o) => "folded" in o).length,
    later: outcomes.filter((o) => "later" in o).length,
  };
}
