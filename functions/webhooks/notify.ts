// An endpoint that keeps failing is disabled and its business's administrators are
// told. The rule (docs/webhooks.md): when a delivery is finally failed (still
// failing at the end of its 24-hour window) and the endpoint has answered no
// attempt with a 2xx since the portal made that delivery, and was already enabled
// then, every delivery to it has failed for 24 hours: it is disabled, with the
// reason shown on the endpoint, and an SMS goes to each active Administrator and
// Super Administrator. The window counts from the portal's own time, never from the
// time the event describes, so a late payment cannot make a young endpoint look old.
import { administratorPhones, disableFailingEndpoint, type DeliveryToSend } from "./sending.db";
import type { FullConfig, WebhooksConfig } from "../env";
import { smsPortFor } from "../sms/sms";
import type { BusinessDb } from "../tenancy/tenant";
import { errorText, logEvent } from "../plumbing/log";

export function disabledReason(config: Pick<WebhooksConfig, "retryWindowSeconds">): string {
  const hours = config.retryWindowSeconds / 3600;
  const span = hours >= 1 && Number.isInteger(hours) ? `${hours} hour${hours === 1 ? "" : "s"}` : `${config.retryWindowSeconds} seconds`;
  return `Disabled automatically: every delivery failed for ${span}.`;
}

export async function disableAndTell(env: Env, business: BusinessDb, delivery: DeliveryToSend, now: number, settings: FullConfig): Promise<boolean> {
  const reason = disabledReason(settings.webhooks);
  const disabled = await disableFailingEndpoint(business, { id: delivery.endpointId, failingSince: delivery.createdAt, reason, now });
  if (!disabled) return false;
  logEvent("warn", "webhooks.endpoint_disabled", { businessId: delivery.businessId, endpointId: delivery.endpointId });
  try {
    const port = smsPortFor(settings.auth, env.DB);
    if (!port) return true;
    const body = `Partners Portal: the webhook endpoint ${delivery.url} was disabled because every delivery failed for ${reason.replace(/^.* for /, "").replace(/\.$/, "")}. Fix it, then enable it in Settings > Developers.`;
    for (const to of await administratorPhones(business)) {
      await port.send({ to, body }).catch((error: unknown) => logEvent("error", "webhooks.sms_failed", { to, error: errorText(error) }));
    }
  } catch (error) {
    logEvent("error", "webhooks.notify_failed", { endpointId: delivery.endpointId, error: errorText(error) });
  }
  return true;
}
