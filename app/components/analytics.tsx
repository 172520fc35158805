// The browser half of analytics (SPEC sections 3, 7, 8): a queue that sends
// events one at a time to POST /api/events. It is kept in localStorage, so
// events made just before a reload or while offline are sent later. An event
// the same as one already queued or sent in this page life (same hash: the same
// content, whenever it happened) is not sent again, Error and Exception events
// included; a reload starts a new page life. The server de-duplicates each copy
// it accepted by its own hash.
import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import {
  buildEvent,
  eventHash,
  isPageView,
  failedRequestInput,
  uncaughtExceptionInput,
  type AnalyticsContext,
  type AnalyticsEvent,
  type EventInput,
} from "../lib/analytics";
import { useSignedInIdentity } from "./account-menu";
import { installFetchObserver, onFetchResponse, unobservedFetch } from "./fetch-observer";

const QUEUE_KEY = "pp:analytics:queue";
/** Where sent hashes were once kept across reloads; now they last a page life, and the old list is dropped. */
const OLD_SENT_KEY = "pp:analytics:sent";
const MAX_QUEUED = 200;
const MAX_SENT_REMEMBERED = 500;
const ENDPOINT = "/api/events";

interface Queued {
  hash: string;
  event: AnalyticsEvent;
}

let queue: Queued[] = [];
/** Hashes of the events sent in this page life, newest last. */
let sent: string[] = [];
let loaded = false;
let sending = false;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let backoffMs = 1_000;
let identity: Pick<AnalyticsContext, "user" | "business"> = { user: null, business: null };

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function load(): void {
  if (loaded) return;
  loaded = true;
  const stored = read<Queued[]>(QUEUE_KEY, []);
  queue = Array.isArray(stored) ? stored.filter((item) => typeof item?.hash === "string" && item.event) : [];
  try {
    localStorage.removeItem(OLD_SENT_KEY);
  } catch {
    // Storage denied: nothing to tidy.
  }
}

function persist(): void {
  try {
    localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
  } catch {
    // Storage full or denied: the queue still works for this page's life.
  }
}

function later(ms: number): void {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void pump();
  }, ms);
}

/** Sends queued events one at a time until the queue is empty or the network says wait. */
async function pump(): Promise<void> {
  if (sending || queue.length === 0 || retryTimer) return;
  if (typeof navigator !== "undefined" && navigator.onLine === false) return; // "online" resumes
  sending = true;
  try {
    while (queue.length > 0) {
      const head = queue[0]!;
      let response: Response;
      try {
        response = await unobservedFetch(ENDPOINT, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(head.event),
          keepalive: true,
        });
      } catch {
        later(backoffMs);
        backoffMs = Math.min(backoffMs * 2, 60_000);
        return;
      }
      if (response.ok) {
        queue.shift();
        sent = [...sent, head.hash].slice(-MAX_SENT_REMEMBERED);
        backoffMs = 1_000;
        persist();
        continue;
      }
      if (response.status === 429) {
        later(Math.max(1, Number(response.headers.get("Retry-After")) || 30) * 1_000);
        return;
      }
      if (response.status >= 500) {
        later(backoffMs);
        backoffMs = Math.min(backoffMs * 2, 60_000);
        return;
      }
      // 4xx: the server will never take this event; keep the rest moving.
      console.warn("Analytics event refused", response.status, head.event.eventId);
      queue.shift();
      persist();
    }
  } finally {
    sending = false;
  }
}

function context(): AnalyticsContext {
  return { title: document.title, userAgent: navigator.userAgent, ...identity };
}

/** This page life, told apart from the one before a reload (whose queue may still wait here). Made at first use: a Worker may not draw random values at load. */
let pageLife: string | null = null;

/**
 * Records an event: queued, persisted, then sent. `occurrence` tells apart two
 * happenings with the same content (two visits of a page); without it, the same
 * content is one event, sent once.
 */
export async function track(input: EventInput, occurrence?: string): Promise<void> {
  if (typeof window === "undefined") return;
  load();
  const event = buildEvent(input, context(), Date.now(), crypto.randomUUID());
  pageLife ??= crypto.randomUUID();
  const hash = await eventHash(event, occurrence === undefined ? "" : `${pageLife}:${occurrence}`);
  // Checked and queued in one step after the await, so two identical events at once still make one.
  if (sent.includes(hash) || queue.some((item) => item.hash === hash)) return;
  queue = [...queue, { hash, event }].slice(-MAX_QUEUED);
  persist();
  void pump();
}

/** Who the events are about, once sign-in knows (null before). */
export function setAnalyticsIdentity(next: Pick<AnalyticsContext, "user" | "business">): void {
  identity = next;
}

function sameOrigin(url: string): URL | null {
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.origin === window.location.origin ? parsed : null;
  } catch {
    return null;
  }
}

async function reportFailedRequest(url: string, method: string, response: Response): Promise<void> {
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
  const path = sameOrigin(url);
  await track(
    failedRequestInput({ url: path ? path.pathname + path.search : url, method, status: response.status, message, errors, stack: new Error().stack ?? null }),
  );
}

/** Page views, navigation timings, uncaught errors and failed requests, for the whole app. */
export function Analytics() {
  const location = useLocation();
  const navigation = useNavigation();
  const navigationStarted = useRef<number | null>(null);
  const signedIn = useSignedInIdentity();

  // First, so the events below already carry who and where (SPEC section 3's user fields).
  useEffect(() => {
    setAnalyticsIdentity(
      signedIn
        ? {
            user: { email: signedIn.user.employeeEmail, name: signedIn.user.employeeName, phone: signedIn.user.msisdn, gender: signedIn.user.employeeGender },
            business: { name: signedIn.business.businessName, id: signedIn.business.businessId },
          }
        : { user: null, business: null },
    );
  }, [signedIn]);

  useEffect(() => {
    load();
    installFetchObserver();
    const stopObserving = onFetchResponse(({ url, method, response }) => {
      const path = sameOrigin(url);
      if (!path || path.pathname === ENDPOINT || response.status < 400) return;
      void reportFailedRequest(url, method, response);
    });
    const onError = (event: ErrorEvent) => void track(uncaughtExceptionInput(event.error ?? event.message));
    const onRejection = (event: PromiseRejectionEvent) => void track(uncaughtExceptionInput(event.reason));
    const onOnline = () => void pump();
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("online", onOnline);
    void pump();

    const [timing] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    if (timing) {
      const ms = Math.round(timing.domContentLoadedEventEnd - timing.startTime);
      if (ms > 0)
        void track({
          eventId: "PageLoadDuration",
          eventDescription: "Document loaded and ready (ms)",
          eventType: "Duration",
          eventValue: { type: "Double", value: ms },
        });
    }
    return () => {
      stopObserving();
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
      window.removeEventListener("online", onOnline);
    };
  }, []);

  // A page view for every navigation: not for a form's answer shown where it was sent from
  // (an action's 400 re-renders the page under a new location key, as a redirect back would).
  const landedOn = useRef<string | null>(null);
  const submitting = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") submitting.current = true;
  }, [navigation.state]);
  useEffect(() => {
    const url = location.pathname + location.search;
    const view = isPageView(landedOn.current, url, submitting.current);
    landedOn.current = url;
    submitting.current = false;
    if (!view) return;
    void track(
      {
        eventId: "PageView",
        eventDescription: `Viewed ${document.title}`,
        eventType: "Regular",
        eventValue: { type: "String", value: location.pathname },
      },
      location.key,
    );
  }, [location.key, location.pathname, location.search]);

  // How long each in-app navigation took, from click to rendered.
  const navigations = useRef(0);
  useEffect(() => {
    if (navigation.state === "loading" && navigationStarted.current === null) navigationStarted.current = performance.now();
    if (navigation.state === "idle" && navigationStarted.current !== null) {
      const ms = Math.round(performance.now() - navigationStarted.current);
      navigationStarted.current = null;
      navigations.current += 1;
      // Two navigations of the same length are two events.
      void track(
        {
          eventId: "NavigationDuration",
          eventDescription: "In-app navigation (ms)",
          eventType: "Duration",
          eventValue: { type: "Double", value: ms },
        },
        `navigation ${navigations.current}`,
      );
    }
  }, [navigation.state]);

  return null;
}
