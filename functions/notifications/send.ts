// Sending what the fan-out wrote (decision 053): each due delivery is claimed, rendered and handed to the email port;
// a refusal is tried again on the webhooks' backoff (a minute, doubling to an hour, for a day) or given up at once when
// the address itself was refused. A provider down delays emails and never the change that caused them: this runs
// after the response (ctx.waitUntil) and on the 5-minute cron, never inside an action.
import { nextStep, type BackoffSettings } from "../webhooks/backoff";
import type { BusinessDb } from "../tenancy/tenant";
import { logEvent } from "../plumbing/log";
import { claimDueDeliveries, recordDeliveryOutcomes, type DeliveryOutcome } from "./deliveries.db";
import { EmailDeliveryError, type EmailPort } from "./email";
import { noticeEmailMessage } from "./email-message";
import { openNoticePath, unsubscribePath, unsubscribeToken } from "./links";
import type { NotificationChannel } from "./kinds";

export const EMAIL_BACKOFF: BackoffSettings = { retryBaseSeconds: 60, retryMaxSeconds: 3600, retryWindowSeconds: 24 * 3600 };

export interface SendSettings {
  port: EmailPort;
  /** The portal's origin, which an email's links start with. */
  portalUrl: string;
  /** The unsubscribe links' key (functions/notifications/links.ts). */
  linkSecret: string;
}

export interface SendRun {
  sent: number;
  retrying: number;
  dead: number;
}

/** One run of sending for a business: what was sent, is to be tried again, and was given up. */
export async function sendDueNotices(business: BusinessDb, settings: SendSettings, now: number = Date.now()): Promise<SendRun> {
  const due = await claimDueDeliveries(business, now);
  const outcomes: DeliveryOutcome[] = [];
  for (const delivery of due) {
    const token = await unsubscribeToken(settings.linkSecret, {
      businessId: business.businessId,
      userId: delivery.userId,
      kind: delivery.kind,
      channel: delivery.channel as NotificationChannel,
    });
    const message = noticeEmailMessage({
      to: delivery.address,
      businessName: delivery.businessName,
      kind: delivery.kind,
      title: delivery.title,
      body: delivery.body,
      openUrl: `${settings.portalUrl}${openNoticePath(delivery.notificationId)}`,
      unsubscribeUrl: `${settings.portalUrl}${unsubscribePath(token)}`,
      preferencesUrl: `${settings.portalUrl}/settings#notifications`,
      test: delivery.test,
      deliveryId: delivery.id,
    });
    try {
      await settings.port.send(message);
      outcomes.push({ id: delivery.id, sent: true });
    } catch (error) {
      const refusal = error instanceof EmailDeliveryError ? error : new EmailDeliveryError(String(error), "unavailable");
      const step = refusal.reason === "address" ? { retry: false as const } : nextStep(delivery.attempt, Date.parse(delivery.createdAt), now, EMAIL_BACKOFF);
      outcomes.push({ id: delivery.id, sent: false, error: refusal.message, retryAt: step.retry ? step.at : null });
      logEvent("warn", "notification.email_refused", {
        businessId: business.businessId,
        delivery: delivery.id,
        reason: refusal.reason,
        error: refusal.message,
      });
    }
  }
  await recordDeliveryOutcomes(business, outcomes, now);
  return {
    sent: outcomes.filter((o) => o.sent).length,
    retrying: outcomes.filter((o) => !o.sent && o.retryAt !== null).length,
    dead: outcomes.filter((o) => !o.sent && o.retryAt === null).length,
  };
}
