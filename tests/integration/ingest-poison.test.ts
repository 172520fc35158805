// Poison isolation through the built Worker and its PAYMENTS queue on real D1 (decision 028): a message the
// consumer cannot apply is parked and shown (GET /api/v1/rejections, the Developers tab, `npm run ingest:replay`)
// while every other payment of its batch and business is applied at once; what reaches the dead-letter queue is
// parked too; an operator replays a parked message once its cause is fixed. The door refuses the known poisons now,
// so most poisons here come from the test hook (a reference starting POISON-TEST-, honoured outside production only),
// and one is sent straight to the queue as the door used to pass it (a time that is not a time).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capture } from "../../scripts/lib/run";
import { fingerprintOf } from "#server/partner-api/resolve";
import type { IngestMessage } from "#server/payments/consumer";
import type { PaymentItem } from "#server/payments/ingest-plan";
import { loaderDataOf, textOf } from "../support/html";
import { api, eventually, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers, ROOT } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const REPLAY_SECRET = "replay-secret-for-tests-0123456789abcdef";
// One retry: a message failing for D1's sake reaches the dead-letter queue at its second delivery (test C).
const portal = usePortal({
  queueConsumers: paymentsConsumers({ maxRetries: 1 }),
  vars: { API_RATE_LIMIT_PER_MINUTE: "100000", EVENTS_REPLAY_SECRET: REPLAY_SECRET },
});

interface Rejection {
  id: string;
  references: string[];
  code: string;
  problem: string;
  error: string;
  attempts: number;
  received_at: string | null;
  parked_at: string;
}

async function rejections(key: string): Promise<Rejection[]> {
  const response = await api(portal(), key, "/api/v1/rejections?limit=100");
  expect(response.status).toBe(200);
  return (await response.json<{ data: Rejection[] }>()).data;
}

async function heldCount(businessId: string, references: string[]): Promise<number> {
  const db = await portal().db();
  return (
    (await db
      .prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference IN (SELECT value FROM json_each(?))")
      .bind(businessId, JSON.stringify(references))
      .first<number>("n")) ?? 0
  );
}

/** A payment as the door queues it (ids resolved, fingerprinted). */
async function item(parties: Parties, reference: string, occurredAt: number | null = Date.now() - 60_000): Promise<PaymentItem> {
  const fields = {
    reference,
    merchantId: parties.merchantId,
    pointOfSaleId: parties.pointOfSaleId,
    terminalId: null,
    channel: "mobile_money" as const,
    network: "MTN",
    amount: 1_500,
    status: "successful" as const,
    failureReason: null,
    cardBin: null,
    cardLast4: null,
    msisdn: "233244123456",
    occurredAt: occurredAt as number,
  };
  return { ...fields, fingerprint: await fingerprintOf(fields) };
}

const opsRun = (args: string[]) =>
  capture("npx", ["tsx", "scripts/ingest-replay.ts", "--url", portal().url, ...args], {
    cwd: ROOT,
    env: { ...process.env, EVENTS_REPLAY_SECRET: REPLAY_SECRET },
  });

describe("a poisoned message in a burst", () => {
  it("applies every valid payment of two businesses promptly, and parks and shows the poisoned one", { timeout: 120_000 }, async () => {
    const keys: Record<string, string> = { [KUMASI]: await makeKey(portal(), KUMASI), [ACCRA]: await makeKey(portal(), ACCRA) };
    const parties = { [KUMASI]: (await partiesOf(portal(), KUMASI))[0]!, [ACCRA]: (await partiesOf(portal(), ACCRA))[0]! };
    const run = Date.now().toString(36);
    const poison = `POISON-TEST-${run}`;
    // 40 requests of 1 to 3 payments, the two businesses taking turns; the poisoned one (Kumasi's) in the middle.
    const requests = Array.from({ length: 40 }, (_, i) => {
      const businessId = i % 2 === 0 ? KUMASI : ACCRA;
      const payments =
        i === 20
          ? [momoPayment(parties[businessId], { reference: poison })]
          : Array.from({ length: 1 + (i % 3) }, (_, j) => momoPayment(parties[businessId], { reference: `BURST-${run}-${i}-${j}` }));
      return { businessId, payments };
    });
    let next = 0;
    const refused: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < requests.length) {
          const { businessId, payments } = requests[next++]!;
          const response = await api(portal(), keys[businessId]!, "/api/v1/payments", payments.length === 1 ? payments[0] : { payments });
          if (response.status !== 202) refused.push(`${response.status} ${await response.text()}`);
        }
      }),
    );
    expect(refused).toEqual([]);

    const valid = (businessId: string) =>
      requests.filter((r) => r.businessId === businessId).flatMap((r) => r.payments.map((p) => p.reference as string).filter((ref) => ref !== poison));
    // Promptly: well before the queue's first retry delay would have let a held-back batch through.
    await eventually(
      async () => (await heldCount(KUMASI, valid(KUMASI))) === valid(KUMASI).length && (await heldCount(ACCRA, valid(ACCRA))) === valid(ACCRA).length,
      15_000,
      "every valid payment to be applied",
    );
    for (const businessId of [KUMASI, ACCRA]) {
      for (const reference of valid(businessId)) {
        const response = await api(portal(), keys[businessId]!, `/api/v1/payments/${reference}`);
        expect(response.status, reference).toBe(200);
        expect(await response.json()).toMatchObject({ reference, status: "successful" });
      }
    }

    // The poisoned one: not applied, parked once, shown to its business (and to no other).
    expect((await api(portal(), keys[KUMASI]!, `/api/v1/payments/${poison}`)).status).toBe(404);
    await eventually(async () => (await rejections(keys[KUMASI]!)).some((r) => r.references.includes(poison)), 10_000, "the poisoned message parked");
    const shown = (await rejections(keys[KUMASI]!)).filter((r) => r.references.includes(poison));
    expect(shown).toEqual([
      {
        id: expect.stringMatching(/^prk_[0-9a-f]{24}$/),
        references: [poison],
        code: "not_applied",
        problem: expect.stringContaining("Nothing of it was applied"),
        error: expect.stringContaining(poison),
        attempts: 1,
        received_at: expect.any(String),
        parked_at: expect.any(String),
      },
    ]);
    expect((await rejections(keys[ACCRA]!)).filter((r) => r.references.includes(poison))).toEqual([]);

    // The Developers tab: its loader and its page.
    const page = await portal().fetch("/settings?tab=developers", { headers: await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI) });
    expect(page.status).toBe(200);
    const html = await page.text();
    const developers = (loaderDataOf(html)["routes/settings"] as { developers: { refused: { parked: { rows: { references: string[]; problem: string }[] } } } })
      .developers;
    expect(developers.refused.parked.rows.filter((row) => row.references.includes(poison))).toEqual([
      expect.objectContaining({ references: [poison], problem: expect.stringContaining("could not apply it") }),
    ]);
    expect(textOf(html)).toContain("Refused after acceptance");
    const accra = await portal().fetch("/settings?tab=developers", { headers: await signedInCookie(portal(), "ama.mensah@example.com", ACCRA) });
    expect(await accra.text()).not.toContain(poison);
  });
});

describe("the whole batch is no longer retried and dead-lettered", () => {
  it("parks at its first delivery a message the consumer cannot write, and applies the rest of its business's batch at once", { timeout: 60_000 }, async () => {
    const parties = (await partiesOf(portal(), KUMASI))[0]!;
    const run = Date.now().toString(36);
    const good = [0, 1, 3, 4].map((i) => `OLD-${run}-${i}`);
    const bad = `OLD-${run}-2`;
    // What the door passed for "2026-11-25T11:15:13+01" before the door had one normaliser (decision 030): Date.parse gave NaN, which JSON sends as null.
    const bodies: IngestMessage[] = await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => ({
        v: 1 as const,
        businessId: KUMASI,
        receivedAt: Date.now(),
        payments: [await item(parties, `OLD-${run}-${i}`, i === 2 ? null : undefined)],
      })),
    );
    await (await portal().paymentsQueue()).sendBatch(bodies.map((body) => ({ body })));
    await eventually(async () => (await heldCount(KUMASI, good)) === good.length, 10_000, "the good payments of the batch to be applied");
    const db = await portal().db();
    await eventually(
      async () =>
        (await db.prepare("SELECT count(*) AS n FROM ingest_parked WHERE business_id = ? AND refs LIKE ?").bind(KUMASI, `%${bad}%`).first<number>("n")) === 1,
      10_000,
      "the bad message parked",
    );
    const row = await db
      .prepare("SELECT source, attempts, error, body FROM ingest_parked WHERE business_id = ? AND refs LIKE ?")
      .bind(KUMASI, `%${bad}%`)
      .first<{ source: string; attempts: number; error: string; body: string }>();
    // Parked by the consumer at its first delivery: never retried, never dead-lettered.
    expect(row).toMatchObject({ source: "consumer", attempts: 1 });
    expect(row!.error).toMatch(/NOT NULL|Invalid time value/);
    expect(JSON.parse(row!.body)).toMatchObject({ businessId: KUMASI, payments: [{ reference: bad, occurredAt: null }] });
    expect(await heldCount(KUMASI, [bad])).toBe(0);
  });
});

describe("what still fails after its retries", () => {
  it("is parked from the dead-letter queue, and shown as such", { timeout: 60_000 }, async () => {
    const key = await makeKey(portal(), KUMASI);
    const parties = (await partiesOf(portal(), KUMASI))[0]!;
    // Fails as an overloaded D1 does, every time: retried (max_retries is 1 here), then dead-lettered and parked.
    const busy = `POISON-TEST-BUSY-${Date.now().toString(36)}`;
    expect((await api(portal(), key, "/api/v1/payments", momoPayment(parties, { reference: busy }))).status).toBe(202);
    await eventually(async () => (await rejections(key)).some((r) => r.references.includes(busy)), 30_000, "the dead letter parked");
    const [shown] = (await rejections(key)).filter((r) => r.references.includes(busy));
    expect(shown!.problem).toContain("after many attempts");
    const db = await portal().db();
    expect(await db.prepare("SELECT source FROM ingest_parked WHERE id = ?").bind(shown!.id).first("source")).toBe("dead_letter");
  });

  it("parks a message for a business no database holds in the core database", { timeout: 30_000 }, async () => {
    const reference = `NOBODY-${Date.now().toString(36)}`;
    const parties = (await partiesOf(portal(), KUMASI))[0]!;
    await (await portal().paymentsQueue()).send({ v: 1, businessId: "bus_nobody", receivedAt: Date.now(), payments: [await item(parties, reference)] });
    await eventually(
      async () => (await portal().core().prepare("SELECT count(*) AS n FROM ingest_parked WHERE business_id = 'bus_nobody'").first<number>("n")) === 1,
      10_000,
      "the message parked in the core database",
    );
  });
});

describe("npm run ingest:replay", () => {
  it("refuses without the secret, lists what is parked, and replays a message by id once its cause is fixed", { timeout: 120_000 }, async () => {
    expect((await portal().fetch("/api/ingest/parked")).status).toBe(401);
    expect((await portal().fetch("/api/ingest/parked", { headers: { Authorization: "Bearer wrong-secret-0123456789abcdef0123456789" } })).status).toBe(401);

    const parties = (await partiesOf(portal(), KUMASI))[0]!;
    const reference = `REPLAY-${Date.now().toString(36)}`;
    await (await portal().paymentsQueue()).send({ v: 1, businessId: KUMASI, receivedAt: Date.now(), payments: [await item(parties, reference, null)] });
    const db = await portal().db();
    let id = "";
    await eventually(
      async () => {
        id = (await db.prepare("SELECT id FROM ingest_parked WHERE business_id = ? AND refs LIKE ?").bind(KUMASI, `%${reference}%`).first<string>("id")) ?? "";
        return id !== "";
      },
      10_000,
      "the message parked",
    );
    const listing = await opsRun([]);
    expect(listing).toContain(id);
    expect(listing).toContain(reference);
    expect(listing).toContain("bus_nobody");

    // The cause fixed (here: the time the processor meant, put into the parked message by an operator), then replayed.
    const body = JSON.parse((await db.prepare("SELECT body FROM ingest_parked WHERE id = ?").bind(id).first<string>("body"))!) as IngestMessage;
    body.payments![0]!.occurredAt = Date.now() - 60_000;
    await db.prepare("UPDATE ingest_parked SET body = ? WHERE business_id = ? AND id = ?").bind(JSON.stringify(body), KUMASI, id).run();
    expect(await opsRun(["--id", id])).toContain(`Put 1 parked message(s) back on the PAYMENTS queue: ${id}`);
    await eventually(async () => (await heldCount(KUMASI, [reference])) === 1, 10_000, "the replayed payment applied");
    expect(await db.prepare("SELECT count(*) AS n FROM ingest_parked WHERE id = ?").bind(id).first("n")).toBe(0);
    // An id no longer parked is said so, and the command fails.
    await expect(opsRun(["--id", id])).rejects.toThrow();
  });
});

describe("random batches with random poison positions (property, real D1)", () => {
  it("applies every good payment and parks exactly the poisoned messages", { timeout: 240_000 }, async () => {
    const parties = { [KUMASI]: (await partiesOf(portal(), KUMASI))[0]!, [ACCRA]: (await partiesOf(portal(), ACCRA))[0]! };
    const queue = await portal().paymentsQueue();
    const db = await portal().db();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ accra: fc.boolean(), size: fc.integer({ min: 1, max: 3 }), poisoned: fc.boolean() }), { minLength: 2, maxLength: 12 }),
        async (specs) => {
          round += 1;
          const tag = `${Date.now().toString(36)}-${round}`;
          const messages = await Promise.all(
            specs.map(async (spec, i) => {
              const businessId = spec.accra ? ACCRA : KUMASI;
              const refs = Array.from({ length: spec.size }, (_, j) =>
                spec.poisoned && j === spec.size - 1 ? `POISON-TEST-${tag}-${i}` : `PROP-${tag}-${i}-${j}`,
              );
              const payments = await Promise.all(refs.map((ref) => item(parties[businessId], ref)));
              return { businessId, refs, poisoned: spec.poisoned, body: { v: 1 as const, businessId, receivedAt: Date.now(), payments } };
            }),
          );
          await queue.sendBatch(messages.map(({ body }) => ({ body })));
          const good = messages.filter((m) => !m.poisoned);
          const bad = messages.filter((m) => m.poisoned);
          await eventually(
            async () => {
              const held =
                (await heldCount(
                  KUMASI,
                  good.flatMap((m) => m.refs),
                )) +
                (await heldCount(
                  ACCRA,
                  good.flatMap((m) => m.refs),
                ));
              const parked =
                (await db
                  .prepare("SELECT count(*) AS n FROM ingest_parked WHERE business_id = ? AND refs LIKE ?")
                  .bind(KUMASI, `%-${tag}-%`)
                  .first<number>("n"))! +
                (await db
                  .prepare("SELECT count(*) AS n FROM ingest_parked WHERE business_id = ? AND refs LIKE ?")
                  .bind(ACCRA, `%-${tag}-%`)
                  .first<number>("n"))!;
              return held === good.flatMap((m) => m.refs).length && parked === bad.length;
            },
            20_000,
            "the round to settle",
          );
          // Exactly the poisoned messages are parked, each whole (its good payments with it: a message is all or nothing).
          for (const m of bad) {
            const refs = await db
              .prepare("SELECT refs FROM ingest_parked WHERE business_id = ? AND refs LIKE ?")
              .bind(m.businessId, `%${m.refs[0]}"%`)
              .first<string>("refs");
            expect(JSON.parse(refs!)).toEqual(m.refs);
            expect(await heldCount(m.businessId, m.refs)).toBe(0);
          }
        },
      ),
      { numRuns: 8 },
    );
  });
});
