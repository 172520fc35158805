// When a failed delivery is tried again, and when it is given up (docs/webhooks.md).
//
// After the n-th failed attempt (n from 1) the next one waits
//   min(retryMaxSeconds, retryBaseSeconds * 2^(n - 1))
// and the delivery is marked failed instead when that next attempt would fall
// after retryWindowSeconds from when the portal made the delivery (with its event;
// never from the time the event describes: a payment may reach the portal days late). With the defaults (60 s doubling,
// capped at an hour, a 24-hour window) that is 60, 120, 240, 480, 960, 1920 s and
// then hourly: 28 attempts after the first, the last about 23 h 3 min after the
// portal made the event. wrangler.toml's max_retries (40) leaves room for them all; a message the
// queue still drops is re-queued by the 5-minute sweep.
import type { WebhooksConfig } from "../env";

export type BackoffSettings = Pick<WebhooksConfig, "retryBaseSeconds" | "retryMaxSeconds" | "retryWindowSeconds">;

/** Whole seconds (as Queues wants) to wait after failed attempt number `attempt` (1-based). */
export function webhookRetryDelaySeconds(attempt: number, settings: Pick<BackoffSettings, "retryBaseSeconds" | "retryMaxSeconds">): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.min(settings.retryMaxSeconds, settings.retryBaseSeconds * 2 ** exponent);
}

export type NextStep = { retry: true; delaySeconds: number; at: number } | { retry: false };

/** After failed attempt `attempt` at `now` (ms) of a delivery the portal made at `madeAt` (ms). */
export function nextStep(attempt: number, madeAt: number, now: number, settings: BackoffSettings): NextStep {
  const delaySeconds = webhookRetryDelaySeconds(attempt, settings);
  const at = now + delaySeconds * 1000;
  if (at > madeAt + settings.retryWindowSeconds * 1000) return { retry: false };
  return { retry: true, delaySeconds, at };
}

/** Every wait of a delivery that never succeeds, in seconds, from the first attempt as the portal makes it. */
export function retrySchedule(settings: BackoffSettings): number[] {
  const waits: number[] = [];
  let now = 0;
  for (let attempt = 1; ; attempt += 1) {
    const step = nextStep(attempt, 0, now, settings);
    if (!step.retry) return waits;
    waits.push(step.delaySeconds);
    now = step.at;
  }
}
