// Poison isolation in the EVENTS consumer when it stores events itself (no EVENTS_ENDPOINT; decision 028), as a
// property: random batches with events D1 refuses at random places. Every other event is stored once and acked in the
// same delivery, exactly the refused ones are parked with D1's reason (and acked), and nothing waits for a retry. A
// busy database is not mistaken for poison: the whole batch is retried. The D1 side runs for real in
// tests/integration/analytics-relay.test.ts; here the database is a stand-in so that many batches run in a second.
import fc from "fast-check";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { handleEventsBatch } from "./consumer";
import { APP_FIELDS, eventHash, type AnalyticsEvent, type EventsQueueMessage } from "./schema";

interface FakeMessage extends Message<unknown> {
  outcomes: ("ack" | "retry")[];
}

function message(id: string, body: EventsQueueMessage): FakeMessage {
  const m: FakeMessage = {
    id,
    timestamp: new Date(),
    body,
    attempts: 1,
    outcomes: [],
    ack: () => void m.outcomes.push("ack"),
    retry: () => void m.outcomes.push("retry"),
  };
  return m;
}

async function eventMessage(n: number, description: string): Promise<EventsQueueMessage> {
  const event: AnalyticsEvent = {
    eventId: `page_view_${n}`,
    eventDescription: description,
    eventType: "Regular",
    eventValue: { type: "String", value: `Ɔkɔmfo Anokye ${n} 🇬🇭` },
    appOs: "Linux",
    ...APP_FIELDS,
    userEmail: null,
    userName: null,
    userId: null,
    userGender: null,
    sectionName: "dashboard",
    extrasObject: { businessName: null, businessId: null },
    occurredAt: 1_790_000_000_000 + n,
    clientEventId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  };
  return { hash: await eventHash(event), event, receivedAt: "2026-11-25T10:00:00.000Z" };
}

interface Statement {
  sql: string;
  values: unknown[];
}

/**
 * A database that refuses any batch storing a poisoned hash (as a CHECK would), and, while `busy` lasts, every
 * batch as an overloaded D1 does. It keeps what committed batches stored and parked.
 */
function fakeDb(poisoned: Set<string>, busy: { batches: number }) {
  const stored: string[] = [];
  const parked: { hash: string; error: unknown }[] = [];
  const db = {
    prepare: (sql: string) => ({ bind: (...values: unknown[]): Statement => ({ sql, values }) }),
    batch: async (statements: Statement[]) => {
      if (busy.batches > 0) {
        busy.batches--;
        throw new Error("D1_ERROR: D1 DB is overloaded. Requests queued for too long.");
      }
      const storing = statements.filter((s) => s.sql.startsWith("INSERT INTO analytics_events"));
      const bad = storing.find((s) => poisoned.has(s.values[0] as string));
      if (bad) throw new Error(`D1_ERROR: CHECK constraint failed: event ${String(bad.values[0]).slice(0, 8)}: SQLITE_CONSTRAINT`);
      for (const s of storing) stored.push(s.values[0] as string);
      for (const s of statements.filter((s) => s.sql.startsWith("INSERT INTO analytics_parked")))
        parked.push({ hash: s.values[0] as string, error: s.values[3] });
      return statements.map(() => ({ success: true, results: [], meta: {} }));
    },
  };
  return { db: db as unknown as D1Database, stored, parked };
}

const batchOf = (messages: FakeMessage[]) =>
  ({ queue: "partners-portal-events", messages, ackAll: () => {}, retryAll: () => {} }) as unknown as MessageBatch<unknown>;

beforeEach(() => {
  // The consumer logs every refusal; the property would print thousands of lines.
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

it("stores every good event once and parks exactly the refused ones, with D1's reason, in the same delivery", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ poisoned: fc.boolean(), description: fc.string({ maxLength: 40, unit: "grapheme" }) }), { minLength: 1, maxLength: 40 }),
      async (items) => {
        const bodies = await Promise.all(items.map((item, n) => eventMessage(n, item.description)));
        const poisoned = new Set(bodies.filter((_, n) => items[n]!.poisoned).map((b) => b.hash));
        const { db, stored, parked } = fakeDb(poisoned, { batches: 0 });
        const messages = bodies.map((body, n) => message(`m${n}`, body));
        await handleEventsBatch(batchOf(messages), { DB: db } as unknown as Env);

        const good = bodies.map((b) => b.hash).filter((hash) => !poisoned.has(hash));
        expect(stored.sort()).toEqual(good.sort());
        expect(parked.map((p) => p.hash).sort()).toEqual([...poisoned].sort());
        for (const p of parked) expect(String(p.error)).toContain("CHECK constraint failed");
        for (const m of messages) expect(m.outcomes).toEqual(["ack"]);
      },
    ),
    { numRuns: 150 },
  );
});

it("a busy database is not poison: the whole batch is retried and nothing is parked", async () => {
  const bodies = await Promise.all([0, 1, 2, 3].map((n) => eventMessage(n, "busy")));
  const { db, stored, parked } = fakeDb(new Set([bodies[2]!.hash]), { batches: 1 });
  const messages = bodies.map((body, n) => message(`m${n}`, body));
  await handleEventsBatch(batchOf(messages), { DB: db } as unknown as Env);
  expect(stored).toEqual([]);
  expect(parked).toEqual([]);
  for (const m of messages) expect(m.outcomes).toEqual(["retry"]);
});
