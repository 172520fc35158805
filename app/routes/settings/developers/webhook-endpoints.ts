// What the Developers tab's webhook endpoints section and its server share
//: where the section lives, how its checkboxes are named and
// how an attempt reads.
import type { WebhookEventType } from "#server/webhooks/types";

/** Where the section lives: the Developers tab, at its endpoints (successful changes come back here). */
export const ENDPOINTS_URL = "/settings?tab=developers#endpoints";
/** Where the section's forms post: the Developers tab's action. */
export const ENDPOINTS_FORM_ACTION = "/settings?tab=developers";

/** One checkbox per event type, named `event:<type>`, so the form survives Object.fromEntries. */
export const EVENT_FIELD_PREFIX = "event:";
export const eventFieldName = (type: WebhookEventType) => `${EVENT_FIELD_PREFIX}${type}`;

/** One manual attempt ("Send a test event", "Send again") as the person sees it. */
export interface SendOutcome {
  delivered: boolean;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** "Answered 200 in 84 ms.", "No answer in 2,000 ms (No answer within 2 s)." */
export function outcomeText(result: SendOutcome): string {
  const answer = result.responseStatus === null ? "No answer" : `Answered ${result.responseStatus}`;
  const time = result.latencyMs === null ? "" : ` in ${result.latencyMs} ms`;
  return `${answer}${time}${result.error && !repeatsStatus(result.error, result.responseStatus) ? ` (${result.error})` : ""}.`;
}

/** An error that only says the answer's status ("HTTP 503"), already shown. */
export function repeatsStatus(error: string, responseStatus: number | null): boolean {
  return responseStatus !== null && error === `HTTP ${responseStatus}`;
}
