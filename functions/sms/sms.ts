// Text messages go through a port: a named provider (SMS_PROVIDER: Arkesel, Hubtel, mNotify, Africa's Talking, Twilio;
// functions/sms/providers.ts, decision 040), an HTTP SMS gateway (SMS_GATEWAY_URL, with SMS_GATEWAY_TOKEN as a bearer
// token), or outside production, when none is set (or SMS_PROVIDER=outbox), the dev outbox: rows in D1 (dev_outbox)
// shown at /__dev/outbox.
import { addOutboxMessage } from "./sms-outbox.db";
import { SMS_GATEWAY_TIMEOUT_MS, SmsDeliveryError, type SmsPort } from "./port";
import { providerSms } from "./providers";
import type { AuthConfig } from "../env";

export { listOutbox, type OutboxMessage } from "./sms-outbox.db";
export { SMS_GATEWAY_TIMEOUT_MS, SmsDeliveryError, type SmsMessage, type SmsPort, type SmsRefusal } from "./port";

/**
 * The gateway adapter: `POST {url}` with `{"to", "body"}` as JSON and
 * `Authorization: Bearer {token}`. Any 2xx is accepted; anything else, a network
 * failure or no answer within the timeout is a SmsDeliveryError (401/403: "auth", the token was refused).
 */
export function httpSmsGateway(options: { url: string; token: string; fetch?: typeof fetch; timeoutMs?: number }): SmsPort {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  return {
    kind: "gateway",
    async send(message) {
      let response: Response;
      try {
        response = await send(options.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${options.token}` },
          body: JSON.stringify({ to: message.to, body: message.body }),
          signal: AbortSignal.timeout(options.timeoutMs ?? SMS_GATEWAY_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsDeliveryError(`SMS gateway unreachable: ${error instanceof Error ? error.message : String(error)}`, "unavailable");
      }
      // Drain the body so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok)
        throw new SmsDeliveryError(`SMS gateway answered ${response.status}`, response.status === 401 || response.status === 403 ? "auth" : "unavailable");
    },
  };
}

/** Development only: the message is stored in D1 and shown at /__dev/outbox. */
export function devOutbox(db: D1Database, now: () => number = Date.now): SmsPort {
  return {
    kind: "dev-outbox",
    async send(message) {
      await addOutboxMessage(db, message.to, message.body, new Date(now()).toISOString());
    },
  };
}

/** The configured port; null in production without a provider or gateway (codes cannot be sent). */
export function smsPortFor(config: AuthConfig, db: D1Database, now: () => number = Date.now): SmsPort | null {
  if (config.smsProvider) return providerSms(config.smsProvider);
  if (config.smsProviderName === "outbox") return devOutbox(db, now);
  if (config.smsGatewayUrl && config.smsGatewayToken) return httpSmsGateway({ url: config.smsGatewayUrl, token: config.smsGatewayToken });
  if (config.environment !== "production") return devOutbox(db, now);
  return null;
}
