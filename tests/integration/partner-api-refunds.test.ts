// Asking for a refund through the Partner API (decision 022) against the built Worker: POST /api/v1/refunds makes
// the request the refund screen makes (one maker-checker, in the name of the key's maker), with the screen's rules and
// words; it waits in the approvals queue, and deciding it there changes what GET /api/v1/refunds/{id} answers.
import { beforeAll, describe, expect, it } from "vitest";
import { approveMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import type { Tenant } from "#server/tenancy/tenant";
import { topUp } from "../support/ledger";
import { answerOf, api, makeKey, makePlatformKeyFor } from "../support/partner-api";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, AMA_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const used = new Set<number>();

interface Payment {
  id: number;
  amount: number;
  merchantId: string;
  reference: string;
}

/** A payment of the business in `status` no other test used, whose reference is fine in a path; a successful one's merchant holds 3 times its amount. */
async function freshPayment(tenant: Tenant, status = "successful"): Promise<Payment> {
  const { results } = await (
    await portal().db()
  )
    .prepare(
      `SELECT id, amount, merchant_id AS merchantId, reference FROM transactions
       WHERE business_id = ? AND status = ? AND amount BETWEEN 2000 AND 40000 ORDER BY id LIMIT 400`,
    )
    .bind(tenant.businessId, status)
    .all<Payment>();
  for (const payment of results) {
    if (used.has(payment.id) || cardNumberPaths({ reference: payment.reference }).length > 0) continue;
    used.add(payment.id);
    if (status === "successful") await topUp(tenant, payment.merchantId, payment.amount * 3);
    return payment;
  }
  throw new Error(`no ${status} payment left for the test`);
}

const requestIdOf = async (refundId: string) =>
  (await (await portal().db()).prepare("SELECT id FROM approval_requests WHERE kind = 'refund' AND target_id = ?").bind(refundId).first<{ id: string }>())?.id;

/** Kofi (an administrator) made this key: refunds it asks for are his, and Ama (another administrator) decides them. */
let kofiKey = "";
beforeAll(async () => {
  kofiKey = await makeKey(portal(), KUMASI, { madeBy: "usr_kofi_boateng" });
});

const ask = (body: Record<string, unknown>, headers: Record<string, string> = {}, key = kofiKey) => api(portal(), key, "/api/v1/refunds", body, headers);
const refundBody = (payment: Payment, overrides: Record<string, unknown> = {}) => ({
  payment_reference: payment.reference,
  amount: 1_000,
  currency: "GHS",
  reason: "Ɔdɔ Ɛnyo: one item returned 🍲",
  ...overrides,
});

describe("POST /api/v1/refunds", () => {
  it("asks as the screen does: a refund waiting for approval, in the queue, no money moved; deciding it changes GET's answer", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const before = await getMerchantBalances(KOFI_KUMASI, payment.merchantId);
    const response = await ask(refundBody(payment));
    expect(response.status).toBe(201);
    const refund = await response.json<Record<string, unknown>>();
    expect(refund).toMatchObject({
      amount: 1_000,
      currency: "GHS",
      status: "pending_approval",
      reason: "Ɔdɔ Ɛnyo: one item returned 🍲",
      payment_reference: payment.reference,
      decided_at: null,
      completed_at: null,
      failure_reason: null,
    });
    const id = refund.id as string;
    expect(response.headers.get("Location")).toBe(`/api/v1/refunds/${id}`);
    expect(await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).toEqual(before);
    expect(await answerOf(await api(portal(), kofiKey, `/api/v1/refunds/${id}`))).toEqual({ status: 200, body: refund });

    // In the queue, for an administrator who did not ask: Ama sees it; it is Kofi's (his key's) request.
    const requestId = await requestIdOf(id);
    expect(requestId).toBeDefined();
    const queue = await (await portal().fetch("/approvals", { headers: await signedInCookie(portal(), "ama.mensah@example.com", KUMASI) })).text();
    expect(queue).toContain(`/approvals/refund/${requestId}`);
    const maker = await (await portal().db()).prepare("SELECT maker_id FROM approval_requests WHERE id = ?").bind(requestId).first<{ maker_id: string }>();
    expect(maker).toEqual({ maker_id: "usr_kofi_boateng" });
    // Four eyes: the key's maker cannot approve what his key asked.
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "refund", id)).rejects.toThrow();
    await approveMoneyRequest(AMA_KUMASI, META, "refund", id);
    const decided = await (await api(portal(), kofiKey, `/api/v1/refunds/${id}`)).json<Record<string, unknown>>();
    expect(["sending", "succeeded"]).toContain(decided.status);
    expect(decided.decided_at).toEqual(expect.any(String));
    // The list and the payment's answer say the same.
    const listed = await (
      await api(portal(), kofiKey, `/api/v1/refunds?payment_reference=${encodeURIComponent(payment.reference)}`)
    ).json<{ data: unknown[] }>();
    expect(listed.data).toContainEqual(decided);
  });

  it("a rejected request reads rejected", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const id = (await (await ask(refundBody(payment, { amount: 700 }))).json<{ id: string }>()).id;
    await rejectMoneyRequest(AMA_KUMASI, META, "refund", id, "Not returned yet");
    expect(await (await api(portal(), kofiKey, `/api/v1/refunds/${id}`)).json()).toMatchObject({ id, status: "rejected" });
  });

  it("refuses with the screen's words, each at its path: over what is left, a failed payment, an unknown reference, no reason", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const over = await answerOf(await ask(refundBody(payment, { amount: payment.amount + 1 })));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "amount", message: expect.stringMatching(/^This amount exceeds the amount left to refund of GHS [\d,]+\.\d{2}\.$/) }],
    });
    const failed = await freshPayment(KOFI_KUMASI, "failed");
    expect((await answerOf(await ask(refundBody(failed)))).body).toMatchObject({
      errors: [{ path: "payment_reference", message: "Only a successful payment can be refunded." }],
    });
    expect((await answerOf(await ask(refundBody(payment, { payment_reference: "NO-SUCH-PAYMENT-1" })))).body).toMatchObject({
      errors: [{ path: "payment_reference", message: "is not the reference of a payment of this business" }],
    });
    expect((await answerOf(await ask(refundBody(payment, { reason: "  ok ", amount: 0, currency: "USD", colour: "red" })))).body).toMatchObject({
      errors: expect.arrayContaining([
        { path: "reason", message: "Say why the payment is refunded." },
        { path: "amount", message: "Enter an amount above zero." },
        { path: "currency", message: "must be GHS" },
        { path: "colour", message: "is not a documented field" },
      ]),
    });
    // Another business's payment is answered as an unknown one.
    const accra = await (
      await portal().db()
    )
      .prepare("SELECT reference FROM transactions WHERE business_id = ? AND status = 'successful' LIMIT 1")
      .bind(ACCRA)
      .first<{ reference: string }>();
    expect((await answerOf(await ask(refundBody(payment, { payment_reference: accra!.reference })))).body).toMatchObject({
      errors: [{ path: "payment_reference", message: "is not the reference of a payment of this business" }],
    });
  });

  it("an Idempotency-Key makes a repeat one refund; the key on another body is 409", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const key = { "Idempotency-Key": crypto.randomUUID() };
    const first = await ask(refundBody(payment, { amount: 600 }), key);
    expect(first.status).toBe(201);
    const body = await first.json<{ id: string }>();
    const again = await ask(refundBody(payment, { amount: 600 }), key);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(body);
    const other = await answerOf(await ask(refundBody(payment, { amount: 601 }), key));
    expect(other).toMatchObject({ status: 409, body: { code: "idempotency_key_reused" } });
    const count = await (await portal().db()).prepare("SELECT count(*) AS n FROM refunds WHERE transaction_id = ?").bind(payment.id).first<{ n: number }>();
    expect(count).toEqual({ n: 1 });
    // Without a key, each request asks anew.
    expect((await ask(refundBody(payment, { amount: 100 }))).status).toBe(201);
    expect((await ask(refundBody(payment, { amount: 100 }))).status).toBe(201);
  });

  it("another business's refund id is 404 refund_not_found, as an unknown one", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const id = (await (await ask(refundBody(payment, { amount: 500 }))).json<{ id: string }>()).id;
    const accraKey = await makeKey(portal(), ACCRA, { madeBy: "usr_ama_mensah" });
    const notFound = { status: 404, body: { code: "refund_not_found", message: "No refund with that id." } };
    expect(await answerOf(await api(portal(), accraKey, `/api/v1/refunds/${id}`))).toEqual(notFound);
    expect(await answerOf(await api(portal(), kofiKey, "/api/v1/refunds/rfd_no-such-refund"))).toEqual(notFound);
    expect(await answerOf(await api(portal(), kofiKey, "/api/v1/refunds/not-a-refund-id"))).toEqual(notFound);
  });

  it("a key with no maker, or whose maker may not ask for refunds, is 403 key_maker_not_allowed", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const nobody = await makeKey(portal(), KUMASI);
    expect(await answerOf(await ask(refundBody(payment), {}, nobody))).toMatchObject({ status: 403, body: { code: "key_maker_not_allowed" } });
    // Yaw is a Viewer of Accra: he may not ask for refunds on the screen, nor through a key he made.
    const yaw = await makeKey(portal(), ACCRA, { madeBy: "usr_yaw_asante" });
    expect(await answerOf(await ask(refundBody(payment), {}, yaw))).toMatchObject({ status: 403, body: { code: "key_maker_not_allowed" } });
  });

  it("a platform key may not ask (business_key_required) and reads a refund with the payments scope", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const id = (await (await ask(refundBody(payment, { amount: 400 }))).json<{ id: string }>()).id;
    const { secret } = await makePlatformKeyFor(portal());
    const asKumasi = { "PP-Business": KUMASI };
    expect(await answerOf(await api(portal(), secret, "/api/v1/refunds", refundBody(payment), asKumasi))).toMatchObject({
      status: 403,
      body: { code: "business_key_required" },
    });
    expect((await api(portal(), secret, `/api/v1/refunds/${id}`, undefined, asKumasi)).status).toBe(200);
    const { secret: disputesOnly } = await makePlatformKeyFor(portal(), ["disputes"]);
    expect(await answerOf(await api(portal(), disputesOnly, `/api/v1/refunds/${id}`, undefined, asKumasi))).toMatchObject({
      status: 403,
      body: { code: "out_of_scope" },
    });
  });
});
