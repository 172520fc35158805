import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  browserOf,
  buildEvent,
  canonicalJson,
  eventHash,
  eventIdOf,
  failedRequestInput,
  httpStatusName,
  isFailedRequest,
  isPageView,
  sectionName,
  signInFailedInput,
  uncaughtExceptionInput,
  type AnalyticsContext,
  type EventInput,
} from "./analytics";
import { AnalyticsEventSchema } from "#server/analytics/schema";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.8078.79 Safari/537.36";
const context: AnalyticsContext = { title: "Settlement History", userAgent: CHROME, user: null, business: null };
const ID = "6f1c2b1e-8a8e-4c4b-9f3e-2f7d8c1a5b90";
const NOW = Date.UTC(2026, 10, 21, 9, 30);

describe("sectionName and eventId", () => {
  it.each([
    ["Settlement History", "SettlementHistory"],
    ["Point of Sale Request", "PointofSaleRequest"],
    ["Page Not Found", "PageNotFound"],
    ["Add - Merchant", "AddMerchant"],
    ["Partners Portal", "PartnersPortal"],
  ])("%s -> %s", (title, section) => {
    expect(sectionName(title)).toBe(section);
  });

  it("event ids lose their spaces", () => {
    expect(eventIdOf(" Page  View ")).toBe("PageView");
  });
});

describe("browserOf", () => {
  it.each([
    [CHROME, "Chrome 156"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86", "Edge 131"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox 133"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "Safari 18"],
    ["Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36", "Samsung Internet 26"],
    ["Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0", "Opera 115"],
    ["curl/8.5.0", "Unknown"],
  ])("%s", (userAgent, expected) => {
    expect(browserOf(userAgent)).toBe(expected);
  });
});

describe("buildEvent", () => {
  const event = buildEvent(
    {
      eventId: "Page View",
      eventDescription: "Viewed Settlement History",
      eventType: "Regular",
      eventValue: { type: "String", value: "/money/settlement-history" },
    },
    context,
    NOW,
    ID,
  );

  it("fills every field of SPEC section 3", () => {
    expect(event).toEqual({
      eventId: "PageView",
      eventDescription: "Viewed Settlement History",
      eventType: "Regular",
      eventValue: { type: "String", value: "/money/settlement-history" },
      appOs: "Chrome 156",
      appPlatform: "Web",
      appBuildNumber: "0.2.0",
      appId: "partners-portal",
      appName: "Partners Portal",
      appVersion: "0.2.0",
      userCountry: "GH",
      userEmail: null,
      userName: null,
      userId: null,
      userGender: null,
      sectionName: "SettlementHistory",
      extrasObject: { businessName: null, businessId: null },
      occurredAt: NOW,
      clientEventId: ID,
    });
  });

  it("carries the signed-in user (userId is the phone) and the business", () => {
    const signedIn = buildEvent(
      { eventId: "x", eventDescription: "", eventType: "Regular", eventValue: { type: "Int", value: 1 } },
      {
        ...context,
        user: { email: "ama.mensah@example.com", name: "Ama Mensah", phone: "233244123456", gender: "female" },
        business: { name: "Kumasi Fresh Foods", id: "bus_kumasi_fresh_foods" },
      },
      NOW,
      ID,
    );
    expect(signedIn).toMatchObject({
      userEmail: "ama.mensah@example.com",
      userName: "Ama Mensah",
      userId: "233244123456",
      userGender: "female",
      extrasObject: { businessName: "Kumasi Fresh Foods", businessId: "bus_kumasi_fresh_foods" },
    });
  });

  it("is exactly what the server accepts", () => {
    const now = Date.now();
    for (const input of [
      { eventId: "PageView", eventDescription: "Viewed", eventType: "Regular" as const, eventValue: { type: "String" as const, value: "/" } },
      { eventId: "NavigationDuration", eventDescription: "ms", eventType: "Duration" as const, eventValue: { type: "Double" as const, value: 123.4 } },
      failedRequestInput({ url: "/merchants.data", method: "GET", status: 500, message: "Unexpected Server Error", errors: null, stack: null }),
      uncaughtExceptionInput(new Error("boom")),
      signInFailedInput("microsoft", "popup_closed", "The sign-in window was closed before sign-in finished. Please try again."),
    ]) {
      const result = v.safeParse(AnalyticsEventSchema, buildEvent(input, context, now, crypto.randomUUID()));
      expect(result.issues ?? []).toEqual([]);
    }
  });
});

describe("hashes", () => {
  const a = buildEvent({ eventId: "e", eventDescription: "d", eventType: "Regular", eventValue: { type: "Object", value: { b: 1, a: 2 } } }, context, NOW, ID);

  it("do not depend on key order", async () => {
    const reordered = JSON.parse(canonicalJson(a)) as typeof a;
    const shuffled = { ...reordered, eventValue: { type: "Object" as const, value: { a: 2, b: 1 } } };
    expect(await eventHash(shuffled)).toBe(await eventHash(a));
    expect(await eventHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("are the same for the same event made at another time under another id (so it is not resent)", async () => {
    const again = buildEvent(
      { eventId: "e", eventDescription: "d", eventType: "Regular", eventValue: { type: "Object", value: { a: 2, b: 1 } } },
      context,
      NOW + 60_000,
      "0d9d7f6e-9b0f-4f66-bc5a-7d2b8c9e0a11",
    );
    expect(again.occurredAt).not.toBe(a.occurredAt);
    expect(again.clientEventId).not.toBe(a.clientEventId);
    expect(await eventHash(again)).toBe(await eventHash(a));
  });

  it("tell two happenings apart only by the occurrence the caller names (two visits of a page)", async () => {
    expect(await eventHash(a, "page-life-1:nav-1")).not.toBe(await eventHash(a, "page-life-1:nav-2"));
    expect(await eventHash(a, "page-life-1:nav-1")).toBe(await eventHash(a, "page-life-1:nav-1"));
    expect(await eventHash(a, "page-life-1:nav-1")).not.toBe(await eventHash(a));
  });

  it("differ when anything the event says differs", async () => {
    const hashOf = (input: Partial<EventInput>, ctx: Partial<AnalyticsContext> = {}) =>
      eventHash(
        buildEvent(
          { eventId: "e", eventDescription: "d", eventType: "Regular", eventValue: { type: "Object", value: { b: 1, a: 2 } }, ...input },
          { ...context, ...ctx },
          NOW,
          ID,
        ),
      );
    const base = await eventHash(a);
    const variants = await Promise.all([
      hashOf({ eventId: "f" }),
      hashOf({ eventDescription: "other" }),
      hashOf({ eventType: "Error" }),
      hashOf({ eventValue: { type: "Object", value: { b: 1, a: 3 } } }),
      hashOf({ eventValue: { type: "String", value: "/merchants" } }),
      hashOf({}, { title: "Merchants" }),
      hashOf({}, { userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" }),
      hashOf({}, { user: { email: "ama.mensah@example.com", name: "Ama Mensah", phone: "233244123456", gender: "female" } }),
      hashOf({}, { business: { name: "Kumasi Fresh Foods", id: "bus_kumasi_fresh_foods" } }),
    ]);
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });
});

describe("isPageView", () => {
  it("the first page, and every navigation, a link to the page it is on included, is a page view", () => {
    expect(isPageView(null, "/merchants", false)).toBe(true);
    expect(isPageView("/merchants", "/reports", false)).toBe(true);
    expect(isPageView("/merchants", "/merchants?page=2", false)).toBe(true);
    expect(isPageView("/merchants", "/merchants", false)).toBe(true);
  });

  it("a form's answer shown on the page it was sent from (a 400 refusal, or a redirect back) is not", () => {
    expect(isPageView("/merchants/add-merchant", "/merchants/add-merchant", true)).toBe(false);
    expect(isPageView("/settings?tab=team", "/settings?tab=team", true)).toBe(false);
  });

  it("a form that leads elsewhere is", () => {
    expect(isPageView("/merchants/add-merchant", "/merchants", true)).toBe(true);
    expect(isPageView(null, "/merchants", true)).toBe(true);
  });
});

describe("sign-in failures", () => {
  it("is an Error event with the channel, the failure's code and what the page said", () => {
    expect(signInFailedInput("google", "no_network", "No network connection.")).toEqual({
      eventId: "SignInFailed",
      eventDescription: "Sign-in failed (google): no_network",
      eventType: "Error",
      eventValue: { type: "Object", value: { channel: "google", code: "no_network", message: "No network connection." } },
    });
  });
});

describe("failed requests and uncaught errors", () => {
  it.each([
    [400, "400 Bad Request"],
    [401, "401 Unauthorized"],
    [404, "404 Not Found"],
    [429, "429 Too Many Requests"],
    [500, "500 Internal Server Error"],
    [503, "503 Service Unavailable"],
    [418, "418 Client Error"],
    [599, "599 Server Error"],
  ])("status %i is named %s", (status, name) => {
    expect(httpStatusName(status)).toBe(name);
  });

  // What the Worker answers with (refusals, guards, limits, the fresh check, the Partner API, the relay's upstream).
  it.each([
    [405, "405 Method Not Allowed"],
    [409, "409 Conflict"],
    [413, "413 Content Too Large"],
    [415, "415 Unsupported Media Type"],
    [422, "422 Unprocessable Content"],
    [428, "428 Precondition Required"],
    [431, "431 Request Header Fields Too Large"],
    [502, "502 Bad Gateway"],
    [504, "504 Gateway Timeout"],
  ])("the portal's status %i is named %s", (status, name) => {
    expect(httpStatusName(status)).toBe(name);
  });

  it("names every status the portal's code answers with", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const sources = [
      ...(await readdir("functions", { recursive: true })).map((f) => `functions/${f}`),
      ...(await readdir("app", { recursive: true })).map((f) => `app/${f}`),
    ].filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const statuses = new Set<number>();
    for (const file of sources) {
      const text = await readFile(file, "utf8");
      for (const match of text.matchAll(/\bstatus:\s*([45]\d\d)\b|\b(?:problem|jsonResponse|refuse\w*)\(\s*([45]\d\d)\b|\}\s*,\s*([45]\d\d)\b/g))
        statuses.add(Number(match[1] ?? match[2] ?? match[3]));
    }
    expect(statuses.size).toBeGreaterThan(5);
    const unnamed = [...statuses].filter((status) => /(Client|Server) Error$/.test(httpStatusName(status)) && status !== 500);
    expect(unnamed).toEqual([]);
  });

  it("a 428 (an action asking for a fresh check) is no failed request; other 4xx and 5xx are", () => {
    expect(isFailedRequest(428)).toBe(false);
    expect(isFailedRequest(399)).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 504]) expect(isFailedRequest(status), String(status)).toBe(true);
  });

  it("a failed request is an Error event with the status name, URL, method, message, errors and stack", () => {
    const input = failedRequestInput({ url: "/api/x", method: "POST", status: 404, message: "Nope", errors: [{ field: "tin" }], stack: "at x" });
    expect(input).toEqual({
      eventId: "RequestFailed",
      eventDescription: "404 Not Found: POST /api/x",
      eventType: "Error",
      eventValue: {
        type: "Object",
        value: { statusName: "404 Not Found", status: 404, url: "/api/x", method: "POST", message: "Nope", errors: [{ field: "tin" }], stack: "at x" },
      },
    });
  });

  it("an uncaught error is an Exception event with the id UncaughtException by default", () => {
    expect(uncaughtExceptionInput(new TypeError("x is undefined"))).toMatchObject({
      eventId: "UncaughtException",
      eventType: "Exception",
      eventDescription: "x is undefined",
    });
    expect(uncaughtExceptionInput("plain text", "UnhandledRejection")).toMatchObject({ eventId: "UnhandledRejection", eventDescription: "plain text" });
  });
});
