// The browser's analytics queue with a stand-in fetch and storage and fake timers: one event at a time, in order, kept
// across a reload, never the same event twice in a page life, and what a failure, a 429, a 5xx, a 4xx and being
// offline each do. The page's own queue runs in Chromium in tests/e2e/analytics.spec.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EVENTS_ENDPOINT, EventQueue, type EventQueueDeps, type QueuedEvent } from "./analytics-queue";
import type { AnalyticsEvent } from "./analytics";

const QUEUE_KEY = "pp:analytics:queue";

function item(name: string, eventType: AnalyticsEvent["eventType"] = "Regular"): QueuedEvent {
  return { hash: `hash-${name}`, event: { eventId: name, eventType } as AnalyticsEvent };
}

/** localStorage as a Map; `denied` makes every use throw, as a browser that refuses storage does. */
function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  const state = { denied: false };
  const guard = () => {
    if (state.denied) throw new DOMException("denied", "SecurityError");
  };
  const storage = {
    getItem: (key: string) => (guard(), items.get(key) ?? null),
    setItem: (key: string, value: string) => (guard(), void items.set(key, value)),
    removeItem: (key: string) => (guard(), void items.delete(key)),
  };
  return { storage, items, state };
}

/** A fetch whose answers the test gives one at a time, in order; each call waits for its answer. */
function scriptedFetch() {
  const calls: { input: string; init: RequestInit; answer: (response: Response | Error) => void }[] = [];
  const fetch: EventQueueDeps["fetch"] = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      calls.push({ input, init, answer: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
  const sentIds = () => calls.map((call) => (JSON.parse(call.init.body as string) as { eventId: string }).eventId);
  return { fetch, calls, sentIds };
}

const ok = () => new Response(null, { status: 202 });
const flush = () => vi.advanceTimersByTimeAsync(0);

function setUp(initial: Record<string, string> = {}) {
  const store = memoryStorage(initial);
  const net = scriptedFetch();
  const queue = new EventQueue({ fetch: net.fetch, storage: () => store.storage });
  const stored = () => JSON.parse(store.items.get(QUEUE_KEY) ?? "[]") as QueuedEvent[];
  return { queue, net, store, stored };
}

let warned: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.useFakeTimers();
  warned = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  warned.mockRestore();
});

describe("the analytics queue", () => {
  it("posts one event at a time, in order, each as JSON to /api/events with keepalive", async () => {
    const { queue, net, stored } = setUp();
    queue.add(item("A"));
    queue.add(item("B"));
    await flush();
    expect(net.sentIds()).toEqual(["A"]);
    expect(net.calls[0]!.input).toBe(EVENTS_ENDPOINT);
    expect(net.calls[0]!.init).toMatchObject({ method: "POST", headers: { "Content-Type": "application/json" }, keepalive: true });
    net.calls[0]!.answer(ok());
    await flush();
    expect(net.sentIds()).toEqual(["A", "B"]);
    expect(stored().map((q) => q.hash)).toEqual(["hash-B"]);
    net.calls[1]!.answer(ok());
    await flush();
    expect(stored()).toEqual([]);
  });

  it("does not queue an event again while it waits or once it was sent in this page life", async () => {
    const { queue, net } = setUp();
    expect(queue.add(item("A"))).toBe(true);
    expect(queue.add(item("A"))).toBe(false);
    await flush();
    net.calls[0]!.answer(ok());
    await flush();
    expect(queue.add(item("A"))).toBe(false);
    await flush();
    expect(net.sentIds()).toEqual(["A"]);
  });

  it("sends after a reload what the page before left queued, drops broken entries and the old list of sent hashes", async () => {
    const { queue, net, store } = setUp({
      [QUEUE_KEY]: JSON.stringify([item("LEFT"), { hash: 7 }, null]),
      "pp:analytics:sent": JSON.stringify(["hash-LEFT"]),
    });
    void queue.send();
    await flush();
    expect(net.sentIds()).toEqual(["LEFT"]);
    expect(store.items.has("pp:analytics:sent")).toBe(false);
  });

  it("sends an Error or Exception event once across page loads in the same browser; other events once per page life", async () => {
    const first = setUp();
    first.queue.add(item("ERR", "Error"));
    first.queue.add(item("EXC", "Exception"));
    first.queue.add(item("VIEW"));
    for (let i = 0; i < 3; i += 1) {
      await flush();
      first.net.calls[i]!.answer(ok());
    }
    await flush();
    expect(first.net.sentIds()).toEqual(["ERR", "EXC", "VIEW"]);

    // A reload: a new queue over the same storage.
    const net = scriptedFetch();
    const reloaded = new EventQueue({ fetch: net.fetch, storage: () => first.store.storage });
    expect(reloaded.add(item("ERR", "Error"))).toBe(false);
    expect(reloaded.add(item("EXC", "Exception"))).toBe(false);
    expect(reloaded.add(item("VIEW"))).toBe(true);
    await flush();
    expect(net.sentIds()).toEqual(["VIEW"]);
  });

  it("remembers an error another tab sent after this one loaded, and only the newest 500", async () => {
    const { queue, net, store } = setUp({ "pp:analytics:sent-once": JSON.stringify(Array.from({ length: 500 }, (_, i) => `old-${i}`)) });
    const other = new EventQueue({ fetch: () => Promise.resolve(ok()), storage: () => store.storage });
    queue.add(item("MINE", "Error"));
    other.add(item("THEIRS", "Exception"));
    await flush();
    net.calls[0]!.answer(ok());
    await flush();
    const remembered = JSON.parse(store.items.get("pp:analytics:sent-once")!) as string[];
    expect(remembered).toHaveLength(500);
    expect(remembered.slice(-2).sort()).toEqual(["hash-MINE", "hash-THEIRS"]);
    expect(remembered).not.toContain("old-0");
  });

  it("does not count an error the server refused as sent", async () => {
    const { queue, net, store } = setUp();
    queue.add(item("ERR", "Error"));
    await flush();
    net.calls[0]!.answer(new Response(null, { status: 400 }));
    await flush();
    expect(store.items.get("pp:analytics:sent-once")).toBeUndefined();
  });

  it("keeps the newest 200 events when it is full", () => {
    const { queue, stored } = setUp();
    vi.stubGlobal("navigator", { onLine: false });
    for (let i = 0; i < 205; i++) queue.add(item(`E${i}`));
    expect(stored()).toHaveLength(200);
    expect(stored()[0]!.hash).toBe("hash-E5");
  });

  it("waits 1 s after a network failure, doubling to a minute, and starts again at 1 s after a success", async () => {
    const { queue, net } = setUp();
    queue.add(item("A"));
    await flush();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      net.calls.at(-1)!.answer(new TypeError("Failed to fetch"));
      await flush();
      const before = net.calls.length;
      let waited = 0;
      while (net.calls.length === before) {
        await vi.advanceTimersByTimeAsync(1_000);
        waited += 1_000;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    net.calls.at(-1)!.answer(ok());
    await flush();
    queue.add(item("B"));
    await flush();
    net.calls.at(-1)!.answer(new TypeError("Failed to fetch"));
    await flush();
    const before = net.calls.length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(net.calls.length).toBe(before + 1);
  });

  it("tries a 5xx again later and keeps the event", async () => {
    const { queue, net, stored } = setUp();
    queue.add(item("A"));
    await flush();
    net.calls[0]!.answer(new Response(null, { status: 503 }));
    await flush();
    expect(stored().map((q) => q.hash)).toEqual(["hash-A"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(net.sentIds()).toEqual(["A", "A"]);
  });

  it("waits as long as a 429's Retry-After says, 30 s without one", async () => {
    for (const [header, seconds] of [
      ["5", 5],
      [null, 30],
    ] as const) {
      const { queue, net } = setUp();
      queue.add(item("A"));
      await flush();
      net.calls[0]!.answer(new Response(null, { status: 429, headers: header ? { "Retry-After": header } : {} }));
      await flush();
      await vi.advanceTimersByTimeAsync(seconds * 1_000 - 1);
      expect(net.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(net.calls).toHaveLength(2);
    }
  });

  it("drops an event the server refuses (4xx) with a warning and sends the next", async () => {
    const { queue, net, stored } = setUp();
    queue.add(item("BAD"));
    queue.add(item("NEXT"));
    await flush();
    net.calls[0]!.answer(new Response(null, { status: 400 }));
    await flush();
    expect(net.sentIds()).toEqual(["BAD", "NEXT"]);
    expect(stored().map((q) => q.hash)).toEqual(["hash-NEXT"]);
    expect(warned).toHaveBeenCalledWith("Analytics event refused", 400, "BAD");
  });

  it("sends nothing while offline and everything once told to send again", async () => {
    const { queue, net } = setUp();
    const online = { onLine: false };
    vi.stubGlobal("navigator", online);
    queue.add(item("A"));
    await flush();
    expect(net.calls).toHaveLength(0);
    online.onLine = true;
    void queue.send();
    await flush();
    expect(net.sentIds()).toEqual(["A"]);
  });

  it("works for the page's life when storage is denied", async () => {
    const { queue, net, store } = setUp();
    store.state.denied = true;
    queue.add(item("A"));
    await flush();
    expect(net.sentIds()).toEqual(["A"]);
  });
});
