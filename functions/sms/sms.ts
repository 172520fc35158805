// Text messages go through a port: an HTTP SMS gateway (SMS_GATEWAY_URL, with
// SMS_GATEWAY_TOKEN as a bearer token), or outside production, when no gateway is
// set, the dev outbox: rows in D1 (dev_outbox) shown at /__dev/outbox.
import { addOutboxMessage } from "./sms-outbox.db";
import type { AuthConfig } from "../env";

export { listOutbox, type OutboxMessage } from "./sms-outbox.db";

export interface SmsMessage {
  /** 233XXXXXXXXX */
  to: string;
  body: string;
}

export interface SmsPort {
  readonly kind: "gateway" | "dev-outbox";
  /** Resolves once the message is accepted; throws SmsDeliveryError otherwise. */
  send(message: SmsMessage): Promise<void>;
}

export class SmsDeliveryError extends Error {
  override name = "SmsDeliveryError";
}

export const SMS_GATEWAY_TIMEOUT_MS = 10_000;

/**
 * The gateway adapter: `POST {url}` with `{"to", "body"}` as JSON and
 * `Authorization: Bearer {token}`. Any 2xx is accepted; anything else, a network
 * failure or no answer within the timeout is a SmsDeliveryError.
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
        throw new SmsDeliveryError(`SMS gateway unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Drain the body so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new SmsDeliveryError(`SMS gateway answered ${response.status}`);
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

/** The configured port; null in production without a gateway (codes cannot be sent). */
export function smsPortFor(config: AuthConfig, db: D1Database, now: () => number = Date.now): SmsPort | null {
  if (config.smsGatewayUrl && config.smsGatewayToken) return httpSmsGateway({ url: config.smsGatewayUrl, token: config.smsGatewayToken });
  if (config.environment !== "production") return devOutbox(db, now);
  return null;
}
