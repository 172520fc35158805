// The half of analytics that builds, hashes, queues and sends events (decision 007), loaded once the page is idle
// (decision 043) by app/components/analytics/analytics.tsx, which notes what happened until then with the time and the page it
// happened on, so an event made before this module arrived is the same event it would have been.
import { buildEvent, eventHash, failedRequestInput, uncaughtExceptionInput, type AnalyticsContext, type EventInput } from "#app/lib/analytics/analytics";
import { EventQueue } from "#app/lib/analytics/analytics-queue";
import { unobservedFetch } from "./fetch-observer";

/** The page's queue: posted with the fetch the observer does not see, kept in localStorage. */
const events = new EventQueue({ fetch: unobservedFetch, storage: () => localStorage });

/** This page life, told apart from the one before a reload (whose queue may still wait here). */
const pageLife = crypto.randomUUID();

/** What the page noted about an event when it happened: who, which page, when. */
export interface Noted {
  context: AnalyticsContext;
  occurredAt: number;
  clientEventId: string;
}

export async function record(input: EventInput, noted: Noted, occurrence?: string): Promise<void> {
  const event = buildEvent(input, noted.context, noted.occurredAt, noted.clientEventId);
  const hash = await eventHash(event, occurrence === undefined ? "" : `${pageLife}:${occurrence}`);
  // Checked and queued in one step after the await, so two identical events at once still make one.
  events.add({ hash, event });
}

export function recordException(error: unknown, noted: Noted): Promise<void> {
  return record(uncaughtExceptionInput(error), noted);
}

export async function recordFailedRequest(path: string, method: string, response: Response, noted: Noted): Promise<void> {
  let message: string | null = response.statusText || null;
  let errors: unknown = null;
  if (response.headers.get("Content-Type")?.includes("application/json")) {
    try {
      const body = await response.clone().json<{ message?: unknown; errors?: unknown; issues?: unknown }>();
      if (typeof body.message === "string") message = body.message;
      errors = body.errors ?? body.issues ?? null;
    } catch {
      // not JSON after all
    }
  }
  // Taken here, as it always was, not where the request was made: the same failure from two places is one event.
  await record(failedRequestInput({ url: path, method, status: response.status, message, errors, stack: new Error().stack ?? null }), noted);
}

/** Sends what waits in the queue (this page's and an earlier page life's). */
export function send(): Promise<void> {
  return events.send();
}
