// After the last retry (decision 007): the dead-letter queue's consumer parks
// the event in D1, and `npm run events:replay` (POST /api/events/replay with the
// replay secret) puts it back; it then arrives once. Retries here are immediate
// (EVENTS_RETRY_BASE_SECONDS=0) and the queue allows 2 of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capture } from "../../scripts/lib/run";
import { ROOT, eventsConsumers, startPortal, type Portal } from "../support/portal";
import { TEMPLATE_STATE } from "../support/state";
import { expectedHash, postEvent, sampleEvent, startFakeEventsService, waitFor, type FakeEventsService } from "../support/fake-events-service";

const API_KEY = "test-events-api-key-0123456789";
const REPLAY_SECRET = "replay-secret-for-tests-0123456789abcdef";
const MAX_RETRIES = 2;
let fake: FakeEventsService;
let portal: Portal;

beforeAll(async () => {
  fake = await startFakeEventsService({ mode: "down" });
  portal = await startPortal({
    template: TEMPLATE_STATE,
    vars: {
      EVENTS_ENDPOINT: fake.url,
      EVENTS_API_KEY: API_KEY,
      EVENTS_RETRY_BASE_SECONDS: "0",
      EVENTS_RETRY_MAX_SECONDS: "1",
      EVENTS_REPLAY_SECRET: REPLAY_SECRET,
    },
    queueConsumers: eventsConsumers({ maxRetries: MAX_RETRIES }),
  });
});

afterAll(async () => {
  await portal?.dispose();
  await fake?.close();
});

interface Parked {
  hash: string;
  message_json: string;
  last_error: string | null;
  generation: number;
}

async function parked(hash: string): Promise<Parked | null> {
  const db = await portal.db();
  return db.prepare("SELECT hash, message_json, last_error, generation FROM analytics_parked WHERE hash = ?").bind(hash).first<Parked>();
}

async function parkedCount(): Promise<number> {
  const db = await portal.db();
  return (await db.prepare("SELECT count(*) AS n FROM analytics_parked").first<number>("n")) ?? 0;
}

/** POST /api/events/replay with `secret` (null: no Authorization header). */
function replay(secret: string | null = REPLAY_SECRET) {
  return portal.fetch("/api/events/replay", { method: "POST", headers: secret === null ? {} : { Authorization: `Bearer ${secret}` } });
}

/** `npm run events:replay -- --url <portal>`, as an operator runs it. */
function replayCommand(): Promise<string> {
  return capture("npx", ["tsx", "scripts/events-replay.ts", "--url", portal.url], { cwd: ROOT, env: { ...process.env, EVENTS_REPLAY_SECRET: REPLAY_SECRET } });
}

describe("dead letters", () => {
  const event = sampleEvent({ eventId: "ParkedEvent" });
  const hash = expectedHash(event);

  it(`parks an event after its last retry (${MAX_RETRIES + 1} deliveries), with the last error`, async () => {
    fake.mode = "down";
    expect((await postEvent(portal, event)).status).toBe(202);
    const row = await waitFor("the event parked", () => parked(hash));
    expect(fake.requestsFor(hash)).toHaveLength(MAX_RETRIES + 1);
    expect(fake.arrivals.size).toBe(0);
    expect(JSON.parse(row.message_json)).toEqual({ hash, event, receivedAt: expect.any(String) });
    expect(row.last_error).toMatch(/HTTP 503|Network connection lost/);
    const db = await portal.db();
    expect(await db.prepare("SELECT status FROM analytics_seen WHERE hash = ?").bind(hash).first("status")).toBe("pending");
  });

  it("refuses a replay without the right secret, and leaves the event parked", async () => {
    // No credentials at all: a cross-site POST as far as the Worker can tell (403).
    expect((await replay(null)).status).toBe(403);
    for (const secret of ["wrong-secret", `${REPLAY_SECRET}x`, REPLAY_SECRET.slice(0, -1)]) {
      const response = await replay(secret);
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
    }
    expect((await portal.fetch("/api/events/replay")).status).toBe(405);
    expect(await parked(hash)).not.toBeNull();
    expect(fake.requestsFor(hash)).toHaveLength(MAX_RETRIES + 1);
  });

  it("npm run events:replay brings the event back once the service is up, and it arrives once", async () => {
    fake.mode = "up";
    const output = await replayCommand();
    expect(output).toMatch(/Replayed 1 parked event\(s\); removed 0 already relayed; 0 still parked\./);
    await waitFor("the replayed event at the service", () => fake.arrivals.has(String(event.clientEventId)));
    expect(fake.arrivals.get(String(event.clientEventId))).toBe(1);
    expect(fake.requestsFor(hash).filter((request) => request.status === 200)).toHaveLength(1);
    expect(await parkedCount()).toBe(0);

    // Running it again finds nothing and sends nothing.
    expect(await replayCommand()).toMatch(/Replayed 0 parked event\(s\)/);
    const marker = sampleEvent({ eventId: "Marker" });
    expect((await postEvent(portal, marker)).status).toBe(202);
    await waitFor("the marker", () => fake.arrivals.has(String(marker.clientEventId)));
    expect(fake.requestsFor(hash).filter((request) => request.status === 200)).toHaveLength(1);
  });

  it("a replay removes, without sending, a parked event that was relayed meanwhile", async () => {
    fake.mode = "up";
    const relayed = sampleEvent();
    const relayedHash = expectedHash(relayed);
    const db = await portal.db();
    const now = new Date().toISOString();
    await db.batch([
      db.prepare("INSERT INTO analytics_seen (hash, received_at, status, relayed_at, attempts) VALUES (?, ?, 'relayed', ?, 1)").bind(relayedHash, now, now),
      db
        .prepare("INSERT INTO analytics_parked (hash, message_json, parked_at) VALUES (?, ?, ?)")
        .bind(relayedHash, JSON.stringify({ hash: relayedHash, event: relayed, receivedAt: now }), now),
    ]);
    const response = await replay();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ replayed: 0, skipped: 1, remaining: 0 });
    expect(fake.requestsFor(relayedHash)).toEqual([]);
  });

  it("a delivery that meets another consumer's live claim is never acked unsent: it is parked, and replayed once the claim is gone", async () => {
    fake.mode = "up";
    const contested = sampleEvent();
    const contestedHash = expectedHash(contested);
    const db = await portal.db();
    // Another consumer is relaying this event right now (a fresh claim).
    await db
      .prepare("INSERT INTO analytics_seen (hash, received_at, status, claim_token, claimed_at, attempts) VALUES (?, ?, 'claimed', 'other-consumer', ?, 1)")
      .bind(contestedHash, new Date().toISOString(), Date.now())
      .run();
    expect((await postEvent(portal, contested)).status).toBe(202);
    await waitFor("the contested event parked", () => parked(contestedHash));
    expect(fake.requestsFor(contestedHash)).toEqual([]);

    // That consumer died after all and its claim was released: the replay relays the event, once.
    await db.prepare("UPDATE analytics_seen SET status = 'pending', claim_token = NULL, claimed_at = NULL WHERE hash = ?").bind(contestedHash).run();
    expect(await (await replay()).json()).toEqual({ replayed: 1, skipped: 0, remaining: 0 });
    await waitFor("the contested event at the service", () => fake.arrivals.has(String(contested.clientEventId)));
    expect(fake.requestsFor(contestedHash)).toHaveLength(1);
  });

  it("a replay refuses a bad limit", async () => {
    const response = await portal.fetch("/api/events/replay?limit=0", { method: "POST", headers: { Authorization: `Bearer ${REPLAY_SECRET}` } });
    expect(response.status).toBe(400);
  });
});
