// Analytics events (SPEC sections 3, 7, 8), built in the browser. Pure: the
// client queue (app/lib/analytics/analytics-queue.ts) sends what these functions make,
// and a unit test parses their output with the server's schema.
import type { AnalyticsEventInput } from "#server/analytics/schema";
// The two rules the page applies before the sending code has loaded live apart, so that the first load stays small.
export { isFailedRequest, isPageView } from "./analytics-rules";

export type AnalyticsEvent = AnalyticsEventInput;
export type EventType = AnalyticsEvent["eventType"];
export type EventValue = AnalyticsEvent["eventValue"];

/** SPEC section 9: version and build number 0.2.0, country GH. */
export const APP_VERSION = "0.2.0";
export const UNCAUGHT_EXCEPTION_ID = "UncaughtException";

export interface AnalyticsUser {
  email: string | null;
  name: string | null;
  /** The phone number the user signed in with. */
  phone: string | null;
  gender: string | null;
}

export interface AnalyticsContext {
  title: string;
  userAgent: string;
  user: AnalyticsUser | null;
  business: { name: string; id: string } | null;
}

export interface EventInput {
  eventId: string;
  eventDescription: string;
  eventType: EventType;
  eventValue: EventValue;
}

/** The page title without spaces or hyphens: "Settlement History" -> "SettlementHistory". */
export function sectionName(title: string): string {
  return title.replace(/[\s-]+/g, "");
}

/** Event ids carry no spaces. */
export function eventIdOf(text: string): string {
  return text.replace(/\s+/g, "");
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ["Edge", /Edg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /(?:OPR|Opera)\/(\d+)/],
  ["Samsung Internet", /SamsungBrowser\/(\d+)/],
  ["Firefox", /(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /(?:Chrome|CriOS)\/(\d+)/],
  ["Safari", /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari/],
];

/** The browser's name and major version, e.g. "Chrome 156"; "Unknown" when unrecognised. */
export function browserOf(userAgent: string): string {
  for (const [name, pattern] of BROWSERS) {
    const version = pattern.exec(userAgent)?.[1];
    if (version) return `${name} ${version}`;
  }
  return "Unknown";
}

export function buildEvent(input: EventInput, context: AnalyticsContext, occurredAt: number, clientEventId: string): AnalyticsEvent {
  return {
    eventId: eventIdOf(input.eventId),
    eventDescription: input.eventDescription.slice(0, 500),
    eventType: input.eventType,
    eventValue: input.eventValue,
    appOs: browserOf(context.userAgent),
    appPlatform: "Web",
    appBuildNumber: APP_VERSION,
    appId: "partners-portal",
    appName: "Partners Portal",
    appVersion: APP_VERSION,
    userCountry: "GH",
    userEmail: context.user?.email ?? null,
    userName: context.user?.name ?? null,
    userId: context.user?.phone ?? null,
    userGender: context.user?.gender ?? null,
    sectionName: sectionName(context.title).slice(0, 100),
    extrasObject: { businessName: context.business?.name ?? null, businessId: context.business?.id ?? null },
    occurredAt,
    clientEventId,
  };
}

/** JSON with object keys sorted at every level, so equal events serialise equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The event's hash: what makes two events the same event (SPEC section 7: "an event
 * with the same hash is not resent"). Everything the event says counts (what
 * happened, its value, the page, the person, the business, the browser), and the
 * occurrence when the caller tells one happening from another with the same
 * content (a page view names its navigation, so visiting a page twice is two
 * views); when it was made and the id the browser gave this copy do not, or no
 * two events would ever match. An error has no occurrence: the same error is
 * sent once. The server keeps its own hash of the whole event, id included, to
 * relay each copy it accepted exactly once.
 */
export function eventHash(event: AnalyticsEvent, occurrence = ""): Promise<string> {
  const { occurredAt: _occurredAt, clientEventId: _clientEventId, ...content } = event;
  return sha256(`${canonicalJson(content)}\n${occurrence}`);
}

/** Every 4xx and 5xx the HTTP registry names: whatever the Worker or a proxy in front of it answers reads by name. */
const STATUS_NAMES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  423: "Locked",
  424: "Failed Dependency",
  425: "Too Early",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
  506: "Variant Also Negotiates",
  507: "Insufficient Storage",
  508: "Loop Detected",
  510: "Not Extended",
  511: "Network Authentication Required",
};

/** "404 Not Found", as the events service expects (SPEC section 8). */
export function httpStatusName(status: number): string {
  const name = STATUS_NAMES[status] ?? (status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "Unknown");
  return `${status} ${name}`;
}

export interface FailedRequest {
  url: string;
  method: string;
  status: number;
  message: string | null;
  errors: unknown;
  stack: string | null;
}

/** An Error event for a request that failed (SPEC section 8). */
export function failedRequestInput(request: FailedRequest): EventInput {
  const statusName = httpStatusName(request.status);
  return {
    eventId: "RequestFailed",
    eventDescription: `${statusName}: ${request.method} ${request.url}`,
    eventType: "Error",
    eventValue: {
      type: "Object",
      value: {
        statusName,
        status: request.status,
        url: request.url,
        method: request.method,
        message: request.message,
        errors: request.errors ?? null,
        stack: request.stack,
      },
    },
  };
}

/** SPEC section 3's authenticationChannel: the work account, Google, or the unique email. */
export type SignInChannel = "microsoft" | "google" | "userUniqueEmail";

/**
 * An Error event for a sign-in that failed in the browser (SPEC sections 4 and 8: the popup closed, no network, a
 * sign-in already in progress), which the Worker never sees; the failures it does see it audits itself. `code` is one
 * of functions/auth/sign-in-messages.ts, `message` what the page showed.
 */
export function signInFailedInput(channel: SignInChannel, code: string, message: string): EventInput {
  return {
    eventId: "SignInFailed",
    eventDescription: `Sign-in failed (${channel}): ${code}`,
    eventType: "Error",
    eventValue: { type: "Object", value: { channel, code, message } },
  };
}

/** An Exception event for an error nobody caught (SPEC section 8). */
export function uncaughtExceptionInput(error: unknown, eventId = UNCAUGHT_EXCEPTION_ID): EventInput {
  const err = error instanceof Error ? error : new Error(typeof error === "string" ? error : "Unknown error");
  return {
    eventId,
    eventDescription: err.message.slice(0, 500) || "Unknown error",
    eventType: "Exception",
    eventValue: { type: "Object", value: { name: err.name, message: err.message, stack: (err.stack ?? "").slice(0, 4000) } },
  };
}
