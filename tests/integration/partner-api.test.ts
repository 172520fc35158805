// The Partner API at the door, against the built Worker in workerd with real D1
// and the PAYMENTS queue consumed: every answer of the door (decision 016), the
// card-number refusal (decision 031), reversals that wait for their payment, heartbeats.
import { beforeAll, describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { getMerchantBalances, postingStatements } from "#server/ledger/ledger.db";
import { clearingPosting, paymentPosting } from "#server/ledger/ledger";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { ACCRA, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { answerOf, api, cardPayment, eventually, makeKey, momoPayment, partiesOf, paymentAppliedAfter, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { usePortal } from "../support/use-portal";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { signedInCookie } from "../support/sign-in";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "1000" } });
let key: string;
let kumasi: Parties[];
let accra: Parties[];

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  kumasi = await partiesOf(portal(), KUMASI);
  accra = await partiesOf(portal(), ACCRA);
});

async function count(sql: string, ...binds: unknown[]): Promise<number> {
  return (
    (await (
      await portal().db()
    )
      .prepare(sql)
      .bind(...binds)
      .first<number>("n")) ?? 0
  );
}

const held = (reference: string) => count("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?", KUMASI, reference);

describe("authentication", () => {
  it("401 with the same words for no key, a malformed key, an unknown key, a revoked key and an expired rolled key", async () => {
    const revoked = await makeKey(portal(), KUMASI, { revokedAt: Date.now() - 1000 });
    const expired = await makeKey(portal(), KUMASI, { expiresAt: Date.now() - 1000 });
    const unknown = `pp_test_${"A".repeat(32)}`;
    const answers = await Promise.all(
      [null, "not-a-key", unknown, revoked, expired].map(async (k) => {
        const response = await api(portal(), k, "/api/v1/payments", momoPayment(kumasi[0]!));
        return { challenge: response.headers.get("WWW-Authenticate"), ...(await answerOf(response)) };
      }),
    );
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.challenge).toMatch(/^Bearer/);
    expect(JSON.stringify(answers[0]!.body)).not.toMatch(/business|revoked|expired/i);
  });

  it("a rolled key still works until its grace ends; last use is recorded", async () => {
    const rolled = await makeKey(portal(), KUMASI, { expiresAt: Date.now() + 60 * 60_000 });
    const response = await api(portal(), rolled, "/api/v1/payments/NOPE-1");
    expect(response.status).toBe(404);
    await eventually(
      async () => (await count("SELECT count(*) AS n FROM api_keys WHERE business_id = ? AND last_used_at IS NOT NULL AND expires_at IS NOT NULL", KUMASI)) > 0,
    );
  });

  it("answers JSON even to a request from another site (no same-origin rule: the key is the proof)", async () => {
    const response = await api(portal(), key, "/api/v1/payments/NOPE-2", undefined, { Origin: "https://elsewhere.example" });
    expect(response.status).toBe(404);
    expect((await answerOf(response)).body).toEqual({ code: "payment_not_found", message: "No payment with that reference." });
  });
});

describe("accepting payments", () => {
  it("202 for one payment; the consumer writes it with its ledger posting; GET answers it", async () => {
    const payment = cardPayment(kumasi[0]!);
    const response = await api(portal(), key, "/api/v1/payments", payment);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1 });
    await eventually(async () => (await held(payment.reference as string)) === 1, 15_000, "the payment to be written");
    const got = await api(portal(), key, `/api/v1/payments/${payment.reference as string}`);
    expect(got.status).toBe(200);
    const body = await got.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      reference: payment.reference,
      merchant: { id: kumasi[0]!.merchantId, code: kumasi[0]!.merchantCode },
      terminal_serial: kumasi[0]!.serial,
      channel: "card",
      amount: 12_000,
      fee: 210, // 1.75 %
      net: 11_790,
      status: "successful",
      cleared: false,
      settlement: null,
      payer: { card_bin: "412345", card_last4: "4242" },
    });
    const db = await portal().db();
    const lines = await db
      .prepare("SELECT e.amount FROM ledger_entries e JOIN transactions t ON t.id = e.transaction_id WHERE t.business_id = ? AND t.reference = ?")
      .bind(KUMASI, payment.reference)
      .all<{ amount: number }>();
    expect(lines.results.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-11_790, -210, 12_000]);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("202 { accepted: n } for a batch, by merchant code as well as id", async () => {
    const payments = [
      momoPayment(kumasi[0]!, { merchant: kumasi[0]!.merchantCode }),
      momoPayment(kumasi[1]!, { status: "failed", failure_reason: "Insufficient funds" }),
    ];
    const response = await api(portal(), key, "/api/v1/payments", { payments });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 2 });
    await eventually(async () => (await held(payments[1]!.reference as string)) === 1 && (await held(payments[0]!.reference as string)) === 1);
    const failed = await (await api(portal(), key, `/api/v1/payments/${payments[1]!.reference as string}`)).json<Record<string, unknown>>();
    expect(failed).toMatchObject({ status: "failed", failure_reason: "Insufficient funds", cleared: false });
  });

  it("400 lists every problem with its path, and nothing is queued", async () => {
    const bad = [
      momoPayment(kumasi[0]!, { amount: 12.5, currency: "USD" }),
      momoPayment(kumasi[0]!, { channel: "card", network: "MTN" }),
      momoPayment(kumasi[0]!, { status: "failed" }),
      momoPayment(kumasi[0]!, { merchant: "mer_nobody", occurred_at: new Date(Date.now() + 3_600_000).toISOString() }),
    ];
    const response = await api(portal(), key, "/api/v1/payments", { payments: bad });
    expect(response.status).toBe(400);
    const body = await response.json<{ message: string; errors: { path: string; message: string }[] }>();
    const paths = body.errors.map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "payments[0].amount",
        "payments[0].currency",
        "payments[1].network",
        "payments[1].payer",
        "payments[1].terminal_serial",
        "payments[2].failure_reason",
      ]),
    );
    expect(body.message).toBe(`The request has ${body.errors.length} problems.`);
    // The schema's problems come first; the parties are checked only when the shapes are right.
    const second = await api(portal(), key, "/api/v1/payments", { payments: [bad[3]] });
    const secondBody = await second.json<{ errors: { path: string }[] }>();
    expect(secondBody.errors.map((e) => e.path).sort()).toEqual(["payments[0].merchant", "payments[0].occurred_at"]);
    for (const p of bad) expect(await held(p.reference as string)).toBe(0);
  });

  it("400 for a body that is not JSON, 415 for another content type, 405 and 404 for other routes", async () => {
    expect((await api(portal(), key, "/api/v1/payments", "{nope")).status).toBe(400);
    const form = await portal().fetch("/api/v1/payments", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(form.status).toBe(415);
    // GET lists the payments (decision 044); other methods are not the API's.
    expect((await portal().fetch("/api/v1/payments", { method: "PUT", headers: { Authorization: `Bearer ${key}` } })).status).toBe(405);
    expect((await api(portal(), key, "/api/v1/nothing")).status).toBe(404);
  });

  it("another business's merchant, point of sale or terminal is refused as an unknown one (no 403 that says it exists)", async () => {
    for (const [payment, path] of [
      [momoPayment(kumasi[0]!, { merchant: accra[0]!.merchantId }), "merchant"],
      [momoPayment(kumasi[0]!, { point_of_sale: accra[0]!.pointOfSaleId }), "point_of_sale"],
      [cardPayment(kumasi[0]!, { terminal_serial: accra[0]!.serial }), "terminal_serial"],
    ] as const) {
      const response = await api(portal(), key, "/api/v1/payments", payment);
      expect(response.status).toBe(400);
      const body = await response.json<{ errors: { path: string }[] }>();
      expect(body.errors.map((e) => e.path)).toEqual([path]);
      expect(JSON.stringify(body)).not.toContain(ACCRA);
    }
    const beat = await api(portal(), key, `/api/v1/terminals/${accra[0]!.serial}/heartbeats`, {
      battery_percent: 50,
      signal_percent: 50,
      software_version: "1.0",
      sent_at: new Date().toISOString(),
    });
    expect(beat.status).toBe(404);
    // Reading another business's payment by reference is a plain 404.
    const accraRef = await (
      await portal().db()
    )
      .prepare("SELECT reference FROM transactions WHERE business_id = ? LIMIT 1")
      .bind(ACCRA)
      .first<string>("reference");
    expect((await api(portal(), key, `/api/v1/payments/${accraRef!}`)).status).toBe(404);
  });

  it("413 for a body over 256 kB, before it is read whole", async () => {
    const huge = JSON.stringify({ payments: [momoPayment(kumasi[0]!, { failure_reason: "x".repeat(300_000) })] });
    const response = await api(portal(), key, "/api/v1/payments", huge);
    expect(response.status).toBe(413);
  });
});

describe("a full card number (PCI DSS 3.4.1)", () => {
  it("is refused with 400 wherever it is, and is stored nowhere", async () => {
    const pan = "4111111111111111";
    const spaced = "4111 1111 1111 1111";
    for (const payment of [
      cardPayment(kumasi[0]!, { payer: { card_bin: "411111", card_last4: "1111", note: pan } }),
      cardPayment(kumasi[0]!, { reference: `CARD-${pan}` }),
      momoPayment(kumasi[0]!, { failure_reason: `card ${spaced} declined`, status: "failed" }),
      momoPayment(kumasi[0]!, { amount: Number(pan) }),
    ]) {
      const response = await api(portal(), key, "/api/v1/payments", payment, { "Idempotency-Key": `pan-${Math.random()}` });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toMatch(/full card number/);
      expect(text).not.toContain("4111");
    }
    // Not in any table: payments, conflicts, idempotency answers.
    const db = await portal().db();
    for (const [table, column] of [
      ["transactions", "reference"],
      ["transactions", "failure_reason"],
      ["payment_conflicts", "received"],
      ["api_idempotency", "body"],
    ] as const) {
      expect(await count(`SELECT count(*) AS n FROM ${table} WHERE replace(${column}, ' ', '') LIKE '%4111111111111111%'`)).toBe(0);
    }
    await db.prepare("SELECT 1").run();
  });

  it("lets 12-digit phone numbers, references with letters and Luhn-failing long numbers through", async () => {
    const payment = momoPayment(kumasi[0]!, { reference: "REF-4111111111111112" });
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
  });
});

describe("Idempotency-Key", () => {
  it("the same request again gets the first answer and is one payment; another body with the key is 409", async () => {
    const payment = momoPayment(kumasi[2]!);
    const headers = { "Idempotency-Key": `idem-${Date.now()}` };
    const [first, again] = await Promise.all([
      api(portal(), key, "/api/v1/payments", payment, headers),
      api(portal(), key, "/api/v1/payments", payment, headers),
    ]);
    expect([first.status, again.status]).toEqual([202, 202]);
    const third = await api(portal(), key, "/api/v1/payments", payment, headers);
    expect(third.status).toBe(202);
    expect(third.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await third.json()).toEqual({ accepted: 1 });
    const other = await api(portal(), key, "/api/v1/payments", { ...payment, amount: 9_999 }, headers);
    expect(other.status).toBe(409);
    await eventually(async () => (await held(payment.reference as string)) === 1);
    await paymentAppliedAfter(portal(), key, KUMASI, kumasi[0]!);
    expect(await held(payment.reference as string)).toBe(1);
  });
});

describe("reversals and heartbeats", () => {
  // Decision 023: a refund already took money back to the payer; the processor's full reversal would do it a second time.
  it("a reversal of a refunded payment is kept as a conflict and moves no money", async () => {
    const db = await portal().db();
    const { results } = await db
      .prepare(
        "SELECT id, reference, merchant_id AS merchantId FROM transactions WHERE business_id = ? AND status = 'successful' AND amount >= 5000 ORDER BY id LIMIT 50",
      )
      .bind(KUMASI)
      .all<{ id: number; reference: string; merchantId: string }>();
    const payment = results.find((row) => cardNumberPaths({ reference: row.reference }).length === 0)!;
    // Money to refund from: a cleared payment posted by the portal's own ledger functions (the seed's merchants hold little).
    const topUp = { merchantId: payment.merchantId, amount: 10_000, fee: 0 };
    await db.batch([
      ...postingStatements(KOFI_KUMASI, paymentPosting(topUp), { postingId: "test_topup_reversal", memo: "Test top-up", postedAt: Date.now() }),
      ...postingStatements(KOFI_KUMASI, clearingPosting(topUp), {
        postingId: "test_topup_reversal_cleared",
        memo: "Test top-up cleared",
        postedAt: Date.now(),
      }),
    ]);
    expect((await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).available).toBeGreaterThanOrEqual(100);
    const refund = await requestRefund(ESI_KUMASI, META, {
      transactionId: payment.id,
      amount: 100,
      reason: "Goods returned",
      idempotencyKey: "reversal-after-refund",
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", refund.id);

    const reversal = { reason: "Scheme reversal", reversed_at: new Date().toISOString() };
    expect((await api(portal(), key, `/api/v1/payments/${payment.reference}/reversal`, reversal)).status).toBe(202);
    await eventually(
      async () =>
        (await count(
          "SELECT count(*) AS n FROM payment_conflicts WHERE business_id = ? AND reference = ? AND kind = 'reversal'",
          KUMASI,
          payment.reference,
        )) === 1,
    );
    const conflict = await db
      .prepare("SELECT problem FROM payment_conflicts WHERE business_id = ? AND reference = ?")
      .bind(KUMASI, payment.reference)
      .first<string>("problem");
    expect(conflict).toMatch(/refunded or disputed: reversing it too would return its money to the payer twice/);
    expect(await count("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND id = ? AND status = 'successful'", KUMASI, payment.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE business_id = ? AND posting_id LIKE ?", KUMASI, `%${payment.reference}_reversal`)).toBe(
      0,
    );
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("a reversal that arrives before its payment waits, then reverses it once; the ledger returns to where it was", async () => {
    const payment = momoPayment(kumasi[0]!, { amount: 40_000 });
    const reference = payment.reference as string;
    const reversal = { reason: "Customer dispute", reversed_at: new Date().toISOString() };
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, reversal)).status).toBe(202);
    await eventually(async () => (await count("SELECT count(*) AS n FROM pending_reversals WHERE business_id = ? AND reference = ?", KUMASI, reference)) === 1);
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    await eventually(async () => (await count("SELECT count(*) AS n FROM transactions WHERE reference = ? AND status = 'reversed'", reference)) === 1);
    const body = await (await api(portal(), key, `/api/v1/payments/${reference}`)).json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: "reversed", reversal: { reason: "Customer dispute" } });
    expect(await count("SELECT count(*) AS n FROM pending_reversals WHERE reference = ?", reference)).toBe(0);
    const sum = await (
      await portal().db()
    )
      .prepare(
        "SELECT coalesce(SUM(e.amount), 0) AS n FROM ledger_entries e JOIN transactions t ON t.id = e.transaction_id WHERE t.reference = ? AND e.account_id LIKE '%merchant_pending'",
      )
      .bind(reference)
      .first<number>("n");
    expect(sum).toBe(0);
    // Sent again: no second reversal.
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, reversal)).status).toBe(202);
    await paymentAppliedAfter(portal(), key, KUMASI, kumasi[0]!);
    expect(await count("SELECT count(*) AS n FROM ledger_entries e JOIN transactions t ON t.id = e.transaction_id WHERE t.reference = ?", reference)).toBe(6);
    await expectAccountSumsMatchEntries(portal().shards());
    // People see why on the payment's detail.
    const id = await (await portal().db()).prepare("SELECT id FROM transactions WHERE reference = ?").bind(reference).first<number>("id");
    const page = await portal().fetch(`/transactions?range=7d&tx=${id!}`, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
    const html = await page.text();
    expect(html).toContain("Reversed");
    expect(html).toContain("Customer dispute");
  });

  it("a failed payment's reason shows on its detail", async () => {
    const payment = momoPayment(kumasi[0]!, { status: "failed", failure_reason: "Wallet PIN wrong: Ɔkyeame 🙏" });
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    await eventually(async () => (await held(payment.reference as string)) === 1);
    const id = await (await portal().db()).prepare("SELECT id FROM transactions WHERE reference = ?").bind(payment.reference).first<number>("id");
    const page = await portal().fetch(`/transactions?range=7d&tx=${id!}`, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
    expect(await page.text()).toContain("Wallet PIN wrong: Ɔkyeame 🙏");
    // A reference written mostly in letters is found by the list's one search box, as a number-heavy one is.
    const reference = payment.reference as string;
    const list = await portal().fetch(`/transactions?range=today&q=${encodeURIComponent(reference)}`, {
      headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI),
    });
    expect(await list.text()).toContain(reference);
  });

  it("a heartbeat makes a silent terminal seen again, with its battery, signal and software", async () => {
    const serial = kumasi[1]!.serial;
    const db = await portal().db();
    await db
      .prepare("UPDATE terminals SET last_seen_at = ? WHERE serial = ?")
      .bind(Date.now() - 3 * 86_400_000, serial)
      .run();
    const sentAt = new Date(Date.now() - 5_000).toISOString();
    const response = await api(portal(), key, `/api/v1/terminals/${serial}/heartbeats`, {
      battery_percent: 81,
      signal_percent: 64,
      software_version: "4.2.1",
      sent_at: sentAt,
    });
    expect(response.status).toBe(202);
    await eventually(
      async () => (await db.prepare("SELECT last_seen_at AS n FROM terminals WHERE serial = ?").bind(serial).first<number>("n")) === Date.parse(sentAt),
    );
    expect(
      await db.prepare("SELECT battery_percent AS b, signal_percent AS s, software_version AS v FROM terminals WHERE serial = ?").bind(serial).first(),
    ).toEqual({
      b: 81,
      s: 64,
      v: "4.2.1",
    });
    // The device's page shows what the heartbeat said.
    const id = await db.prepare("SELECT id FROM terminals WHERE serial = ?").bind(serial).first<string>("id");
    const page = await portal().fetch(`/pos-terminals/device-details/${id!}`, { headers: await signedInCookie(portal(), "esi.owusu@example.com", KUMASI) });
    expect(await page.text()).toContain("Battery 81 % · Signal 64 %");
    expect(
      (await api(portal(), key, "/api/v1/terminals/NOSUCH-001/heartbeats", { battery_percent: 1, signal_percent: 1, software_version: "1", sent_at: sentAt }))
        .status,
    ).toBe(404);
  });
});

describe("the description", () => {
  it("GET /api/v1/openapi.json needs no key and describes every endpoint the Worker answers", async () => {
    const response = await api(portal(), null, "/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = await response.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/v1/payments",
        "/api/v1/payments/{reference}",
        "/api/v1/payments/{reference}/reversal",
        "/api/v1/terminals/{serial}/heartbeats",
        "/api/v1/disputes",
        "/api/v1/disputes/{id}/close",
        "/api/v1/disputes/{id}/evidence",
        "/api/v1/rejections",
        "/api/v1/reversals/waiting",
        "/api/v1/disputes/{id}",
        "/api/v1/merchants",
        "/api/v1/points-of-sale",
        "/api/v1/terminals",
        "/api/v1/settlements",
        "/api/v1/refunds",
        "/api/v1/refunds/{id}",
        "/api/v1/events",
        "/api/v1/events/{id}",
        "/api/v1/webhook-endpoints/{id}/resend-failed",
      ].sort(),
    );
    expect(Object.keys(doc.paths["/api/v1/payments"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/disputes"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/refunds"]!).sort()).toEqual(["get", "post"]);
  });
});

describe("rate limit", () => {
  const limited = usePortal({ vars: { API_RATE_LIMIT_PER_MINUTE: "3" } });
  it("429 with Retry-After, per key: another key of the business is not held back", async () => {
    const [a, b] = [await makeKey(limited(), KUMASI), await makeKey(limited(), KUMASI)];
    const statuses: number[] = [];
    const left: (string | null)[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const response = await api(limited(), a, "/api/v1/payments/NOPE-3");
      statuses.push(response.status);
      // The IETF RateLimit fields on every answer: the policy, and what is left of the key's quota.
      expect(response.headers.get("RateLimit-Policy")).toBe('"per-key";q=3;w=60');
      left.push(/r=(\d+);t=(\d+)$/.exec(response.headers.get("RateLimit") ?? "")?.[1] ?? null);
      if (response.status === 429) {
        retryAfter = response.headers.get("Retry-After");
        expect(response.headers.get("RateLimit")).toBe(`"per-key";r=0;t=${retryAfter}`);
        expect(await response.json()).toMatchObject({ code: "rate_limited", status: 429 });
      }
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect(left).toEqual(["2", "1", "0", "0", "0"]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect((await api(limited(), b, "/api/v1/payments/NOPE-3")).status).toBe(404);
  });
});
