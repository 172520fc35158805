// Contract tests of the switch adapter against a local fake built from docs/payout-rails.md (tests/support/fake-switch.ts),
// which signs and checks signatures with node:crypto on its own: the signed requests, each answer the contract names, and
// that an answer we cannot trust (no answer, 5xx, 429, unsigned, wrongly signed, unreadable, another order's) is pending.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { railsConfigOf, type SwitchRail } from "../env";
import type { RefundOrder } from "../refunds/send";
import { railKey, type RailAnswer } from "./answer";
import { switchPayouts, switchRefunds } from "./ports";
import { FAKE_SWITCH_SECRET, startFakeSwitch, type FakeSwitch, type SwitchMode } from "../../tests/support/fake-switch";

let fake: FakeSwitch;
beforeAll(async () => {
  fake = await startFakeSwitch();
});
afterAll(() => fake?.close());
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.mode = "accept";
});

// A fake that hangs is given up on quickly; any other answer gets time enough on a loaded machine (300 ms was not).
const quickFetch = (input: string, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(fake.mode === "hang" ? 300 : 10_000) });

function rail(): SwitchRail {
  const choice = railsConfigOf({ ...fake.vars() }).payout;
  if (choice.rail !== "switch") throw new Error(JSON.stringify(choice));
  return choice;
}

let serial = 0;
const payout = (attempt = 1) => ({
  reference: `STL-SW-${(serial += 1)}-20261127`,
  amount: 125_000,
  provider: "MTN",
  accountNumber: "0244000000",
  accountName: "Ama Stores",
  attempt,
  narration: "Settlement for Ɔdɔ Ŋkyɛ ✨",
});
const refund = (): RefundOrder => ({ idempotencyKey: `rfd_sw_${(serial += 1)}`, paymentReference: "PAY-123", channel: "card", amount: 1_500 });

const isDefiniteFailure = (answer: RailAnswer) => !answer.ok && !answer.pending;

describe("payouts", () => {
  it("sends the signed, keyed order; the same key again is the same order", async () => {
    const port = switchPayouts(rail(), quickFetch);
    const one = payout();
    expect(await port.pay(one)).toMatchObject({ ok: false, pending: true, rail: { rail: "switch", status: "accepted" } });
    expect(await port.pay(one)).toMatchObject({ ok: false, pending: true });
    expect(fake.sends.filter((s) => s.key === one.reference)).toHaveLength(2);
    const order = fake.orders.get(one.reference)!;
    expect(order.body).toEqual({
      reference: one.reference,
      amount: { value: 125_000, currency: "GHS" },
      beneficiary: { provider: "MTN", account_number: "0244000000", account_name: "Ama Stores" },
      narration: "Settlement for Ɔdɔ Ŋkyɛ ✨",
    });
  });

  it("a later attempt goes under <key>-r<n>", async () => {
    const one = payout(3);
    await switchPayouts(rail(), quickFetch).pay(one);
    expect(fake.orders.has(railKey(one.reference, 3))).toBe(true);
  });

  it("succeeded is done; failed is a definite failure with the switch's reason; a refusal (422) or our key refused (401) too", async () => {
    const port = switchPayouts(rail(), quickFetch);
    fake.mode = "succeed";
    expect(await port.pay(payout())).toMatchObject({ ok: true, rail: { status: "succeeded" } });
    fake.mode = "fail";
    const failed = await port.pay(payout());
    expect(failed).toMatchObject({ ok: false, error: "Switch: Account closed" });
    expect(isDefiniteFailure(failed)).toBe(true);
    fake.mode = "refuse";
    const refused = await port.pay(payout());
    expect(refused).toMatchObject({ ok: false, error: "Switch refused (422): Beneficiary account is closed" });
    expect(isDefiniteFailure(refused)).toBe(true);
    fake.mode = "badkey";
    expect(isDefiniteFailure(await port.pay(payout()))).toBe(true);
  });

  it.each<SwitchMode>(["down", "busy", "hang", "unsigned", "badsig", "garbage", "mismatch"])("%s is pending, never failed", async (mode) => {
    fake.mode = mode;
    expect(await switchPayouts(rail(), quickFetch).pay(payout())).toMatchObject({ ok: false, pending: true, rail: { rail: "switch", reference: null } });
  });

  it("a wrongly keyed adapter is refused by the switch (its signature does not check)", async () => {
    const wrong = { ...rail(), secret: `whsec_${Buffer.from("not-the-shared-key-0123456789ab").toString("base64")}` };
    // The switch's 401 is signed with the real key, which the wrong one cannot check: unknown, so pending.
    expect(await switchPayouts(wrong, quickFetch).pay(payout())).toMatchObject({ ok: false, pending: true });
    expect(FAKE_SWITCH_SECRET).not.toBe(wrong.secret);
  });

  it("the poll answers the order, or never received (404) as a definite failure", async () => {
    const port = switchPayouts(rail(), quickFetch);
    const one = payout();
    await port.pay(one);
    expect(await port.status!(one.reference)).toMatchObject({ ok: false, pending: true });
    fake.settle(one.reference, "succeeded");
    expect(await port.status!(one.reference)).toMatchObject({ ok: true });
    const never = await port.status!("STL-NEVER-20261127");
    expect(never).toMatchObject({ ok: false, rail: { status: "not found" } });
    expect(isDefiniteFailure(never)).toBe(true);
    fake.mode = "down";
    expect(await port.status!(one.reference)).toMatchObject({ ok: false, pending: true });
  });
});

describe("refunds", () => {
  it("sends the signed refund and reads each answer as payouts do", async () => {
    const port = switchRefunds(rail(), quickFetch);
    const one = refund();
    fake.mode = "succeed";
    expect(await port.refund(one)).toMatchObject({ ok: true });
    expect(fake.orders.get(one.idempotencyKey)?.body).toEqual({
      reference: one.idempotencyKey,
      payment_reference: "PAY-123",
      channel: "card",
      amount: { value: 1_500, currency: "GHS" },
    });
    fake.mode = "fail";
    expect(isDefiniteFailure(await port.refund(refund()))).toBe(true);
    fake.mode = "hang";
    expect(await port.refund(refund())).toMatchObject({ ok: false, pending: true });
    fake.mode = "accept";
    const later = refund();
    await port.refund(later);
    fake.settle(later.idempotencyKey, "failed", "Card expired");
    expect(await port.status!(later.idempotencyKey)).toMatchObject({ ok: false, error: "Switch: Card expired" });
  });
});
