// The webhook event types a business can subscribe to. Pure:
// the Developers tab and the OpenAPI document import the list from here.

export const WEBHOOK_EVENT_TYPES = [
  "payment.succeeded",
  "payment.failed",
  "payment.reversed",
  "settlement.paid",
  "settlement.failed",
  "transfer.approved",
  "transfer.rejected",
  "refund.succeeded",
  "refund.failed",
  "approval.requested",
  "terminal.silent",
  "dispute.opened",
  "dispute.closed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** "Send a test event": delivered to one endpoint whatever it subscribes to, never emitted by a change. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What the receiver gets as the request body. */
export interface WebhookEnvelope {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT_TYPE;
  /** ISO 8601 UTC. */
  created: string;
  data: unknown;
}

/** The signature header (docs/webhooks.md): `t=<unix seconds>,v1=<hex>[,v1=<hex of the previous secret>]`. */
export const SIGNATURE_HEADER = "PP-Signature";
/** The event id again, for receivers that de-duplicate before parsing the body. */
export const EVENT_ID_HEADER = "PP-Event-Id";
export const EVENT_TYPE_HEADER = "PP-Event-Type";
