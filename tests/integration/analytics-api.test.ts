// POST /api/events (decision 007) and /__dev/events, against the built Worker.
// A spy Worker takes the EVENTS queue in the first portal, so the tests see
// exactly what was queued: every accepted event, and nothing refused.
import { describe, expect, it } from "vitest";
import { EVENTS_QUEUE, eventsConsumers } from "../support/portal";
import { usePortal } from "../support/use-portal";
import { expectedHash, freshIp, postEvent, sampleEvent, waitFor } from "../support/fake-events-service";
import { textOf, titleOf } from "../support/html";

interface Problem {
  path: string;
  message: string;
}
interface Refusal {
  message: string;
  issues: Problem[];
}
interface QueuedMessage {
  hash: string;
  event: Record<string, unknown>;
  receivedAt: string;
}

/** The user and business fields of an event posted signed out, whatever it claimed. */
const NOBODY = { userEmail: null, userName: null, userId: null, userGender: null, extrasObject: { businessName: null, businessId: null } };

describe("POST /api/events", () => {
  const portal = usePortal({ spyOnQueue: EVENTS_QUEUE });
  /** Every event answered 202, in order: exactly these must be on the queue. */
  const accepted: Record<string, unknown>[] = [];

  async function refused(body: unknown): Promise<Refusal> {
    const response = await postEvent(portal(), body);
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    return await response.json<Refusal>();
  }

  const MINUTE = 60_000;
  const DAY = 24 * 60 * MINUTE;
  const big = (n: number) => "x".repeat(n);

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ["an eventId with spaces", { eventId: "Merchants List" }, "eventId", /spaces/],
    ["an empty eventId", { eventId: "" }, "eventId", /1 to 100 characters/],
    ["an eventId over 100 characters", { eventId: big(101) }, "eventId", /1 to 100 characters/],
    ["a description over 500 characters", { eventDescription: big(501) }, "eventDescription", /500/],
    ["an unknown eventType", { eventType: "Click" }, "eventType", /Regular, Duration, Error, Exception/],
    ["an unknown value type", { eventValue: { type: "Boolean", value: true } }, "eventValue.type", /Double, Decimal, Int, String, Object/],
    ["an Int that is not whole", { eventValue: { type: "Int", value: 2.5 } }, "eventValue.value", /whole number/],
    ["a Double given as text", { eventValue: { type: "Double", value: "2.5" } }, "eventValue.value", /finite number/],
    ["a String value over 2000 characters", { eventValue: { type: "String", value: big(2001) } }, "eventValue.value", /2000/],
    ["an Object value that is an array", { eventValue: { type: "Object", value: [1, 2] } }, "eventValue.value", /JSON object/],
    ["an Object value over 8 KB", { eventValue: { type: "Object", value: { blob: big(8200) } } }, "eventValue.value", /8 KB/],
    ["a value without its type", { eventValue: { value: 1 } }, "eventValue.type", /Double, Decimal/],
    ["another platform", { appPlatform: "iOS" }, "appPlatform", /"Web"/],
    ["another app version", { appVersion: "0.1.0" }, "appVersion", /"0\.2\.0"/],
    ["another app id", { appId: "someone-else" }, "appId", /"partners-portal"/],
    ["another country", { userCountry: "NG" }, "userCountry", /"GH"/],
    ["a user email that is not text", { userEmail: 42 }, "userEmail", /string .*or null/],
    ["a section name with hyphens", { sectionName: "Add-Merchant" }, "sectionName", /spaces or hyphens/],
    ["a section name with spaces", { sectionName: "Add Merchant" }, "sectionName", /spaces or hyphens/],
    ["extras without businessId", { extrasObject: { businessName: null } }, "extrasObject.businessId", /required/],
    ["occurredAt more than 5 minutes ahead", { occurredAt: Date.now() + 6 * MINUTE }, "occurredAt", /5 minutes in the future/],
    ["occurredAt older than 7 days", { occurredAt: Date.now() - 8 * DAY }, "occurredAt", /older than 7 days/],
    ["occurredAt that is not whole milliseconds", { occurredAt: 1.5 }, "occurredAt", /epoch milliseconds/],
    ["occurredAt as a date string", { occurredAt: "2026-11-21T10:00:00Z" }, "occurredAt", /epoch milliseconds/],
    ["a clientEventId that is not a UUID", { clientEventId: "event-1" }, "clientEventId", /UUID/],
    ["a hash from the client", { hash: "0".repeat(64) }, "hash", /not a field/],
  ])("400 for %s, naming the field", async (_name, change, path, message) => {
    const body = await refused(sampleEvent(change));
    const issue = body.issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(body.issues)).toBeDefined();
    expect(issue!.message).toMatch(message);
    expect(body.message).toContain(path);
    // Only what is wrong is listed.
    expect(body.issues).toHaveLength(1);
  });

  it("400 lists every problem at once, and every missing field", async () => {
    const several = await refused(sampleEvent({ eventType: "Click", appOs: big(101), clientEventId: "x" }));
    expect(several.issues.map((i) => i.path).sort()).toEqual(["appOs", "clientEventId", "eventType"]);
    expect(several.message).toMatch(/3 problems/);

    const empty = await refused({});
    const fields = Object.keys(sampleEvent());
    expect(empty.issues.map((i) => i.path).sort()).toEqual([...fields].sort());
    for (const issue of empty.issues) expect(issue.message).toBe("is required");
  });

  it.each([
    ["not JSON", "{eventId:"],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
    ["an empty body", ""],
  ])("400 for a body that is %s", async (_name, text) => {
    const body = await refused(text);
    expect(body.issues).toEqual([{ path: "body", message: expect.stringMatching(/JSON object/) }]);
  });

  it.each<[string, Record<string, string>]>([
    ["another site's Origin", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["another site's Origin from a browser without Sec-Fetch-Site", { Origin: "https://evil.example" }],
    ["a cross-site fetch that claims our Origin", { Origin: "OWN", "Sec-Fetch-Site": "cross-site" }],
    ["a same-site (not same-origin) page", { Origin: "OWN", "Sec-Fetch-Site": "same-site" }],
    ["an opaque Origin", { Origin: "null" }],
    ["another port on this host", { Origin: "http://127.0.0.1:1" }],
  ])("403 for %s", async (_name, origin) => {
    const headers = Object.fromEntries(Object.entries(origin).map(([name, value]) => [name, value === "OWN" ? portal().url : value]));
    const response = await portal().fetch("/api/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp(), ...headers },
      body: JSON.stringify(sampleEvent()),
    });
    expect(response.status).toBe(403);
  });

  it("403 when neither Origin nor Sec-Fetch-Site says where the request came from", async () => {
    const response = await portal().fetch("/api/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
      body: JSON.stringify(sampleEvent()),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/own pages/) });
  });

  it("413 for a body over 16 KB, declared or streamed", async () => {
    const huge = JSON.stringify(sampleEvent({ eventDescription: big(17 * 1024) }));
    const declared = await postEvent(portal(), huge);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ message: "The event is larger than 16 KB" });

    // No Content-Length: the Worker counts while reading.
    const bytes = new TextEncoder().encode(huge);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4096) controller.enqueue(bytes.slice(i, i + 4096));
        controller.close();
      },
    });
    const streamed = await portal().fetch("/api/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: portal().url, "Sec-Fetch-Site": "same-origin", "CF-Connecting-IP": freshIp() },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("202 for a valid event: the Worker queues { hash, event, receivedAt } with its own hash", async () => {
    const event = sampleEvent({ eventValue: { type: "Object", value: { b: 1, a: { d: [1, 2], c: "x" } } } });
    const response = await postEvent(portal(), event);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true });
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    accepted.push(event);
  });

  it("202 for events with or without a claimed user, and for every value type", async () => {
    const events = [
      sampleEvent({
        userEmail: "ama.mensah@example.com",
        userName: "Ama Mensah",
        userId: "233244123456",
        userGender: "Female",
        extrasObject: { businessName: "Kumasi Fresh Foods", businessId: "biz_kumasi" },
      }),
      sampleEvent({ eventType: "Duration", eventValue: { type: "Double", value: 1234.5 } }),
      sampleEvent({ eventType: "Error", eventValue: { type: "Decimal", value: 0.1 } }),
      sampleEvent({
        eventType: "Exception",
        eventId: "UncaughtException",
        eventValue: { type: "String", value: "TypeError: x is undefined" },
        sectionName: "",
      }),
    ];
    for (const event of events) {
      const response = await postEvent(portal(), event);
      expect(response.status, JSON.stringify(await response.clone().json())).toBe(202);
      // Nobody is signed in: the claimed user is queued as nobody (analytics-identity.test.ts).
      accepted.push({ ...event, ...NOBODY });
    }
  });

  it("202 for the same event posted twice (the consumer relays it once)", async () => {
    const event = sampleEvent();
    const ip = freshIp();
    for (let i = 0; i < 2; i += 1) {
      expect((await postEvent(portal(), event, { ip })).status).toBe(202);
      accepted.push(event);
    }
  });

  it("429 with Retry-After past 120 events a minute from one client, counted exactly", async () => {
    const ip = freshIp();
    const events = Array.from({ length: 130 }, () => sampleEvent());
    const responses = await Promise.all(events.map((event) => postEvent(portal(), event, { ip })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(120);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    for (const [i, response] of responses.entries()) {
      if (response.status === 202) accepted.push(events[i]!);
      if (response.status !== 429) continue;
      const retryAfter = Number(response.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await response.json<{ message: string }>()).message).toMatch(/Too many events/);
    }
    // Another client is not affected.
    const other = sampleEvent();
    expect((await postEvent(portal(), other)).status).toBe(202);
    accepted.push(other);
  });

  it("answers GET with 405 and unknown paths below it with 404", async () => {
    const get = await portal().fetch("/api/events");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const unknown = await portal().fetch("/api/events/other", { method: "POST", headers: { Origin: portal().url }, body: "{}" });
    expect(unknown.status).toBe(404);
  });

  it("queued exactly the accepted events, each with the server's hash, and nothing it refused", async () => {
    const marker = sampleEvent({ eventId: "Marker" });
    expect((await postEvent(portal(), marker)).status).toBe(202);
    accepted.push(marker);
    const queued = await waitFor<QueuedMessage[] | null>("the marker on the queue", async () => {
      const bodies = (await portal().queued()) as QueuedMessage[];
      return bodies.some((b) => b.event.clientEventId === marker.clientEventId) ? bodies : null;
    });

    expect(queued.map((m) => m.hash).sort()).toEqual(accepted.map(expectedHash).sort());
    for (const message of queued) {
      expect(Object.keys(message).sort()).toEqual(["event", "hash", "receivedAt"]);
      expect(message.hash).toBe(expectedHash(message.event));
      expect(new Date(message.receivedAt).toISOString()).toBe(message.receivedAt);
    }
    const first = queued.find((m) => m.event.clientEventId === accepted[0]!.clientEventId);
    expect(first?.event).toEqual(accepted[0]);
  });
});

describe("with the queue consumer and no EVENTS_ENDPOINT (the local default)", () => {
  const portal = usePortal({ queueConsumers: eventsConsumers({ maxRetries: 3 }) });

  interface Listing {
    total: number;
    events: { hash: string; receivedAt: string; event: Record<string, unknown> }[];
  }
  const listing = async () => await (await portal().fetch("/__dev/events", { headers: { Accept: "application/json" } })).json<Listing>();

  it("stores each accepted event once in D1 and lists it at /__dev/events, newest first", async () => {
    const first = sampleEvent({ eventId: "FirstEvent" });
    const second = sampleEvent({ eventId: "SecondEvent", eventType: "Error", eventValue: { type: "String", value: "<script>alert(1)</script>" } });
    expect((await postEvent(portal(), first)).status).toBe(202);
    await waitFor("the first event stored", async () => (await listing()).total === 1);
    expect((await postEvent(portal(), second)).status).toBe(202);
    expect((await postEvent(portal(), second)).status).toBe(202);
    await waitFor("the second event stored", async () => (await listing()).events.some((e) => e.event.eventId === "SecondEvent"));

    // A marker after the duplicate: once it is stored, the duplicate has been handled.
    const marker = sampleEvent({ eventId: "Marker" });
    expect((await postEvent(portal(), marker)).status).toBe(202);
    await waitFor("the marker stored", async () => (await listing()).events.some((e) => e.event.eventId === "Marker"));

    const list = await listing();
    expect(list.total).toBe(3);
    expect(list.events.map((e) => e.event.eventId)).toEqual(["Marker", "SecondEvent", "FirstEvent"]);
    expect(list.events[1]).toEqual({ hash: expectedHash(second), receivedAt: expect.any(String), event: second });

    const db = await portal().db();
    const seen = await db.prepare("SELECT status FROM analytics_seen WHERE hash = ?").bind(expectedHash(second)).first<{ status: string }>();
    expect(seen?.status).toBe("relayed");
  });

  it("shows the same events as an HTML page, escaped", async () => {
    const response = await portal().fetch("/__dev/events");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const html = await response.text();
    expect(titleOf(html)).toBe("Analytics events");
    const text = textOf(html);
    expect(text.indexOf("Marker")).toBeLessThan(text.indexOf("SecondEvent"));
    expect(text.indexOf("SecondEvent")).toBeLessThan(text.indexOf("FirstEvent"));
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(response.headers.get("Content-Security-Policy")).toContain("script-src");
  });

  it("refuses a bad limit with 400", async () => {
    const response = await portal().fetch("/__dev/events?limit=0", { headers: { Accept: "application/json" } });
    expect(response.status).toBe(400);
    const limited = await (await portal().fetch("/__dev/events?limit=1", { headers: { Accept: "application/json" } })).json();
    expect((limited as Listing).events).toHaveLength(1);
  });
});

describe("in production", () => {
  const portal = usePortal({ vars: { ENVIRONMENT: "production", SESSION_SECRET: "p".repeat(48) } });

  it("/__dev/events is a 404, as HTML and as JSON", async () => {
    const html = await portal().fetch("/__dev/events");
    expect(html.status).toBe(404);
    expect(titleOf(await html.text())).toBe("Page Not Found");
    const json = await portal().fetch("/__dev/events", { headers: { Accept: "application/json" } });
    expect(json.status).toBe(404);
    expect(await json.json()).toEqual({ message: "Page Not Found: /__dev/events" });
  });

  it("POST /api/events still takes events", async () => {
    expect((await postEvent(portal(), sampleEvent())).status).toBe(202);
  });

  it("the replay endpoint does not exist without EVENTS_REPLAY_SECRET", async () => {
    const response = await portal().fetch("/api/events/replay", { method: "POST", headers: { Authorization: "Bearer anything" } });
    expect(response.status).toBe(404);
  });
});
