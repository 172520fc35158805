// Contract tests of the Paystack Transfers adapter against a local fake that follows Paystack's documented requests and
// answers (tests/support/fake-paystack.ts; decision 041): the requests it sends, what each documented success and
// refusal becomes, and that an answer it cannot read is pending, never failed. Settings come through railsConfigOf, as
// the Worker reads them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { railsConfigOf, type PaystackRail } from "../env";
import type { Payout, PayoutPort } from "../settlement/payouts";
import { railKey } from "./answer";
import { PAYSTACK_BANK_CODES, paystackAnswer, paystackPayouts, paystackReference, railKeyOfPaystackReference } from "./paystack";
import { payoutPortFor, railProblems } from "./ports";
import { FAKE_PAYSTACK_SECRET_KEY, startFakePaystack, type FakePaystack } from "../../tests/support/fake-paystack";

let fake: FakePaystack;
beforeAll(async () => {
  fake = await startFakePaystack();
});
afterAll(() => fake?.close());
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.mode = "ok";
  fake.transferStatus = "pending";
});

function memoryKv(): KVNamespace {
  const values = new Map<string, string>();
  return {
    get: async (key: string) => values.get(key) ?? null,
    put: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
  } as unknown as KVNamespace;
}

/** A short timeout, so "no answer" is seen in a test's time (the adapter's own is 15 s). */
// A fake that hangs is given up on quickly; any other answer gets time enough on a loaded machine (300 ms was not).
const quickFetch = (input: string, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(fake.mode === "hang" ? 300 : 10_000) });

function rail(): PaystackRail {
  const choice = railsConfigOf({ ...fake.vars() }).payout;
  if (choice.rail !== "paystack") throw new Error(JSON.stringify(choice));
  return choice;
}

let serial = 0;
function payout(overrides: Partial<Payout> = {}): Payout {
  serial += 1;
  return {
    reference: `STL-MRC-${String(serial).padStart(4, "0")}-20261127`,
    amount: 125_000,
    provider: "MTN",
    accountNumber: `02440${String(serial).padStart(5, "0")}`,
    accountName: "Ama Stores",
    narration: `Settlement STL-MRC-${String(serial).padStart(4, "0")}-20261127`,
    ...overrides,
  };
}

function port(kv: KVNamespace = memoryKv()): PayoutPort {
  return paystackPayouts(rail(), kv, quickFetch);
}

describe("references", () => {
  it("are the key in lowercase with pp- and _r<n>, within Paystack's 16 to 50 lowercase letters, digits, - and _", () => {
    expect(paystackReference("STL-MRC-0042-20261127")).toBe("pp-stl-mrc-0042-20261127");
    expect(paystackReference(railKey("STL-MRC-0042-20261127", 3))).toBe("pp-stl-mrc-0042-20261127_r3");
    for (const key of ["STL-MRC-0042-20261127", "STL-MRC-0042-20261127-r2", "STL-A1B-20260101-r5"]) {
      const reference = paystackReference(key)!;
      expect(reference).toMatch(/^[a-z0-9_-]{16,50}$/);
      expect(railKeyOfPaystackReference(reference)).toBe(key);
    }
  });

  it("refuses a key that cannot be one, and reads no reference that is not ours", () => {
    expect(paystackReference("STL-1")).toBeNull(); // too short
    expect(paystackReference("stl-lowercase-20261127")).toBeNull(); // would not read back
    expect(paystackReference(`STL-${"A".repeat(50)}`)).toBeNull();
    expect(railKeyOfPaystackReference("acv_9ee55786-2323-4760-98e2-6380c9cb3f68")).toBeNull();
    expect(railKeyOfPaystackReference("PP-STL-X")).toBeNull();
  });
});

describe("paying out", () => {
  it("makes the recipient (mobile_money, the network's code, GHS) once, then transfers the pesewas under the reference", async () => {
    const kv = memoryKv();
    const first = payout();
    const answer = await port(kv).pay(first);
    expect(answer).toMatchObject({ ok: false, pending: true, rail: { rail: "paystack", status: "pending" } });
    expect(answer.rail?.reference).toMatch(/^TRF_/);
    const [recipient] = [...fake.recipients.values()].filter((r) => r.account_number === first.accountNumber);
    expect(recipient).toEqual({ type: "mobile_money", bank_code: "MTN", account_number: first.accountNumber, name: "Ama Stores" });
    expect(fake.transfers.get(paystackReference(first.reference)!)).toMatchObject({
      amount: 125_000,
      currency: "GHS",
      reason: `Settlement ${first.reference}`,
    });
    // A transfer's payout passes its asker's narration on as the transfer's reason, Ghana's letters and emoji intact.
    const transfer = payout({ reference: "TRF-MRC-0001-3F2A9C1B7D4E5F60", narration: "Ɛkwan so sika 🚚" });
    await port(kv).pay(transfer);
    expect(fake.transfers.get(paystackReference(transfer.reference)!)).toMatchObject({ reason: "Ɛkwan so sika 🚚" });
    // The next settlement to the same account reuses the cached recipient.
    const before = fake.recipientRequests;
    await port(kv).pay({ ...payout(), accountNumber: first.accountNumber });
    expect(fake.recipientRequests).toBe(before);
  });

  it("pays a bank account as ghipss with its sort code, and a later attempt under its own reference", async () => {
    const bank = payout({ provider: "GCB Bank", accountNumber: "1021130011223", attempt: 2 });
    await port().pay(bank);
    const made = [...fake.recipients.values()].find((r) => r.account_number === bank.accountNumber);
    expect(made).toMatchObject({ type: "ghipss", bank_code: "040100" });
    expect(fake.transfers.has(`${paystackReference(bank.reference)}_r2`)).toBe(true);
  });

  it("a transfer answered success is done; failed is a definite failure; otp waits and says what to change", async () => {
    fake.transferStatus = "success";
    expect(await port().pay(payout())).toMatchObject({ ok: true, rail: { rail: "paystack", status: "success" } });
    fake.transferStatus = "failed";
    const failed = await port().pay(payout());
    expect(failed).toMatchObject({ ok: false, rail: { status: "failed" } });
    expect("pending" in failed && failed.pending).toBeFalsy();
    fake.transferStatus = "otp";
    expect(await port().pay(payout())).toMatchObject({ ok: false, pending: true, error: expect.stringContaining("OTP") });
  });

  it("a refused key is a definite failure naming the setting, never the key", async () => {
    fake.mode = "auth";
    const answer = await port().pay(payout());
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("PAYSTACK_SECRET_KEY") });
    expect(answer.ok || answer.pending).toBeFalsy();
    expect(JSON.stringify(answer)).not.toContain(FAKE_PAYSTACK_SECRET_KEY);
  });

  it("not enough balance is a definite failure with Paystack's words", async () => {
    const kv = memoryKv();
    const first = payout();
    await port(kv).pay(first); // the recipient is cached
    fake.mode = "balance";
    const answer = await port(kv).pay({ ...payout(), accountNumber: first.accountNumber });
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("balance is not enough") });
    expect(answer.ok || answer.pending).toBeFalsy();
  });

  it("an account Paystack cannot resolve fails before any transfer is sent", async () => {
    fake.mode = "account";
    const sends = fake.sends.length;
    const answer = await port().pay(payout());
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("Cannot resolve account") });
    expect(answer.ok || answer.pending).toBeFalsy();
    expect(fake.sends.length).toBe(sends);
  });

  it("a provider with no known Paystack code fails by name and sends nothing", async () => {
    const sends = fake.sends.length;
    const requests = fake.recipientRequests;
    const answer = await port().pay(payout({ provider: "CalBank" }));
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining('"CalBank"'), rail: { status: "no bank code" } });
    expect(answer.ok || answer.pending).toBeFalsy();
    expect([fake.sends.length, fake.recipientRequests]).toEqual([sends, requests]);
  });

  it("a key that cannot be a Paystack reference fails and sends nothing", async () => {
    const answer = await port().pay(payout({ reference: "STL-1" }));
    expect(answer).toMatchObject({ ok: false, rail: { status: "bad reference" } });
  });

  it("no answer, a 5xx or an unreadable answer to the transfer is pending, never failed", async () => {
    for (const mode of ["down", "hang", "garbage"] as const) {
      const kv = memoryKv();
      const first = payout();
      await port(kv).pay(first); // the recipient is cached, so the transfer is what gets no answer
      fake.mode = mode;
      const answer = await port(kv).pay({ ...payout(), accountNumber: first.accountNumber });
      expect(answer, mode).toMatchObject({ ok: false, pending: true, rail: { rail: "paystack", reference: null } });
      fake.mode = "ok";
    }
  });

  it("no answer while making the recipient is a definite failure: nothing was sent", async () => {
    fake.mode = "down";
    const answer = await port().pay(payout());
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("nothing was sent") });
    expect(answer.ok || answer.pending).toBeFalsy();
  });

  it("a reference another transfer already holds is a definite failure of this attempt, never read as its own", async () => {
    const kv = memoryKv();
    const first = payout();
    await port(kv).pay(first);
    const answer = await port(kv).pay(first);
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("Duplicate"), rail: { status: "reference taken" } });
    expect(answer.ok || answer.pending).toBeFalsy();
  });
});

describe("the status poll (GET /transfer/verify/:reference)", () => {
  it("answers the transfer's state: pending, then success or failed or reversed", async () => {
    const kv = memoryKv();
    for (const [final, expected] of [
      ["success", { ok: true }],
      ["failed", { ok: false, error: expect.stringContaining("failed") }],
      ["reversed", { ok: false, error: expect.stringContaining("reversed") }],
    ] as const) {
      const one = payout();
      await port(kv).pay(one);
      expect(await port(kv).status!(one.reference)).toMatchObject({ ok: false, pending: true });
      fake.settle(paystackReference(one.reference)!, final);
      const answer = await port(kv).status!(one.reference);
      expect(answer).toMatchObject(expected);
      if (!answer.ok) expect(answer.pending).toBeFalsy();
    }
  });

  it("a reference Paystack never received is a definite failure (nothing moved); no answer or a refused key is pending", async () => {
    expect(await port().status!("STL-NEVER-SENT-20261127")).toMatchObject({ ok: false, rail: { status: "not found" } });
    for (const mode of ["down", "hang", "garbage", "auth"] as const) {
      fake.mode = mode;
      expect(await port().status!("STL-NEVER-SENT-20261127"), mode).toMatchObject({ ok: false, pending: true });
    }
  });
});

describe("the status words", () => {
  it("maps each documented status", () => {
    const of = (status: string) => paystackAnswer({ reference: "pp-x", status, transfer_code: "TRF_1" });
    expect(of("success").ok).toBe(true);
    for (const status of ["failed", "reversed", "abandoned", "rejected", "blocked"]) expect(of(status), status).not.toHaveProperty("pending");
    for (const status of ["pending", "processing", "queued", "received", "otp", "something new"])
      expect(of(status), status).toMatchObject({ ok: false, pending: true });
  });
});

describe("the settings", () => {
  it("PAYOUT_RAIL=paystack gives the Paystack port and no problem; REFUND_RAIL=paystack is refused in words", () => {
    const env = { ...fake.vars(), KV: memoryKv() };
    expect(payoutPortFor(env, railsConfigOf(env))?.kind).toBe("paystack");
    expect(railProblems(railsConfigOf(env)).payout).toBeNull();
    expect(railProblems(railsConfigOf({ ...fake.vars(), REFUND_RAIL: "paystack" })).refund).toMatch(
      /REFUND_RAIL must be simulator or switch \(Paystack Transfers only pays out/,
    );
    expect(railProblems(railsConfigOf({ PAYOUT_RAIL: "paystack" })).payout).toBe(
      "PAYSTACK_SECRET_KEY is not set: Paystack payouts need the account's secret key",
    );
  });

  it("every provider the settlement-account form offers either has a code or fails by name", async () => {
    const { BANKS, MOBILE_NETWORKS } = await import("#app/routes/merchants/merchant-forms");
    for (const network of MOBILE_NETWORKS) expect(PAYSTACK_BANK_CODES[network]?.type, network).toBe("mobile_money");
    for (const bank of BANKS) if (PAYSTACK_BANK_CODES[bank]) expect(PAYSTACK_BANK_CODES[bank].code, bank).toMatch(/^\d{6}$/);
  });
});
