// The browser half of analytics (SPEC sections 3, 7, 8): page views, navigation timings, uncaught errors and failed
// requests become events, each hashed so that the same content (whenever it happened) is one event, Error and
// Exception events included, and handed to the page's queue (app/lib/analytics/analytics-queue.ts), which sends them one at a
// time to POST /api/events. The server de-duplicates each copy it accepted by its own hash.
// This module is in every page's first load, so it only notes what happened (what, when, on which page, by whom);
// building, hashing, queueing and sending are app/components/analytics/analytics-sender.ts, loaded once the page is idle
// (decision 043), at most five seconds after the page loaded.
import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { EVENTS_ENDPOINT, isFailedRequest, isPageView } from "#app/lib/analytics/analytics-rules";
import type { AnalyticsContext, EventInput } from "#app/lib/analytics/analytics";
import { useSignedInIdentity } from "#app/components/account-menu";
import { installFetchObserver, onFetchResponse } from "./fetch-observer";
import type * as Sender from "./analytics-sender";

let identity: Pick<AnalyticsContext, "user" | "business"> = { user: null, business: null };

function noted(): Sender.Noted {
  return { context: { title: document.title, userAgent: navigator.userAgent, ...identity }, occurredAt: Date.now(), clientEventId: crypto.randomUUID() };
}

type Job = (sender: typeof Sender) => Promise<void>;
let sender: typeof Sender | null = null;
let loading: Promise<typeof Sender> | null = null;
/** What happened before the sender arrived, in order. */
const waiting: Job[] = [];

/** Loads the sender (once; again after a failed load, e.g. offline) and hands it what waited. */
function loadSender(): Promise<typeof Sender> {
  loading ??= import("./analytics-sender").then(
    (loaded) => {
      sender = loaded;
      for (const job of waiting.splice(0)) void job(loaded);
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Runs the job now when the sender is here, or once it is: it keeps what was noted when the event happened. */
function withSender(job: Job): Promise<void> {
  if (sender) return job(sender);
  waiting.push(job);
  return Promise.resolve();
}

/**
 * Records an event: queued, persisted, then sent. `occurrence` tells apart two
 * happenings with the same content (two visits of a page); without it, the same
 * content is one event, sent once.
 */
export function track(input: EventInput, occurrence?: string): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  const at = noted();
  return withSender((loaded) => loaded.record(input, at, occurrence));
}

/** An uncaught exception (SPEC section 7), reported once per browser. */
export function trackException(error: unknown): Promise<void> {
  if (typeof window === "undefined") return Promise.resolve();
  const at = noted();
  return withSender((loaded) => loaded.recordException(error, at));
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

/** Calls `then` once the browser is idle after the page loaded (at most five seconds later). */
function whenIdle(then: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(then, { timeout: 5_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(then, 1_000);
  return () => clearTimeout(id);
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
    installFetchObserver();
    const stopObserving = onFetchResponse(({ url, method, response }) => {
      const path = sameOrigin(url);
      if (!path || path.pathname === EVENTS_ENDPOINT || !isFailedRequest(response.status)) return;
      const at = noted();
      void withSender((loaded) => loaded.recordFailedRequest(path.pathname + path.search, method, response, at));
    });
    const onError = (event: ErrorEvent) => void trackException(event.error ?? event.message);
    const onRejection = (event: PromiseRejectionEvent) => void trackException(event.reason);
    // Sends what waits (this page's events and an earlier page life's); offline, the sender's load is tried again here.
    const sendWaiting = () =>
      void loadSender().then(
        (loaded) => loaded.send(),
        () => undefined,
      );
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("online", sendWaiting);
    const stopWaiting = whenIdle(sendWaiting);

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
      stopWaiting();
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
      window.removeEventListener("online", sendWaiting);
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
