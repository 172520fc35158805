// A stand-in for the events-analytics service: a node:http server on 127.0.0.1
// that the portal's queue consumer relays to (EVENTS_ENDPOINT). It can fail on
// purpose and records every request and the answer it gave.
//
// Like a real idempotent service it stores an event once per X-Idempotency-Key
// (a repeat is answered as the first was, without storing again). `arrivals`
// counts the stored events by the event's own clientEventId, so an event sent
// under two different keys would show up twice.
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildEvent } from "#app/lib/analytics/analytics";
import { readBody } from "./read-body";
import { Rng } from "../../scripts/seed/prng";

export type FakeMode =
  /** 200 for everything. */
  | "up"
  /** Unreachable: alternately 503 and a dropped connection; stores nothing. */
  | "down"
  /**
   * 500 half the time (seeded, so runs repeat): a quarter fail before storing, a
   * quarter store the event and then answer 500 (the answer is "lost").
   */
  | "flaky";

export interface FakeRequest {
  key: string | null;
  apiKey: string | null;
  contentType: string | null;
  body: unknown;
  /** What the service answered; 0 for a dropped connection. */
  status: number;
  /** Whether the service stored the event on this request. */
  stored: boolean;
}

export interface FakeEventsService {
  /** The endpoint to set as EVENTS_ENDPOINT. */
  url: string;
  mode: FakeMode;
  /** How long the service takes to answer (ms), so requests sent side by side would overlap. */
  delayMs: number;
  /** The most requests the service was answering at one time since the last reset (0 = none yet). */
  maxInFlight: number;
  resetInFlight(): void;
  requests: FakeRequest[];
  /** Stored events by clientEventId, with how many times each was stored (1 = exactly once). */
  arrivals: Map<string, number>;
  /** Requests per idempotency key. */
  requestsFor(key: string): FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeEventsService(options: { mode?: FakeMode; seed?: number } = {}): Promise<FakeEventsService> {
  const rng = new Rng(options.seed ?? 7);
  const keys = new Set<string>();
  let downCount = 0;
  let inFlight = 0;
  const service: FakeEventsService = {
    url: "",
    mode: options.mode ?? "up",
    delayMs: 0,
    maxInFlight: 0,
    resetInFlight: () => void (service.maxInFlight = inFlight),
    requests: [],
    arrivals: new Map(),
    requestsFor: (key) => service.requests.filter((request) => request.key === key),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const text = await readBody(request);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const record: FakeRequest = {
      key: request.headers["x-idempotency-key"]?.toString() ?? null,
      apiKey: request.headers["x-api-key"]?.toString() ?? null,
      contentType: request.headers["content-type"] ?? null,
      body,
      status: 0,
      stored: false,
    };
    service.requests.push(record);
    const store = () => {
      if (record.key !== null && keys.has(record.key)) return;
      if (record.key !== null) keys.add(record.key);
      record.stored = true;
      const id = String((body as { clientEventId?: unknown } | null)?.clientEventId);
      service.arrivals.set(id, (service.arrivals.get(id) ?? 0) + 1);
    };
    const answer = (status: number) => {
      record.status = status;
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: status < 300 }));
    };

    if (request.method !== "POST" || request.url !== "/v1/events") return answer(404);
    switch (service.mode) {
      case "up":
        store();
        return answer(200);
      case "down":
        downCount += 1;
        if (downCount % 2 === 0) {
          record.status = 0;
          request.socket.destroy();
          return;
        }
        return answer(503);
      case "flaky": {
        const roll = rng.next();
        if (roll < 0.25) return answer(500);
        store();
        return answer(roll < 0.5 ? 500 : 200);
      }
    }
  }

  const server = createServer((request, response) => {
    inFlight += 1;
    service.maxInFlight = Math.max(service.maxInFlight, inFlight);
    // Answered (finish) or dropped (close), whichever comes first, counts once.
    let answering = true;
    const done = () => {
      if (answering) inFlight -= 1;
      answering = false;
    };
    response.once("finish", done);
    response.once("close", done);
    const answerLater = service.delayMs > 0 ? new Promise((resolve) => setTimeout(resolve, service.delayMs)) : Promise.resolve();
    answerLater.then(() => handle(request, response)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/events`;
  return service;
}

// ------------------------------------------------------------ helpers for the events tests

/** A valid analytics event, made by the browser's own builder (user fields null: nobody is signed in). */
export function sampleEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const event = buildEvent(
    { eventId: "MerchantsListViewed", eventDescription: "The merchants list was shown", eventType: "Regular", eventValue: { type: "Int", value: 25 } },
    { title: "Merchants", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0.0.0 Safari/537.36", user: null, business: null },
    Date.now() - 1000,
    randomUUID(),
  );
  return { ...event, ...overrides };
}

/** SHA-256 hex of the event's JSON with keys sorted at every depth: what the Worker must compute. */
export function expectedHash(event: unknown): string {
  const canonical = (value: unknown): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(",")}}`;
  };
  return createHash("sha256").update(canonical(event)).digest("hex");
}

/** Waits (polling, bounded) until `check` returns something truthy; fails naming `what`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 40_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let ipCounter = 0;
/** A client address of its own, so rate-limit windows never meet across tests. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

interface Fetcher {
  url: string;
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
}

/** POST /api/events from the portal's own page (same origin), from `ip`. */
export function postEvent(portal: Fetcher, body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return portal.fetch("/api/events", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: portal.url,
      "Sec-Fetch-Site": "same-origin",
      "CF-Connecting-IP": options.ip ?? freshIp(),
      ...options.headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
