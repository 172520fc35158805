// A payout through Paystack Transfers all the way, in the built Worker (decision 041): the daily run sends each
// settlement to a local fake of Paystack (tests/support/fake-paystack.ts), which queues it (pending); Paystack's signed
// webhook then marks it paid exactly once, whether it comes before or after the status poll, and however many times it
// comes. Replays, other events and other transfers are acknowledged with a 200 (Paystack retries anything else for 72
// hours) and change nothing.
import { afterAll, describe, expect, it } from "vitest";
import { railsConfigOf } from "#server/env";
import { railKey } from "#server/rails/answer";
import { pollRails } from "#server/rails/apply";
import { paystackPayouts, paystackReference } from "#server/rails/paystack";
import { applyPayoutAnswer } from "#server/settlement/payouts";
import { payoutTargetByReference } from "#server/settlement/payouts.db";
import { paystackSignatureOf, startFakePaystack, type FakePaystack } from "../support/fake-paystack";
import { businessOf, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

let fake: FakePaystack;
afterAll(() => fake?.close());
const portal = usePortal(async () => {
  fake = await startFakePaystack();
  return { vars: fake.vars() };
});

interface Row {
  id: string;
  reference: string;
  status: string;
  attempts: number;
  rail: string | null;
  rail_reference: string | null;
  rail_status: string | null;
  rail_waiting_since: string | null;
}

const db = () => portal().businessDb(KUMASI);
const settlement = async (id: string) =>
  (await db()
    .prepare("SELECT id, reference, status, attempts, rail, rail_reference, rail_status, rail_waiting_since FROM settlements WHERE id = ?")
    .bind(id)
    .first<Row>())!;
const count = async (sql: string, ...binds: unknown[]) =>
  (await db()
    .prepare(sql)
    .bind(...binds)
    .first<number>("n")) ?? 0;

/** The outcome's traces: paid attempts and failures of the attempt sent, and settlement.paid events (made only when the
 *  business subscribes to them, so at most one). */
async function traces(id: string): Promise<{ paidAttempts: number; failedAttempts: number }> {
  const { attempts } = await settlement(id);
  expect(await count("SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?", `evt_${id}_paid`)).toBeLessThanOrEqual(1);
  return {
    paidAttempts: await count("SELECT COUNT(*) AS n FROM payout_attempts WHERE settlement_id = ? AND outcome = 'paid'", id),
    // The attempt sent to Paystack (a seeded settlement may have failed an earlier one).
    failedAttempts: await count("SELECT COUNT(*) AS n FROM payout_attempts WHERE settlement_id = ? AND attempt = ? AND outcome = 'failed'", id, attempts),
  };
}

/** A body signed as Paystack signs it, with the fake's (the portal's) secret key. */
const signed = (body: string) => ({ "Content-Type": "application/json", "x-paystack-signature": paystackSignatureOf(fake.vars().PAYSTACK_SECRET_KEY!, body) });

function post(body: string, headers: Record<string, string>) {
  return portal().fetch("/api/v1/callbacks/paystack", { method: "POST", headers, body });
}

/** The Paystack reference a settlement's latest attempt went under. */
const referenceOf = (row: Row) => paystackReference(railKey(row.reference, row.attempts))!;

async function webhook(event: string, row: Row, key?: string) {
  const signed = fake.webhook(event, referenceOf(row), key);
  const response = await post(signed.body, signed.headers);
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

function memoryKv(): KVNamespace {
  const values = new Map<string, string>();
  return {
    get: async (key: string) => values.get(key) ?? null,
    put: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
  } as unknown as KVNamespace;
}

/** The poll as the 5-minute cron runs it, from here with the same adapter, every wait old enough. */
async function poll() {
  const rail = railsConfigOf({ ...fake.vars() }).payout;
  if (rail.rail !== "paystack") throw new Error("not paystack");
  return pollRails([businessOf(KUMASI)], { payout: paystackPayouts(rail, memoryKv()), refund: null }, { now: Date.now() + 3_600_000, afterMs: 0 });
}

describe("PAYOUT_RAIL=paystack", () => {
  let waiting: Row[] = [];

  it("the daily run sends each settlement to Paystack, which queues it: pending, waiting for the webhook or the poll", async () => {
    // Kumasi's bank accounts at a bank Paystack has a code for. Its merchant codes are Accra's too (MRC-000n): the
    // references' business tag keeps their settlements apart (functions/settlement/run.ts settlementReference).
    await db().prepare("UPDATE settlement_accounts SET provider = 'GCB Bank' WHERE business_id = ? AND kind = 'bank'").bind(KUMASI).run();
    expect(await portal().scheduled("0 6 * * *")).toBe("ok");
    await expect
      .poll(() => count("SELECT COUNT(*) AS n FROM settlements WHERE business_id = ? AND rail = 'paystack' AND rail_waiting_since IS NOT NULL", KUMASI), {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(3);
    waiting = (
      await db()
        .prepare(
          "SELECT id, reference, status, attempts, rail, rail_reference, rail_status, rail_waiting_since FROM settlements WHERE business_id = ? AND rail = 'paystack' AND rail_waiting_since IS NOT NULL AND rail_status = 'pending' ORDER BY id",
        )
        .bind(KUMASI)
        .all<Row>()
    ).results;
    for (const row of waiting) {
      expect(row).toMatchObject({ status: "pending", rail_status: "pending" });
      expect(row.rail_reference).toMatch(/^TRF_/);
      expect(fake.transfers.get(referenceOf(row))).toMatchObject({ currency: "GHS", status: "pending" });
    }
    expect(fake.violations).toEqual([]);
  });

  it("webhook before the poll: paid once; the same webhook again is acknowledged and changes nothing; the poll after it too", async () => {
    const row = waiting[0]!;
    fake.settle(referenceOf(row), "success");
    expect(await webhook("transfer.success", row)).toEqual({ status: 200, body: { received: true, applied: "applied" } });
    expect(await settlement(row.id)).toMatchObject({ status: "paid", rail_status: "success", rail_waiting_since: null });
    expect(await traces(row.id)).toEqual({ paidAttempts: 1, failedAttempts: 0 });

    expect(await webhook("transfer.success", row)).toEqual({ status: 200, body: { received: true, applied: "already", replay: true } });
    // The poll no longer asks about it (it is paid); asked anyway, Paystack's answer is applied once at most.
    await poll();
    const rail = railsConfigOf({ ...fake.vars() }).payout;
    if (rail.rail !== "paystack") throw new Error("not paystack");
    const answer = await paystackPayouts(rail, memoryKv()).status!(railKey(row.reference, row.attempts));
    const target = (await payoutTargetByReference(db(), row.reference))!;
    expect(await applyPayoutAnswer(businessOf(KUMASI), target, answer, new Date().toISOString())).toBe("already");
    expect(await traces(row.id)).toEqual({ paidAttempts: 1, failedAttempts: 0 });
  });

  it("poll before the webhook: the poll pays it, the webhook that follows finds it paid", async () => {
    const row = waiting[1]!;
    fake.settle(referenceOf(row), "success");
    const polled = await poll();
    expect(polled.answered).toBeGreaterThanOrEqual(1);
    expect(await settlement(row.id)).toMatchObject({ status: "paid" });
    expect(await webhook("transfer.success", row)).toEqual({ status: 200, body: { received: true, applied: "already" } });
    expect(await traces(row.id)).toEqual({ paidAttempts: 1, failedAttempts: 0 });
  });

  it("a failed transfer is recorded once as the attempt's failure, however often the webhook comes", async () => {
    const row = waiting[2]!;
    fake.settle(referenceOf(row), "failed");
    expect((await webhook("transfer.failed", row)).body).toEqual({ received: true, applied: "applied" });
    expect((await webhook("transfer.failed", row)).body).toMatchObject({ applied: "already", replay: true });
    expect(await settlement(row.id)).toMatchObject({ status: "failed", rail_status: "failed", rail_waiting_since: null });
    expect(await traces(row.id)).toEqual({ paidAttempts: 0, failedAttempts: 1 });
  });

  it("refuses a wrong signature (401) and an unsigned body; acknowledges other events and other transfers without applying them", async () => {
    const row = waiting.at(-1)!;
    expect((await webhook("transfer.success", row, "sk_test_someoneelse000000000000")).status).toBe(401);
    const unsigned = fake.webhook("transfer.success", referenceOf(row));
    expect((await post(unsigned.body, { "Content-Type": "application/json" })).status).toBe(401);

    const charge = JSON.stringify({ event: "charge.success", data: { reference: "T123", status: "success" } });
    expect(await (await post(charge, signed(charge))).json()).toEqual({ received: true, ignored: "not a transfer event (charge.success)" });

    const foreign = JSON.stringify({ event: "transfer.success", data: { reference: "acv_9ee55786-2323-4760-98e2-6380c9cb3f68", status: "success", id: 1 } });
    const answer = await post(foreign, signed(foreign));
    expect([answer.status, await answer.json()]).toEqual([200, { received: true, ignored: "not a transfer this portal made" }]);

    const malformed = JSON.stringify({ event: "transfer.success", data: { status: "success" } });
    expect((await post(malformed, signed(malformed))).status).toBe(400);
    if (waiting.length > 3) expect(await settlement(row.id)).toMatchObject({ status: "pending" });
  });
});
