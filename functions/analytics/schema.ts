// The analytics event (SPEC section 3) as the browser sends it to POST /api/events,
// the message the Worker puts on the EVENTS queue, and the event's hash.
//
// The browser half imports the TYPES from here (`import type { AnalyticsEvent }`);
// the values pull valibot in, so import them only on the server.
import * as v from "valibot";
import { DAY_MS } from "../plumbing/time";

export const EVENT_TYPES = ["Regular", "Duration", "Error", "Exception"] as const;
export const VALUE_TYPES = ["Double", "Decimal", "Int", "String", "Object"] as const;

/** SPEC section 9: the analytics app version and build number are both 0.2.0, the country GH. */
export const APP_FIELDS = {
  appPlatform: "Web",
  appBuildNumber: "0.2.0",
  appId: "partners-portal",
  appName: "Partners Portal",
  appVersion: "0.2.0",
  userCountry: "GH",
} as const;

/** Largest request body POST /api/events reads (413 above it). */
export const MAX_BODY_BYTES = 16 * 1024;
/** Largest Object value, as JSON. */
export const MAX_OBJECT_VALUE_BYTES = 8 * 1024;
const MAX_OBJECT_DEPTH = 32;
/** occurredAt may be at most this far in the future (clock skew) ... */
export const MAX_FUTURE_MS = 5 * 60 * 1000;
/** ... and at most this old. */
export const MAX_AGE_MS = 7 * DAY_MS;

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/** A plain JSON object (not an array, not null), at most MAX_OBJECT_DEPTH deep; checked without recursion. */
function isJsonObject(input: unknown): input is Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return false;
  const proto = Object.getPrototypeOf(input) as unknown;
  return proto === Object.prototype || proto === null;
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_OBJECT_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

const text = (max: number, what = `a string of at most ${max} characters`) => v.pipe(v.string(`must be ${what}`), v.maxLength(max, `must be ${what}`));
const nullableText = (max: number) => v.nullable(text(max, `a string of at most ${max} characters, or null`));
const fixed = <T extends string>(value: T) => v.literal(value, `must be "${value}"`);

const FiniteNumber = v.pipe(v.number("must be a finite number"), v.finite("must be a finite number"));

const EventValue = v.variant(
  "type",
  [
    v.strictObject({ type: v.literal("Double"), value: FiniteNumber }),
    v.strictObject({ type: v.literal("Decimal"), value: FiniteNumber }),
    v.strictObject({ type: v.literal("Int"), value: v.pipe(v.number("must be a whole number"), v.safeInteger("must be a whole number")) }),
    v.strictObject({ type: v.literal("String"), value: text(2000) }),
    v.strictObject({
      type: v.literal("Object"),
      value: v.pipe(
        v.custom<Record<string, unknown>>(isJsonObject, "must be a JSON object"),
        v.check((value) => depthOf(value) <= MAX_OBJECT_DEPTH, `must nest at most ${MAX_OBJECT_DEPTH} levels deep`),
        v.check((value) => byteLength(JSON.stringify(value)) <= MAX_OBJECT_VALUE_BYTES, "must be at most 8 KB as JSON"),
      ),
    }),
  ],
  `must be an object whose type is one of ${VALUE_TYPES.join(", ")}`,
);

const entries = {
  eventId: v.pipe(
    v.string("must be a string of 1 to 100 characters without spaces"),
    v.minLength(1, "must be a string of 1 to 100 characters without spaces"),
    v.maxLength(100, "must be a string of 1 to 100 characters without spaces"),
    v.regex(/^\S+$/, "must not contain spaces"),
  ),
  eventDescription: text(500),
  eventType: v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(", ")}`),
  eventValue: EventValue,
  appOs: text(100),
  appPlatform: fixed(APP_FIELDS.appPlatform),
  appBuildNumber: fixed(APP_FIELDS.appBuildNumber),
  appId: fixed(APP_FIELDS.appId),
  appName: fixed(APP_FIELDS.appName),
  appVersion: fixed(APP_FIELDS.appVersion),
  userCountry: fixed(APP_FIELDS.userCountry),
  // POST /api/events replaces the user fields and extrasObject with the session's
  // (functions/analytics/ingest.ts); the browser's are checked here, then dropped.
  userEmail: nullableText(254),
  userName: nullableText(200),
  /** The phone number. */
  userId: nullableText(32),
  userGender: nullableText(50),
  sectionName: v.pipe(text(100), v.regex(/^[^\s-]*$/, "must not contain spaces or hyphens")),
  extrasObject: v.strictObject({ businessName: nullableText(200), businessId: nullableText(100) }, "must be an object with businessName and businessId"),
  occurredAt: v.pipe(
    v.number("must be a time in epoch milliseconds"),
    v.safeInteger("must be a time in epoch milliseconds"),
    v.minValue(0, "must be a time in epoch milliseconds"),
  ),
  clientEventId: v.pipe(v.string("must be a UUID"), v.uuid("must be a UUID")),
};

/** The shape of an analytics event, whenever it was made (queue messages, replays). */
export const AnalyticsEventSchema = v.strictObject(entries, "must be a JSON object");

/** What the browser sends; fields are as in SPEC section 3. */
export type AnalyticsEventInput = v.InferInput<typeof AnalyticsEventSchema>;
/** A validated analytics event. */
export type AnalyticsEvent = v.InferOutput<typeof AnalyticsEventSchema>;
export type EventType = (typeof EVENT_TYPES)[number];
export type EventValueType = (typeof VALUE_TYPES)[number];

/** What POST /api/events accepts at `now`: the shape, and an occurredAt within 7 days back and 5 minutes ahead. */
export function incomingEventSchema(now: number) {
  return v.pipe(
    AnalyticsEventSchema,
    v.forward(
      v.check((event) => event.occurredAt <= now + MAX_FUTURE_MS, "must not be more than 5 minutes in the future"),
      ["occurredAt"],
    ),
    v.forward(
      v.check((event) => event.occurredAt >= now - MAX_AGE_MS, "must not be older than 7 days"),
      ["occurredAt"],
    ),
  );
}

export interface Problem {
  path: string;
  message: string;
}

/** Valibot issues as a list a person can act on: where, and what is wrong (the first problem per field). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): Problem[] {
  const problems = new Map<string, string>();
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? "body";
    if (problems.has(path)) continue;
    if (issue.kind === "schema" && issue.expected === "never") problems.set(path, "is not a field of an analytics event");
    else if (issue.kind === "schema" && issue.input === undefined && issue.expected?.startsWith('"') && issue.type.endsWith("object")) {
      problems.set(path, "is required");
    } else problems.set(path, issue.message);
  }
  return [...problems].map(([path, message]) => ({ path, message }));
}

export type ParsedEvent = { success: true; event: AnalyticsEvent } | { success: false; problems: Problem[] };

/** Validates a parsed JSON body as POST /api/events would at `now`. */
export function parseIncomingEvent(input: unknown, now: number): ParsedEvent {
  // Valibot takes an array for an object; an event never is one.
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { success: false, problems: [{ path: "body", message: "must be a JSON object" }] };
  }
  const parsed = v.safeParse(incomingEventSchema(now), input);
  return parsed.success ? { success: true, event: parsed.output } : { success: false, problems: describeIssues(parsed.issues) };
}

/** JSON with every object's keys sorted, at every depth: equal events give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** SHA-256, lowercase hex, of the canonical JSON of a validated event. The server's; never the client's. */
export async function eventHash(event: AnalyticsEvent): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(canonicalJson(event)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** The EVENTS queue message: the hash the Worker computed, the event, and when POST /api/events took it. */
export const EventsQueueMessageSchema = v.strictObject({
  hash: v.pipe(v.string(), v.regex(HASH_PATTERN, "must be a SHA-256 hex digest")),
  event: AnalyticsEventSchema,
  receivedAt: v.pipe(v.string(), v.isoTimestamp("must be an ISO-8601 timestamp")),
});

export type EventsQueueMessage = v.InferOutput<typeof EventsQueueMessageSchema>;

export type ParsedMessage = { success: true; message: EventsQueueMessage } | { success: false; reason: string };

/** Checks a queue message and that its hash is the event's own (a message is never trusted). */
export async function parseQueueMessage(body: unknown): Promise<ParsedMessage> {
  const parsed = v.safeParse(EventsQueueMessageSchema, body);
  if (!parsed.success) {
    return {
      success: false,
      reason: describeIssues(parsed.issues)
        .map((p) => `${p.path}: ${p.message}`)
        .join("; "),
    };
  }
  if ((await eventHash(parsed.output.event)) !== parsed.output.hash) {
    return { success: false, reason: "hash: is not the SHA-256 of the event" };
  }
  return { success: true, message: parsed.output };
}
