// The EVENTS queue consumer relaying to an events service (decision 007):
// a local fake service (node:http on 127.0.0.1) that fails on purpose. Retries are
// 1 s apart here (EVENTS_RETRY_BASE_SECONDS=1, EVENTS_RETRY_MAX_SECONDS=1) and the
// queue allows 30 of them, so an outage of a few seconds stands for one of hours.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsConsumers, startPortal, type Portal } from "../support/portal";
import { TEMPLATE_STATE } from "../support/state";
import { expectedHash, postEvent, sampleEvent, startFakeEventsService, waitFor, type FakeEventsService } from "../support/fake-events-service";

const API_KEY = "test-events-api-key-0123456789";
let fake: FakeEventsService;
let portal: Portal;

beforeAll(async () => {
  fake = await startFakeEventsService();
  portal = await startPortal({
    template: TEMPLATE_STATE,
    vars: { EVENTS_ENDPOINT: fake.url, EVENTS_API_KEY: API_KEY, EVENTS_RETRY_BASE_SECONDS: "1", EVENTS_RETRY_MAX_SECONDS: "1" },
    queueConsumers: eventsConsumers({ maxRetries: 30 }),
  });
});

afterAll(async () => {
  await portal?.dispose();
  await fake?.close();
});

type Event = Record<string, unknown>;

async function postAll(events: Event[]): Promise<void> {
  for (const event of events) expect((await postEvent(portal, event)).status).toBe(202);
}

const idOf = (event: Event) => String(event.clientEventId);

/** Waits until the service has stored every one of `events`. */
function allArrived(events: Event[], timeoutMs?: number) {
  return waitFor(`${events.length} events at the service`, () => events.every((event) => fake.arrivals.has(idOf(event))), timeoutMs);
}

/** Waits until a marker sent after everything else has arrived: the queue is drained up to it. */
async function drain(): Promise<void> {
  const marker = sampleEvent({ eventId: "Marker" });
  await postAll([marker]);
  await allArrived([marker]);
}

async function statusOf(hash: string): Promise<{ status: string; attempts: number } | null> {
  const db = await portal.db();
  return db.prepare("SELECT status, attempts FROM analytics_seen WHERE hash = ?").bind(hash).first();
}

/** Every event stored exactly once; per idempotency key exactly one 2xx, and nothing sent after it. */
function expectExactlyOnce(events: Event[]) {
  for (const event of events) {
    expect(fake.arrivals.get(idOf(event)), `stores of ${idOf(event)}`).toBe(1);
    const requests = fake.requestsFor(expectedHash(event));
    const successes = requests.filter((request) => request.status >= 200 && request.status < 300);
    expect(successes, `2xx answers for ${idOf(event)}`).toHaveLength(1);
    expect(requests.at(-1), `nothing sent after the 2xx for ${idOf(event)}`).toBe(successes[0]);
  }
}

describe("the queue consumer with an events service", () => {
  it("relays each event as JSON with the API key and its hash as the idempotency key", async () => {
    fake.mode = "up";
    const events = [sampleEvent(), sampleEvent({ eventType: "Exception", eventValue: { type: "Object", value: { stack: "at x", line: 3 } } })];
    await postAll(events);
    await allArrived(events);
    for (const event of events) {
      const [request, ...others] = fake.requestsFor(expectedHash(event));
      expect(others).toEqual([]);
      expect(request?.apiKey).toBe(API_KEY);
      expect(request?.contentType).toBe("application/json");
      expect(request?.body).toEqual(event);
      expect(await statusOf(expectedHash(event))).toEqual({ status: "relayed", attempts: 1 });
    }
    // Relayed, not stored locally.
    const db = await portal.db();
    expect(await db.prepare("SELECT count(*) AS n FROM analytics_events").first("n")).toBe(0);
  });

  it("sends a batch's events one at a time, in the order of the batch (SPEC section 7)", async () => {
    fake.mode = "up";
    // Slow answers: events sent side by side would be in flight together.
    fake.delayMs = 150;
    try {
      const events = Array.from({ length: 10 }, (_, i) => sampleEvent({ eventId: `InOrder${i}` }));
      const receivedAt = new Date().toISOString();
      const queue = await portal.eventsQueue();
      fake.resetInFlight();
      await queue.sendBatch(events.map((event) => ({ body: { hash: expectedHash(event), event, receivedAt }, contentType: "json" })));
      await allArrived(events);
      expect(fake.maxInFlight, "requests the service was answering at once").toBe(1);
      const keys = new Set(events.map(expectedHash));
      const sent = fake.requests.filter((request) => request.key !== null && keys.has(request.key)).map((request) => request.key);
      expect(sent).toEqual(events.map(expectedHash));
    } finally {
      fake.delayMs = 0;
    }
  });

  it("relays an event posted twice once", async () => {
    fake.mode = "up";
    const event = sampleEvent();
    await postAll([event, event]);
    await allArrived([event]);
    await drain();
    expect(fake.requestsFor(expectedHash(event))).toHaveLength(1);
  });

  it("relays one queue message delivered twice (and again later) once", async () => {
    fake.mode = "up";
    const event = sampleEvent();
    const message = { hash: expectedHash(event), event, receivedAt: new Date().toISOString() };
    const queue = await portal.eventsQueue();
    await queue.send(message, { contentType: "json" });
    await queue.send(message, { contentType: "json" });
    await allArrived([event]);
    await waitFor("the event marked relayed", async () => (await statusOf(message.hash))?.status === "relayed");
    await queue.send(message, { contentType: "json" });
    await drain();
    expect(fake.requestsFor(message.hash)).toHaveLength(1);
  });

  it("loses nothing while the service is down, and relays every event exactly once when it is back", async () => {
    fake.mode = "down";
    const events = Array.from({ length: 6 }, (_, i) => sampleEvent({ eventId: `DownEvent${i}` }));
    await postAll(events);
    // Every event is refused (503 or a dropped connection) at least twice ...
    await waitFor("two failed deliveries of every event", () => events.every((event) => fake.requestsFor(expectedHash(event)).length >= 2));
    for (const event of events) expect((await statusOf(expectedHash(event)))?.status).not.toBe("relayed");
    // ... then the service comes back.
    fake.mode = "up";
    await allArrived(events);
    await drain();
    expectExactlyOnce(events);
    for (const event of events) {
      const failed = fake.requestsFor(expectedHash(event)).filter((request) => request.status === 0 || request.status >= 500);
      expect(failed.length).toBeGreaterThanOrEqual(2);
      const row = await statusOf(expectedHash(event));
      expect(row?.status).toBe("relayed");
      expect(row?.attempts).toBe(failed.length + 1);
    }
    const db = await portal.db();
    expect(await db.prepare("SELECT count(*) AS n FROM analytics_parked").first("n")).toBe(0);
  }, 60_000);

  it("relays every event exactly once when the service answers 500 half the time", async () => {
    fake.mode = "flaky";
    const events = Array.from({ length: 20 }, (_, i) => sampleEvent({ eventId: `FlakyEvent${i}` }));
    await postAll(events);
    await waitFor(
      "every flaky event answered 2xx",
      () => events.every((event) => fake.requestsFor(expectedHash(event)).some((request) => request.status === 200)),
      45_000,
    );
    fake.mode = "up";
    await drain();
    expectExactlyOnce(events);
    const requests = events.flatMap((event) => fake.requestsFor(expectedHash(event)));
    // The service really did fail, both before and after taking an event.
    expect(requests.filter((request) => request.status === 500 && !request.stored).length).toBeGreaterThan(0);
    expect(requests.filter((request) => request.status === 500 && request.stored).length).toBeGreaterThan(0);
  }, 60_000);

  it("takes over the claim of a consumer that died mid-relay", async () => {
    fake.mode = "up";
    const event = sampleEvent();
    const hash = expectedHash(event);
    const db = await portal.db();
    await db
      .prepare("INSERT INTO analytics_seen (hash, received_at, status, claim_token, claimed_at, attempts) VALUES (?, ?, 'claimed', 'dead-consumer', ?, 1)")
      .bind(hash, new Date().toISOString(), Date.now() - 10 * 60_000)
      .run();
    await postAll([event]);
    await allArrived([event]);
    await drain();
    expect(fake.requestsFor(hash)).toHaveLength(1);
    expect(await statusOf(hash)).toEqual({ status: "relayed", attempts: 2 });
  });

  it("drops a queue message whose hash is not its event's, or that is not an event, without relaying", async () => {
    fake.mode = "up";
    const event = sampleEvent();
    const queue = await portal.eventsQueue();
    await queue.send({ hash: "0".repeat(64), event, receivedAt: new Date().toISOString() }, { contentType: "json" });
    await queue.send({ hash: expectedHash(event), event: { ...event, eventType: "Click" }, receivedAt: new Date().toISOString() }, { contentType: "json" });
    await queue.send("not an event", { contentType: "json" });
    await drain();
    expect(fake.arrivals.has(idOf(event))).toBe(false);
    expect(fake.requests.filter((request) => (request.body as Event | null)?.clientEventId === event.clientEventId)).toEqual([]);
  });
});
