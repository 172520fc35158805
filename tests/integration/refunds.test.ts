// Refunds against real D1 in workerd, because their guarantees live in D1 batches and guards a mock would not run:
// asked by one person, approved by an administrator who did not ask;
// never more than the payment less what is refunded or waiting, only for successful payments, once per form, never
// past the merchant's available money (checked again inside the approval's batch, where two approvals racing meet);
// sent to the processor once, retried, and when it keeps failing the money returns. The ledger sums to zero throughout.
import { beforeAll, describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { approveMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import { getRefund } from "#server/refunds/refunds.db";
import { refundListItem } from "#server/webhooks/views";
import { ForbiddenError, NotFoundError, RuleError, type Tenant } from "#server/tenancy/tenant";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { MAX_REFUND_ATTEMPTS, processRefunds, simulatedRefunds, type RefundOrder, type RefundPort } from "#server/refunds/send";
import { moveBusiness } from "#server/tenancy/shard-move";
import { newWebhookSecret } from "#server/webhooks/signing";
import { expectAccountSumsMatchEntries, topUp } from "../support/ledger";
import { api, makeKey } from "../support/partner-api";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, ACCRA, AMA_ACCRA, AMA_KUMASI, businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META, YAW_ACCRA } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
let sequence = 0;
const nextKey = () => `refund-test-${(sequence += 1)}`;
const used = new Set<number>();

interface Payment {
  id: number;
  amount: number;
  merchantId: string;
  reference: string;
}

/** A payment of the business in `status` not used by another test; a successful one whose merchant holds `headroom` times its amount. */
async function freshPayment(tenant: Tenant, status = "successful", headroom = 3): Promise<Payment> {
  const db = await portal().db();
  const { results } = await db
    .prepare(
      `SELECT t.id, t.amount, t.merchant_id AS merchantId, t.reference FROM transactions t
       WHERE t.business_id = ? AND t.status = ? AND t.amount BETWEEN 2000 AND 40000 ORDER BY t.id LIMIT 400`,
    )
    .bind(tenant.businessId, status)
    .all<Payment>();
  for (const payment of results) {
    if (used.has(payment.id)) continue;
    used.add(payment.id);
    if (status === "successful") await topUp(tenant, payment.merchantId, payment.amount * headroom);
    return payment;
  }
  throw new Error(`no ${status} payment left for the test`);
}

async function one<T>(sql: string, ...binds: unknown[]): Promise<T | null> {
  return (await portal().db())
    .prepare(sql)
    .bind(...binds)
    .first<T>();
}

const refundedOf = async (paymentId: number) =>
  (await one<{ n: number }>("SELECT coalesce(SUM(amount), 0) AS n FROM refunds WHERE transaction_id = ? AND status IN ('sending', 'succeeded')", paymentId))!.n;
const requestIdOf = async (refundId: string) =>
  (await one<{ id: string }>("SELECT id FROM approval_requests WHERE kind = 'refund' AND target_id = ?", refundId))!.id;

/** A processor that records every call and answers by the simulated rules (amounts ending .99 refused, .98 once). */
function recordingPort(): RefundPort & { calls: RefundOrder[] } {
  const memory = new Map<string, string>();
  const simulated = simulatedRefunds({ get: async (key) => memory.get(key) ?? null, put: async (key, value) => void memory.set(key, value) });
  const calls: RefundOrder[] = [];
  return {
    kind: "recording",
    calls,
    async refund(order) {
      calls.push(order);
      // A slow processor: two senders running at once would both be inside this call.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return simulated.refund(order);
    },
  };
}

const HOUR = 3_600_000;

beforeAll(async () => {
  // Only a business that subscribed gets webhook events written (functions/webhooks/outbox.db.ts).
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/refunds", eventTypes: ["refund.succeeded", "refund.failed"] },
    newWebhookSecret(),
    "development",
  );
});

// Money goes back to a payer once: what refunds moved and what disputes hold or took of one payment never exceed it,
// whichever comes first (a dispute is the processor's, so its answer says what is left; a refund is refused by its field).
describe("a payment refunded and disputed", () => {
  it("refunds and disputes together never exceed the payment", async () => {
    const key = await makeKey(portal(), KUMASI);
    let payment = await freshPayment(KOFI_KUMASI, "successful", 4);
    while (cardNumberPaths({ reference: payment.reference }).length > 0) payment = await freshPayment(KOFI_KUMASI, "successful", 4);
    const dispute = (amount: number) =>
      api(portal(), key, "/api/v1/disputes", {
        payment_reference: payment.reference,
        reason_code: "13.1",
        amount,
        currency: "GHS",
        evidence_due_by: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      });
    const ask = (amount: number) => requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount, reason: "Goods returned", idempotencyKey: nextKey() });

    const refund = await ask(1000);
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", refund.id);
    const over = await dispute(payment.amount - 999);
    expect(over.status).toBe(400);
    expect((await over.json<{ errors: unknown[] }>()).errors).toEqual([
      { path: "amount", message: `is more than the payment's amount not yet disputed or refunded (${payment.amount - 1000} pesewas)` },
    ]);
    expect((await dispute(payment.amount - 1500)).status).toBe(201);

    // 500 is left: a refund of 501 is refused by its amount, one of 500 is taken; then nothing is left.
    await expect(ask(501)).rejects.toThrow(/amount left to refund of GHS 5\.00\./);
    const last = await ask(500);
    await expect(ask(1)).rejects.toThrow(/already refunded in full \(or waits for refunds, or is disputed, for its whole amount\)/);
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", last.id);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

describe("asking for a refund", () => {
  it("moves no money and waits in the approvals queue as a refund", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const before = await getMerchantBalances(KOFI_KUMASI, payment.merchantId);
    const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: 500, reason: "Goods returned", idempotencyKey: nextKey() });
    expect(await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).toEqual(before);
    expect(await one("SELECT status FROM approval_requests WHERE kind = 'refund' AND target_id = ?", id)).toEqual({ status: "pending" });
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("pending_approval");
    // In the queue its action says what is asked: a refund (not "Create", the row it makes).
    const queue = await (await portal().fetch("/approvals", { headers: await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI) })).text();
    const requestId = await requestIdOf(id);
    const row = queue.split("<tr").find((tr) => tr.includes(`/approvals/refund/${requestId}`));
    expect(row).toBeDefined();
    expect(row).toMatch(/>Refund</);
    expect(row).not.toMatch(/>Create</);
  });

  it("never more than the payment less what is refunded or waiting, said by the amount", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const ask = (amount: number, tenant: Tenant = ABENA_KUMASI) =>
      requestRefund(tenant, META, { transactionId: payment.id, amount, reason: "Overcharged", idempotencyKey: nextKey() });
    await expect(ask(payment.amount + 1)).rejects.toThrow(/This amount exceeds the amount left to refund of GHS [\d,]+\.\d{2}\./);
    const first = await ask(payment.amount - 300);
    // 300 is left while the first waits.
    await expect(ask(301)).rejects.toThrow(/amount left to refund of GHS 3\.00\./);
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", first.id);
    await expect(ask(301)).rejects.toThrow(/amount left to refund of GHS 3\.00\./);
    await ask(300);
    await expect(ask(1)).rejects.toThrow(/already refunded in full/);
  });

  it("two asks at once that together exceed the payment: one is made, the other refused by the amount", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const part = Math.floor(payment.amount * 0.6);
    const ask = (tenant: Tenant) => requestRefund(tenant, META, { transactionId: payment.id, amount: part, reason: "Returned", idempotencyKey: nextKey() });
    const outcomes = await Promise.allSettled([ask(ESI_KUMASI), ask(ABENA_KUMASI), ask(KOFI_KUMASI)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === "rejected")) expect(String(o.reason)).toMatch(/amount left to refund/);
    expect(await one("SELECT COUNT(*) AS n FROM refunds WHERE transaction_id = ?", payment.id)).toEqual({ n: 1 });
  });

  it("only a successful payment: failed and reversed ones are refused", async () => {
    const failed = await freshPayment(KOFI_KUMASI, "failed");
    const reversed = await freshPayment(KOFI_KUMASI, "reversed");
    await expect(requestRefund(ESI_KUMASI, META, { transactionId: failed.id, amount: 100, reason: "Asked", idempotencyKey: nextKey() })).rejects.toThrow(
      "Only a successful payment can be refunded.",
    );
    await expect(requestRefund(ESI_KUMASI, META, { transactionId: reversed.id, amount: 100, reason: "Asked", idempotencyKey: nextKey() })).rejects.toThrow(
      /was reversed/,
    );
    expect(await one<{ n: number }>("SELECT COUNT(*) AS n FROM refunds WHERE transaction_id IN (?, ?)", failed.id, reversed.id)).toEqual({ n: 0 });
  });

  it("a double submit (the same key, even at once) is one request", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const input = { transactionId: payment.id, amount: 700, reason: "Double charged", idempotencyKey: nextKey() };
    const [a, b] = await Promise.all([requestRefund(ESI_KUMASI, META, input), requestRefund(ESI_KUMASI, META, input)]);
    const c = await requestRefund(ESI_KUMASI, META, input);
    expect(new Set([a.id, b.id, c.id]).size).toBe(1);
    expect(await one("SELECT COUNT(*) AS n FROM refunds WHERE idempotency_key = ?", input.idempotencyKey)).toEqual({ n: 1 });
    expect(await one("SELECT COUNT(*) AS n FROM approval_requests WHERE kind = 'refund' AND target_id = ?", a.id)).toEqual({ n: 1 });
  });

  it("refuses a reason left empty, a Viewer, and another business's payment (as not found)", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    await expect(requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: 100, reason: "  ", idempotencyKey: nextKey() })).rejects.toThrow(
      "Say why the payment is refunded.",
    );
    const accra = await freshPayment(AMA_ACCRA, "successful", 1);
    await expect(requestRefund(YAW_ACCRA, META, { transactionId: accra.id, amount: 100, reason: "Asked", idempotencyKey: nextKey() })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(requestRefund(AMA_ACCRA, META, { transactionId: payment.id, amount: 100, reason: "Asked", idempotencyKey: nextKey() })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("deciding a refund", () => {
  it("approving posts available -> refund payable by exactly the amount; the maker cannot decide, nor Operations", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(KOFI_KUMASI, META, { transactionId: payment.id, amount: 1_234, reason: "Goods returned", idempotencyKey: nextKey() });
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "refund", id)).rejects.toThrow("You cannot decide your own request.");
    await expect(approveMoneyRequest(ESI_KUMASI, META, "refund", id)).rejects.toBeInstanceOf(ForbiddenError);
    const before = await getMerchantBalances(KOFI_KUMASI, payment.merchantId);
    const approved = await approveMoneyRequest(AMA_KUMASI, META, "refund", id);
    expect(approved.status).toBe("sending");
    expect((await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).available).toBe(before.available - 1_234);
    const lines = await (
      await portal().db()
    )
      .prepare("SELECT a.kind, e.amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE e.posting_id = ? ORDER BY e.amount")
      .bind(`pst_${id}`)
      .all<{ kind: string; amount: number }>();
    expect(lines.results).toEqual([
      { kind: "refund_payable", amount: -1_234 },
      { kind: "merchant_available", amount: 1_234 },
    ]);
    // A second approval finds nothing pending.
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "refund", id)).rejects.toThrow("This refund is already approved.");
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("rejecting needs a reason and moves nothing", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: 200, reason: "Asked", idempotencyKey: nextKey() });
    const before = await getMerchantBalances(KOFI_KUMASI, payment.merchantId);
    await expect(rejectMoneyRequest(KOFI_KUMASI, META, "refund", id, " ")).rejects.toThrow("Say why the refund is rejected.");
    expect((await rejectMoneyRequest(KOFI_KUMASI, META, "refund", id, "Not our customer")).status).toBe("rejected");
    expect(await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).toEqual(before);
  });

  it("two partial refunds approved at once never refund more than the payment", async () => {
    const payment = await freshPayment(KOFI_KUMASI, "successful", 4);
    const part = Math.floor(payment.amount * 0.6);
    const first = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: part, reason: "Half returned", idempotencyKey: nextKey() });
    // Two asks that raced past the ask's own check (it reads, then writes) leave two requests that together are too much.
    const db = await portal().db();
    const secondId = `rfd_${crypto.randomUUID()}`;
    await db.batch([
      db
        .prepare(
          `INSERT INTO refunds (id, business_id, transaction_id, merchant_id, amount, reason, status, idempotency_key, requested_by, created_at)
           SELECT ?, business_id, transaction_id, merchant_id, amount, 'Raced', status, ?, requested_by, created_at FROM refunds WHERE id = ?`,
        )
        .bind(secondId, nextKey(), first.id),
      db
        .prepare(
          `INSERT INTO approval_requests (id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at, status)
           SELECT ?, business_id, kind, action, ?, NULL, NULL, after_json, maker_id, made_at, 'pending' FROM approval_requests WHERE kind = 'refund' AND target_id = ?`,
        )
        .bind(`req_${crypto.randomUUID()}`, secondId, first.id),
    ]);
    const outcomes = await Promise.allSettled([
      approveMoneyRequest(KOFI_KUMASI, META, "refund", first.id),
      approveMoneyRequest(AMA_KUMASI, META, "refund", secondId),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RuleError);
    expect(String(refused.reason.message)).toMatch(/amount left to refund/);
    expect(await refundedOf(payment.id)).toBe(part);
    expect(await one("SELECT COUNT(*) AS n FROM ledger_postings WHERE posting_key IN (?, ?)", `pst_${first.id}`, `pst_${secondId}`)).toEqual({ n: 1 });
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("the available balance is checked again inside the approval's batch", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount: payment.amount, reason: "Returned", idempotencyKey: nextKey() });
    // Meanwhile the merchant's money moves to another merchant, leaving less than the refund.
    const db = await portal().db();
    const other = (await db
      .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' AND id <> ? LIMIT 1")
      .bind(KUMASI, payment.merchantId)
      .first<{ id: string }>())!;
    const { available } = await getMerchantBalances(KOFI_KUMASI, payment.merchantId);
    const transfer = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: payment.merchantId,
      to: { kind: "merchant", id: other.id },
      amount: available - payment.amount + 1,
      idempotencyKey: nextKey(),
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "transfer", transfer.id);
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "refund", id)).rejects.toThrow(/exceeds the available balance of GHS/);
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("pending_approval");
    expect((await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).available).toBe(payment.amount - 1);
    expect(await one("SELECT COUNT(*) AS n FROM ledger_postings WHERE posting_key = ?", `pst_${id}`)).toEqual({ n: 0 });
  });
});

describe("sending a refund to the processor", () => {
  async function approved(amount: number): Promise<{ id: string; payment: Payment }> {
    const payment = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: payment.id, amount, reason: "Returned", idempotencyKey: nextKey() });
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
    return { id, payment };
  }
  const eventsOf = async (id: string) =>
    (
      await (
        await portal().db()
      )
        .prepare("SELECT type, payload, payload_extra FROM webhook_events WHERE id LIKE ? ORDER BY created_at")
        .bind(`evt_${id}_%`)
        .all<{ type: string; payload: string; payload_extra: string | null }>()
    ).results.map((e) => ({ type: e.type, data: JSON.parse(e.payload) as Record<string, unknown>, extra: JSON.parse(e.payload_extra ?? "null") as unknown }));

  it("succeeds once: refund payable -> scheme receivable, refund.succeeded, never sent again", async () => {
    const { id, payment } = await approved(1_500);
    const port = recordingPort();
    const [a, b] = await Promise.all([processRefunds(businessOf(KUMASI), port), processRefunds(businessOf(KUMASI), port)]);
    expect([...a.succeeded, ...b.succeeded].filter((s) => s === id)).toHaveLength(1);
    expect(port.calls.filter((c) => c.idempotencyKey === id)).toEqual([
      { idempotencyKey: id, paymentReference: payment.reference, channel: expect.any(String), amount: 1_500, attempt: 1 },
    ]);
    await processRefunds(businessOf(KUMASI), port, { now: Date.now() + 5 * HOUR });
    expect(port.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(1);
    const refund = (await getRefund(KOFI_KUMASI, id))!;
    expect(refund.status).toBe("succeeded");
    // The refund as GET /api/v1/refunds/{id} answers it now.
    expect(await eventsOf(id)).toEqual([
      {
        type: "refund.succeeded",
        data: refundListItem({ ...refund, paymentReference: payment.reference }),
        extra: null,
      },
    ]);
    expect(await one("SELECT COUNT(*) AS n FROM refund_attempts WHERE refund_id = ?", id)).toEqual({ n: 1 });
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("a failure is retried with backoff; after the last, the money returns and refund.failed goes out", async () => {
    const { id, payment } = await approved(199); // .99: the simulated payer's bank always refuses
    const port = recordingPort();
    const afterApproval = (await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).available;
    const first = await processRefunds(businessOf(KUMASI), port);
    expect(first.failed).toContainEqual({ id, error: expect.stringMatching(/refused/), final: false });
    // Not due again yet: nothing is sent.
    await processRefunds(businessOf(KUMASI), port);
    expect(port.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(1);
    for (let attempt = 2; attempt <= MAX_REFUND_ATTEMPTS; attempt += 1)
      await processRefunds(businessOf(KUMASI), port, { now: Date.now() + attempt * 2 * HOUR });
    expect(port.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(MAX_REFUND_ATTEMPTS);
    const refund = (await getRefund(KOFI_KUMASI, id))!;
    expect(refund).toMatchObject({ status: "failed", attempts: MAX_REFUND_ATTEMPTS, failureReason: expect.stringMatching(/refused/) });
    expect((await getMerchantBalances(KOFI_KUMASI, payment.merchantId)).available).toBe(afterApproval + 199);
    expect(await refundedOf(payment.id)).toBe(0);
    expect(await eventsOf(id)).toEqual([
      {
        type: "refund.failed",
        data: refundListItem({ ...refund, paymentReference: payment.reference }),
        extra: { attempts: MAX_REFUND_ATTEMPTS },
      },
    ]);
    // Failed for good: never sent again.
    await processRefunds(businessOf(KUMASI), port, { now: Date.now() + 48 * HOUR });
    expect(port.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(MAX_REFUND_ATTEMPTS);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("the 5-minute cron sends what the approval did not (the Worker's own simulated processor)", async () => {
    const { id } = await approved(450);
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("sending");
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    expect((await getRefund(KOFI_KUMASI, id))!).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("a first attempt that times out succeeds when tried again", async () => {
    const { id } = await approved(298); // .98: the simulated network times out once
    const port = recordingPort();
    await processRefunds(businessOf(KUMASI), port);
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("sending");
    await processRefunds(businessOf(KUMASI), port, { now: Date.now() + HOUR });
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("succeeded");
    expect(
      (await (await portal().db()).prepare("SELECT outcome FROM refund_attempts WHERE refund_id = ? ORDER BY attempt").bind(id).all<{ outcome: string }>())
        .results,
    ).toEqual([{ outcome: "failed" }, { outcome: "succeeded" }]);
  });
});

describe("the screens and the Partner API", () => {
  // Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts).
  const post = (path: string, form: Record<string, string>, cookie: { Cookie: string }) =>
    sendChecked(portal().core(), cookie, () =>
      portal().fetch(path, {
        method: "POST",
        headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
        body: new URLSearchParams(form).toString(),
      }),
    );

  it("a Viewer never sees the refund and is refused with 403; another business's payment and refund are 404", async () => {
    const accra = await freshPayment(AMA_ACCRA, "successful", 1);
    const yaw = await signedInCookie(portal(), "yaw.asante@example.com", ACCRA);
    const detail = await (await portal().fetch(`/transactions?tx=${accra.id}`, { headers: yaw })).text();
    expect(detail).toContain(accra.reference);
    expect(detail).not.toContain(`/transactions/${accra.id}/refund`);
    expect((await portal().fetch(`/transactions/${accra.id}/refund`, { headers: yaw })).status).toBe(403);
    expect((await post(`/transactions/${accra.id}/refund`, { amount: "1.00", reason: "Asked", idempotencyKey: crypto.randomUUID() }, yaw)).status).toBe(403);
    expect(await one("SELECT COUNT(*) AS n FROM refunds WHERE transaction_id = ?", accra.id)).toEqual({ n: 0 });

    const kumasi = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: kumasi.id, amount: 100, reason: "Asked", idempotencyKey: nextKey() });
    const amaAccra = await signedInCookie(portal(), "ama.mensah@example.com", ACCRA);
    expect((await portal().fetch(`/transactions/${kumasi.id}/refund`, { headers: amaAccra })).status).toBe(404);
    expect((await portal().fetch(`/approvals/refund/${await requestIdOf(id)}`, { headers: amaAccra })).status).toBe(404);
    expect((await post(`/approvals/refund/${await requestIdOf(id)}`, { intent: "approve" }, amaAccra)).status).toBe(404);
    expect((await getRefund(KOFI_KUMASI, id))!.status).toBe("pending_approval");
    await expect(approveMoneyRequest(AMA_ACCRA, META, "refund", id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("asked on the form, approved on its page, sent at once: the payment reads Partially refunded and the API answers its refunds", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const esi = await signedInCookie(portal(), "esi.owusu@example.com", KUMASI);
    const asked = await post(`/transactions/${payment.id}/refund`, { amount: "2.50", reason: "Ɔkɔtɔ returned 😊", idempotencyKey: crypto.randomUUID() }, esi);
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`/transactions?tx=${payment.id}`);
    const refund = (await one<{ id: string }>("SELECT id FROM refunds WHERE transaction_id = ?", payment.id))!;
    const kofi = await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI);
    const page = await (await portal().fetch(`/approvals/refund/${await requestIdOf(refund.id)}`, { headers: kofi })).text();
    expect(page).toContain(payment.reference);
    expect(page).toContain("Merchant&#x27;s available balance now (GHS)");
    expect((await post(`/approvals/refund/${await requestIdOf(refund.id)}`, { intent: "approve" }, kofi)).status).toBe(302);
    const deadline = Date.now() + 10_000;
    while ((await getRefund(KOFI_KUMASI, refund.id))!.status !== "succeeded" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await getRefund(KOFI_KUMASI, refund.id))!.status).toBe("succeeded");
    const detail = await (await portal().fetch(`/transactions?tx=${payment.id}`, { headers: kofi })).text();
    expect(detail).toContain("Partially refunded");
    expect(detail).toContain("Ɔkɔtɔ returned 😊");

    const key = await makeKey(portal(), KUMASI);
    const answer = await (await api(portal(), key, `/api/v1/payments/${payment.reference}`)).json<Record<string, unknown>>();
    expect(answer).toMatchObject({
      reference: payment.reference,
      refunded: 250,
      refunds: [{ id: refund.id, amount: 250, currency: "GHS", status: "succeeded", reason: "Ɔkɔtɔ returned 😊", completed_at: expect.any(String) }],
    });
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("the dashboard, reports and CSVs count refunds apart from reversals", async () => {
    const payment = await freshPayment(KOFI_KUMASI);
    const { id } = await requestRefund(ABENA_KUMASI, META, { transactionId: payment.id, amount: 321, reason: "Returned", idempotencyKey: nextKey() });
    const abena = await signedInCookie(portal(), "abena.darko@example.com", KUMASI);
    const refundsFigure = async (path: string) => {
      const html = await (await portal().fetch(path, { headers: abena })).text();
      return /Refunds \(GHS\)<\/dt><dd>([\d,]+\.\d{2})<span class="cell-sub">(\d+) refunds?<\/span><\/dd>/.exec(html)!.slice(1);
    };
    const [dashboardBefore, reportBefore] = [await refundsFigure("/"), await refundsFigure("/reports?range=today")];
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
    const plus = ([amount, count]: string[]) => [
      ((Number(amount!.replace(/,/g, "")) * 100 + 321) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 }),
      String(Number(count) + 1),
    ];
    expect(await refundsFigure("/")).toEqual(plus(dashboardBefore));
    expect(await refundsFigure("/reports?range=today")).toEqual(plus(reportBefore));
    const html = await (await portal().fetch("/", { headers: abena })).text();
    expect(html).toContain("Reversals (GHS)");

    const csv = (await (await portal().fetch("/reports/export?range=today", { headers: abena })).text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(csv[0]).toBe("Day,Payments,Value (GHS),Fees (GHS),Refunds (GHS)");
    expect(Number(csv[1]!.split(",")[4])).toBeGreaterThanOrEqual(3.21);

    const paidDay = new Date((await one<{ at: number }>("SELECT created_at AS at FROM transactions WHERE id = ?", payment.id))!.at).toISOString().slice(0, 10);
    const rows = (await (await portal().fetch(`/transactions/export?range=custom&from=${paidDay}&to=${paidDay}`, { headers: abena })).text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(rows[0]!.split(",").at(-1)).toBe("Refunded (GHS)");
    expect(
      rows
        .find((row) => row.startsWith(`${payment.reference},`))!
        .split(",")
        .at(-1),
    ).toBe("3.21");
  });
});

describe("a business moving to another database", () => {
  it("takes its refunds along, each still on its own payment, with its attempts", async () => {
    const places = async () =>
      new Map(
        (await portal().core().prepare("SELECT business_id, shard FROM business_shards").all<{ business_id: string; shard: string }>()).results.map((row) => [
          row.business_id,
          row.shard,
        ]),
      );
    const from = (await places()).get(KUMASI)!;
    const to = [...new Set((await places()).values())].find((shard) => shard !== from)!;
    const read = (db: D1Database) =>
      db
        .prepare(
          `SELECT r.id, t.reference, r.amount, r.status, (SELECT COUNT(*) FROM refund_attempts a WHERE a.refund_id = r.id AND a.business_id = r.business_id) AS attempts
           FROM refunds r JOIN transactions t ON t.id = r.transaction_id AND t.business_id = r.business_id WHERE r.business_id = ? ORDER BY r.id`,
        )
        .bind(KUMASI)
        .all()
        .then((rows) => rows.results);
    const before = await read(portal().database(from));
    expect(before.length).toBeGreaterThan(5);
    await moveBusiness({ core: portal().core(), database: (name) => portal().database(name) }, KUMASI, to, { pageSize: 50 });
    await portal().refreshPlaces();
    expect(await read(portal().database(to))).toEqual(before);
    expect(await portal().database(from).prepare("SELECT COUNT(*) AS n FROM refunds WHERE business_id = ?").bind(KUMASI).first("n")).toBe(0);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

describe("the events it wrote", () => {
  it("each holds what the OpenAPI document says its type's data holds", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen].sort()).toEqual(expect.arrayContaining(["approval.requested", "refund.failed", "refund.succeeded"]));
  });
});
