// The browser's queue of analytics events (SPEC sections 3, 7, 8; decision 007). It is kept in storage (localStorage)
// so that events made just before a reload or while offline are sent later, and it sends them one at a time to
// POST /api/events: a network failure or a 5xx waits and tries again (1 s doubling to a minute), a 429 waits as long
// as Retry-After says, and a 4xx drops that event (the server will never take it) so the rest keep moving. An event
// with the hash of one queued or sent in this page life is not queued again; a reload starts a new page life, except
// for Error and Exception events, which SPEC section 7 sends once: their sent hashes are kept beside the queue. No
// React and no window here: app/components/analytics/analytics-sender.ts makes the page's queue with the page's fetch and storage.
import type { AnalyticsEvent } from "./analytics";
import { EVENTS_ENDPOINT } from "./analytics-rules";

export { EVENTS_ENDPOINT };
const QUEUE_KEY = "pp:analytics:queue";
/** Where sent hashes were once kept across reloads; now they last a page life, and the old list is dropped. */
const OLD_SENT_KEY = "pp:analytics:sent";
/** Hashes of the Error and Exception events sent from this browser: one error reloaded over and over is one event. */
const SENT_ONCE_KEY = "pp:analytics:sent-once";
const SENT_ONCE_TYPES: readonly string[] = ["Error", "Exception"];
const MAX_QUEUED = 200;
const MAX_SENT_REMEMBERED = 500;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
/** A 429 without a usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

export interface QueuedEvent {
  hash: string;
  event: AnalyticsEvent;
}

export interface EventQueueDeps {
  /** How an event is posted: the page's fetch, unobserved so that the queue never reports on itself. */
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** Where the queue outlives a reload; may throw (storage denied), and then the queue lasts the page's life. */
  storage: () => Pick<Storage, "getItem" | "setItem" | "removeItem">;
}

export class EventQueue {
  private queue: QueuedEvent[] = [];
  /** Hashes of the events sent in this page life, newest last. */
  private sent: string[] = [];
  /** Hashes of the Error and Exception events sent from this browser, any page life, newest last. */
  private sentOnce: string[] = [];
  private loaded = false;
  private sending = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private backoffMs = FIRST_BACKOFF_MS;

  constructor(private readonly deps: EventQueueDeps) {}

  /** Queues the event (the oldest go when it is full) and starts sending; false when the same event is queued or was sent. */
  add(item: QueuedEvent): boolean {
    this.load();
    // Another tab may have sent this very error since this page loaded.
    if (SENT_ONCE_TYPES.includes(item.event.eventType)) this.sentOnce = this.readSentOnce() ?? this.sentOnce;
    if (this.sent.includes(item.hash) || this.sentOnce.includes(item.hash) || this.queue.some((queued) => queued.hash === item.hash)) return false;
    this.queue = [...this.queue, item].slice(-MAX_QUEUED);
    this.persist();
    void this.send();
    return true;
  }

  /** Sends queued events one at a time until the queue is empty or the network says wait. Offline, the "online" event resumes. */
  async send(): Promise<void> {
    this.load();
    if (this.sending || this.queue.length === 0 || this.retryTimer) return;
    if (typeof navigator !== "undefined" && navigator.onLine === false) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const head = this.queue[0]!;
        let response: Response;
        try {
          response = await this.deps.fetch(EVENTS_ENDPOINT, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(head.event),
            keepalive: true,
          });
        } catch {
          this.backOff();
          return;
        }
        if (response.ok) {
          this.queue.shift();
          this.sent = [...this.sent, head.hash].slice(-MAX_SENT_REMEMBERED);
          this.backoffMs = FIRST_BACKOFF_MS;
          this.persist();
          if (SENT_ONCE_TYPES.includes(head.event.eventType)) this.rememberSentOnce(head.hash);
          continue;
        }
        if (response.status === 429) {
          this.later(Math.max(1, Number(response.headers.get("Retry-After")) || DEFAULT_RETRY_AFTER_SECONDS) * 1_000);
          return;
        }
        if (response.status >= 500) {
          this.backOff();
          return;
        }
        console.warn("Analytics event refused", response.status, head.event.eventId);
        this.queue.shift();
        this.persist();
      }
    } finally {
      this.sending = false;
    }
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    let stored: unknown = [];
    try {
      const raw = this.deps.storage().getItem(QUEUE_KEY);
      stored = raw ? JSON.parse(raw) : [];
    } catch {
      // Storage denied or a broken list: start empty.
    }
    this.queue = Array.isArray(stored) ? (stored as QueuedEvent[]).filter((item) => typeof item?.hash === "string" && item.event) : [];
    this.sentOnce = this.readSentOnce() ?? [];
    try {
      this.deps.storage().removeItem(OLD_SENT_KEY);
    } catch {
      // Storage denied: nothing to tidy.
    }
  }

  /** null when storage is denied or the list is broken. */
  private readSentOnce(): string[] | null {
    try {
      const raw = this.deps.storage().getItem(SENT_ONCE_KEY);
      const stored: unknown = raw ? JSON.parse(raw) : [];
      return Array.isArray(stored) ? stored.filter((hash): hash is string => typeof hash === "string") : null;
    } catch {
      return null;
    }
  }

  /** Read again first: another tab of the same browser may have sent errors of its own since this one loaded. */
  private rememberSentOnce(hash: string): void {
    const known = (this.readSentOnce() ?? this.sentOnce).filter((item) => item !== hash);
    this.sentOnce = [...known, hash].slice(-MAX_SENT_REMEMBERED);
    try {
      this.deps.storage().setItem(SENT_ONCE_KEY, JSON.stringify(this.sentOnce));
    } catch {
      // Storage full or denied: the error is still sent once in this page life.
    }
  }

  private persist(): void {
    try {
      this.deps.storage().setItem(QUEUE_KEY, JSON.stringify(this.queue));
    } catch {
      // Storage full or denied: the queue still works for this page's life.
    }
  }

  private backOff(): void {
    this.later(this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  private later(ms: number): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.send();
    }, ms);
  }
}
