// Poison isolation in the PAYMENTS consumer (decision 028), as a property: random queue batches of several
// businesses with poisoned messages at random places. Whatever the batch, every message that can be applied is applied
// once and acked in the same delivery, exactly the poisoned ones are parked (and acked), nothing is retried, and a
// race that fails a part once is not mistaken for poison. A part is split at its first failure, whatever the error; a
// message failing alone with a transient error is retried, bounded, then parked.
// The D1 side runs for real in tests/integration/ingest-poison.test.ts; here the write is a stand-in so that
// thousands of batches run in a second.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handlePaymentsBatch, isTransient, MAX_TRANSIENT_ATTEMPTS, type IngestMessage } from "./consumer";
import { planIngest, type IngestResult, type IngestWork, type PaymentItem } from "./ingest-plan";
import type { BusinessDb, Db } from "../tenancy/tenant";

interface FakeMessage extends Message<unknown> {
  outcome: "ack" | "retry" | null;
  outcomes: number;
}

function message(id: string, body: IngestMessage, attempts = 1): FakeMessage {
  const m = {
    id,
    timestamp: new Date(),
    body,
    attempts,
    outcome: null as FakeMessage["outcome"],
    outcomes: 0,
    ack() {
      m.outcome = "ack";
      m.outcomes++;
    },
    retry() {
      m.outcome = "retry";
      m.outcomes++;
    },
  };
  return m;
}

function batchOf(messages: FakeMessage[]): MessageBatch<unknown> {
  return { queue: "partners-portal-payments", messages, ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>;
}

/** A database that only takes parked rows: what park() writes, by business. */
function parkingDb(parked: { businessId: string; messageId: string; error: string }[]): Db {
  return {
    prepare: () => ({
      bind: (...values: unknown[]) => ({
        run: async () => {
          parked.push({ businessId: values[0] as string, messageId: values[2] as string, error: values[6] as string });
          return { success: true, meta: {} };
        },
      }),
    }),
    batch: async () => [],
  } as unknown as Db;
}

const payment = (reference: string): PaymentItem => ({ reference, fingerprint: reference }) as unknown as PaymentItem;
const emptyResult = (): IngestResult => ({ applied: [], changes: [], duplicates: 0, conflicts: 0, reversed: [], waiting: 0, heartbeats: 0 });

interface World {
  applied: string[];
  parked: { businessId: string; messageId: string; error: string }[];
  calls: number;
}

/** A stand-in for applyIngest: all or nothing, throws for a poisoned reference, and for a "raced" one the first time only. */
function world(poisoned: Set<string>, raced: Set<string>, transientOnce = false) {
  const w: World = { applied: [], parked: [], calls: 0 };
  let transientLeft = transientOnce;
  const apply = async (_business: BusinessDb, work: IngestWork): Promise<IngestResult> => {
    w.calls++;
    if (transientLeft) {
      transientLeft = false;
      throw new Error("D1_ERROR: D1 DB is overloaded. Requests queued for too long.");
    }
    const refs = work.payments.map((p) => p.reference);
    const bad = refs.find((r) => poisoned.has(r));
    if (bad) throw new Error("NOT NULL constraint failed: transactions.created_at: SQLITE_CONSTRAINT");
    const race = refs.find((r) => raced.has(r));
    if (race) {
      raced.delete(race);
      throw new Error("UNIQUE constraint failed: transactions.business_id, transactions.reference: SQLITE_CONSTRAINT");
    }
    w.applied.push(...refs);
    return emptyResult();
  };
  return { w, apply };
}

const BUSINESSES = ["bus_a", "bus_b", "bus_c"];

// The consumer's log lines (one per parked message at level error, a retry's at warn) would drown the output.
let logged: ReturnType<typeof vi.spyOn>;
let warned: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  logged = vi.spyOn(console, "error").mockImplementation(() => {});
  warned = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  logged.mockRestore();
  warned.mockRestore();
});

const batchArbitrary = fc
  .array(
    fc.record({
      business: fc.constantFrom(...BUSINESSES),
      payments: fc.integer({ min: 1, max: 3 }),
      poisoned: fc.boolean(),
      raced: fc.boolean(),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((specs) => {
    const poisoned = new Set<string>();
    const raced = new Set<string>();
    const messages = specs.map((spec, i) => {
      const refs = Array.from({ length: spec.payments }, (_, j) => `M${i}-P${j}`);
      if (spec.poisoned) poisoned.add(refs[refs.length - 1]!);
      else if (spec.raced) raced.add(refs[0]!);
      return message(`msg-${i}`, { v: 1, businessId: spec.business, receivedAt: 0, payments: refs.map(payment) });
    });
    return { messages, poisoned, raced };
  });

async function run(messages: FakeMessage[], apply: (b: BusinessDb, w: IngestWork, now: number) => Promise<IngestResult>, parked: World["parked"]) {
  const db = parkingDb(parked);
  return handlePaymentsBatch(batchOf(messages), {
    findBusiness: async (businessId) => ({ businessId, db }),
    core: db,
    now: () => 1_000,
    apply,
  });
}

describe("poison isolation (property)", () => {
  it("applies every good message once in the same delivery and parks exactly the poisoned ones", async () => {
    await fc.assert(
      fc.asyncProperty(batchArbitrary, async ({ messages, poisoned, raced }) => {
        const { w, apply } = world(poisoned, new Set(raced));
        await run(messages, apply, w.parked);
        const isPoisoned = (m: FakeMessage) => ((m.body as IngestMessage).payments ?? []).some((p) => poisoned.has(p.reference));
        const good = messages.filter((m) => !isPoisoned(m));
        const goodRefs = good.flatMap((m) => (m.body as IngestMessage).payments!.map((p) => p.reference));
        expect([...w.applied].sort()).toEqual([...goodRefs].sort());
        expect(w.parked.map((p) => p.messageId).sort()).toEqual(
          messages
            .filter(isPoisoned)
            .map((m) => m.id)
            .sort(),
        );
        for (const m of messages) {
          expect(m.outcome, m.id).toBe("ack");
          expect(m.outcomes, m.id).toBe(1);
        }
        for (const p of w.parked) expect(p.businessId).toBe((messages.find((m) => m.id === p.messageId)!.body as IngestMessage).businessId);
        // Bisecting costs at most two writes per message (and one more try for each poisoned one).
        expect(w.calls).toBeLessThanOrEqual(2 * messages.length + poisoned.size + raced.size + BUSINESSES.length);
      }),
      { numRuns: 500 },
    );
  });

  it("no longer retries and dead-letters a whole business's share for one poisoned message", async () => {
    const poisoned = new Set(["M2-P0"]);
    const messages = [0, 1, 2, 3, 4].map((i) => message(`msg-${i}`, { v: 1, businessId: "bus_a", receivedAt: 0, payments: [payment(`M${i}-P0`)] }));
    const { w, apply } = world(poisoned, new Set());
    await run(messages, apply, w.parked);
    expect(messages.map((m) => m.outcome)).toEqual(["ack", "ack", "ack", "ack", "ack"]);
    expect(w.applied.sort()).toEqual(["M0-P0", "M1-P0", "M3-P0", "M4-P0"]);
    expect(w.parked).toEqual([{ businessId: "bus_a", messageId: "msg-2", error: expect.stringContaining("NOT NULL constraint failed") }]);
    // Whoever runs the portal is told, at level error, with the references (never a body).
    const lines = logged.mock.calls.map((call: unknown[]) => JSON.parse(String(call[0])) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: "error", message: "ingest message parked", id: "msg-2", references: ["M2-P0"] }));
  });
});

describe("poison isolation with the real plan", () => {
  it("parks only the message whose payment the plan cannot store; the good ones around it are planned and acked", async () => {
    const good = (reference: string) =>
      ({
        ...payment(reference),
        merchantId: "mer_1",
        pointOfSaleId: "pos_1",
        terminalId: null,
        channel: "card",
        network: "VISA",
        amount: 5_000,
        status: "successful",
        occurredAt: 0,
      }) as PaymentItem;
    const messages = [
      message("msg-0", { v: 1, businessId: "bus_a", receivedAt: 0, payments: [good("G0")] }),
      message("msg-1", { v: 1, businessId: "bus_a", receivedAt: 0, payments: [good("G1"), { ...good("HALF"), amount: 10.5 }] }),
      message("msg-2", { v: 1, businessId: "bus_a", receivedAt: 0, payments: [good("G2")] }),
    ];
    const written: string[] = [];
    const parked: World["parked"] = [];
    // Nothing held: the plan alone decides, and a part whose plan throws is never written.
    const apply = async (business: BusinessDb, work: IngestWork, now: number) => {
      const plan = await planIngest(business.businessId, work, { stored: new Map(), waiting: new Map() }, now);
      written.push(...plan.newPayments.map((p) => p.reference));
      return plan.result;
    };
    await run(messages, apply, parked);
    expect(written.sort()).toEqual(["G0", "G2"]);
    expect(parked).toEqual([{ businessId: "bus_a", messageId: "msg-1", error: expect.stringContaining("whole pesewas") }]);
    expect(messages.map((m) => m.outcome)).toEqual(["ack", "ack", "ack"]);
  });
});

describe("transient errors", () => {
  it("tells D1's busy errors from the message's own", () => {
    for (const text of [
      "D1_ERROR: D1 DB is overloaded. Requests queued for too long.",
      "D1_ERROR: Network connection lost.",
      "D1_ERROR: storage operation exceeded timeout which caused object to be reset.",
      "SQLITE_BUSY: database is locked",
      "Durable Object reset because its code was updated.",
    ])
      expect(isTransient(new Error(text)), text).toBe(true);
    for (const text of [
      "NOT NULL constraint failed: transactions.created_at: SQLITE_CONSTRAINT",
      "UNIQUE constraint failed: transactions.business_id, transactions.reference",
      "RangeError: Invalid time value",
      "CHECK constraint failed: ok",
    ])
      expect(isTransient(new Error(text)), text).toBe(false);
  });

  it("splits a share at its first transient failure: every message applied in the same delivery, none retried, none parked", async () => {
    const messages = [0, 1, 2].map((i) => message(`msg-${i}`, { v: 1, businessId: "bus_a", receivedAt: 0, payments: [payment(`M${i}-P0`)] }));
    const { w, apply } = world(new Set(), new Set(), true);
    await run(messages, apply, w.parked);
    expect(messages.map((m) => m.outcome)).toEqual(["ack", "ack", "ack"]);
    expect(w.parked).toEqual([]);
    expect(w.applied.sort()).toEqual(["M0-P0", "M1-P0", "M2-P0"]);
  });

  it("a message failing so at every try holds no neighbour back: they are applied after one failed try of the whole share (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.constantFrom("D1_ERROR: D1 DB is overloaded.", "NOT NULL constraint failed: transactions.created_at: SQLITE_CONSTRAINT"),
        fc.integer({ min: 1, max: MAX_TRANSIENT_ATTEMPTS - 1 }),
        async (goodCount, where, failure, attempts) => {
          const ids = Array.from({ length: goodCount }, (_, i) => `GOOD-${i}`);
          ids.splice(where % (goodCount + 1), 0, "FAILING");
          // The failing one and its neighbours have all been delivered `attempts` times (a first delivery, or later ones).
          const messages = ids.map((id) => message(id, { v: 1, businessId: "bus_a", receivedAt: 0, payments: [payment(id)] }, attempts));
          const tries: string[][] = [];
          const applied: string[] = [];
          const apply = async (_b: BusinessDb, work: IngestWork) => {
            const refs = work.payments.map((p) => p.reference);
            tries.push(refs);
            if (refs.includes("FAILING")) throw new Error(failure);
            applied.push(...refs);
            return emptyResult();
          };
          const parked: World["parked"] = [];
          await run(messages, apply, parked);
          // One try of the whole share failed; no part holding a good message was tried through the queue again.
          expect(tries.filter((t) => t.length === ids.length)).toHaveLength(1);
          expect(applied.sort()).toEqual(ids.filter((id) => id !== "FAILING").sort());
          for (const m of messages.filter((m) => m.id !== "FAILING")) expect([m.id, m.outcome, m.outcomes]).toEqual([m.id, "ack", 1]);
          const failing = messages.find((m) => m.id === "FAILING")!;
          // Its own fate: a transient error is retried (parked at its last attempt), anything else parked now.
          expect(failing.outcome).toBe(isTransient(new Error(failure)) ? "retry" : "ack");
          expect(parked.map((p) => p.messageId)).toEqual(isTransient(new Error(failure)) ? [] : ["FAILING"]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("parks a message still failing so after its last transient attempt", async () => {
    const busy = async (_b: BusinessDb, work: IngestWork) => {
      if (work.payments.some((p) => p.reference === "BUSY")) throw new Error("D1_ERROR: D1 DB is overloaded.");
      return emptyResult();
    };
    const parked: World["parked"] = [];
    const alone = message("alone", { v: 1, businessId: "bus_a", receivedAt: 0, payments: [payment("BUSY")] }, MAX_TRANSIENT_ATTEMPTS);
    await run([alone], busy, parked);
    expect(alone.outcome).toBe("ack");
    expect(parked).toEqual([{ businessId: "bus_a", messageId: "alone", error: expect.stringContaining(`after ${MAX_TRANSIENT_ATTEMPTS} attempts`) }]);
  });

  it("retries every message of a business being moved, parking none", async () => {
    const moving = async () => {
      throw new Error("D1_ERROR: business_moving: SQLITE_CONSTRAINT");
    };
    const parked: World["parked"] = [];
    const messages = [message("a", { v: 1, businessId: "bus_a", receivedAt: 0, payments: [payment("X")] }, 15)];
    await run(messages, moving, parked);
    expect(messages[0]!.outcome).toBe("retry");
    expect(parked).toEqual([]);
  });
});
