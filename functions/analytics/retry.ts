// How long a failed relay waits before the queue delivers the event again.
//
// Delivery n (message.attempts = n, from 1) that fails waits
//   min(retryMaxSeconds, retryBaseSeconds * 2^(n - 1))
// With the defaults (30 s, doubling, capped at 15 minutes) and wrangler.toml's
// max_retries = 12, the waits are 30, 60, 120, 240, 480 s and then 900 s seven
// times: 7,230 s (2 h 0 min 30 s) between the first and the 13th and last delivery,
// so the events service can be down for two hours before an event is parked in the
// dead-letter queue (and a replay brings it back). functions/env.test.ts checks
// that wrangler.toml and these defaults still add up to more than an hour.
import type { EventsConfig } from "../env";

export type RetrySettings = Pick<EventsConfig, "retryBaseSeconds" | "retryMaxSeconds">;

/** The delay (whole seconds, as Queues wants) after delivery `attempt` (1-based) failed. */
export function retryDelaySeconds(attempt: number, settings: RetrySettings): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.min(settings.retryMaxSeconds, settings.retryBaseSeconds * 2 ** exponent);
}

/** Seconds from the first delivery to the last one, for a consumer with `maxRetries`. */
export function totalRetryWindowSeconds(maxRetries: number, settings: RetrySettings): number {
  let total = 0;
  for (let attempt = 1; attempt <= maxRetries; attempt += 1) total += retryDelaySeconds(attempt, settings);
  return total;
}
