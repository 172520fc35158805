// The browser half of analytics (SPEC sections 3, 7, 8): page views, navigation timings, uncaught errors and failed
// requests become events, each hashed so that the same content (whenever it happened) is one event, Error and
// Exception events included, and handed to the page's queue (app/lib/analytics-queue.ts), which sends them one at a
// time to POST /api/events. The server de-duplicates each copy it accepted by its own hash.
import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import {
  buildEvent,
  eventHash,
  isFailedRequest,
  isPageView,
  failedRequestInput,
  uncaughtExceptionInput,
  type AnalyticsContext,
  type EventInput,
} from "../lib/analytics";
import { EVENTS_ENDPOINT, EventQueue } from "../lib/analytics-queue";
import { useSignedInIdentity } from "./account-menu";
import { installFetchObserver, onFetchResponse, unobservedFetch } from "./fetch-observer";

/** The page's queue: posted with the fetch the observer does not see, kept in localStorage. */
const events = new EventQueue({ fetch: unobservedFetch, storage: () => localStorage });
let identity: Pick<AnalyticsContext, "user" | "business"> = { user: null, business: null };

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
  const event = buildEvent(input, context(), Date.now(), crypto.randomUUID());
  pageLife ??= crypto.randomUUID();
  const hash = await eventHash(event, occurrence === undefined ? "" : `${pageLife}:${occurrence}`);
  // Checked and queued in one step after the await, so two identical events at once still make one.
  events.add({ hash, event });
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
    installFetchObserver();
    const stopObserving = onFetchResponse(({ url, method, response }) => {
      const path = sameOrigin(url);
      if (!path || path.pathname === EVENTS_ENDPOINT || !isFailedRequest(response.status)) return;
      void reportFailedRequest(url, method, response);
    });
    const onError = (event: ErrorEvent) => void track(uncaughtExceptionInput(event.error ?? event.message));
    const onRejection = (event: PromiseRejectionEvent) => void track(uncaughtExceptionInput(event.reason));
    const onOnline = () => void events.send();
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("online", onOnline);
    void events.send();

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
