// A transfer to a merchant's own settlement account is paid out (decision 052), in the built Worker with PAYOUT_RAIL
// pointed at a local fake of Paystack: Finance asks with a narration, an administrator approves, and the approval
// writes the payout as a settlement that is sent at once, under a TRF- reference, with the narration as the transfer's
// reason. Paystack's webhook marks it paid; the transfer history, its CSV, the Settlement History and both webhook
// events say so. An account closed meanwhile stops the approval whole; a failed payout waits before the five-minute
// job sends it again; two payouts of one merchant at one instant are two settlements.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { railKey, type RailAnswer } from "#server/rails/answer";
import { paystackReference } from "#server/rails/paystack";
import { processPayouts, TRANSFER_PAYOUT_RETRY_DELAYS_MS, type Payout, type PayoutPort } from "#server/settlement/payouts";
import { insertSettlementStatement } from "#server/settlement/settlement-runs.db";
import { transferPayoutStatements } from "#server/settlement/transfer-payouts.db";
import { clearBatchGuardsStatement } from "#server/plumbing/batch-guards.db";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { startFakePaystack, type FakePaystack } from "../support/fake-paystack";
import { sendChecked } from "../support/fresh-check";
import { textOf } from "../support/html";
import { api, makeKey } from "../support/partner-api";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

let fake: FakePaystack;
afterAll(() => fake?.close());
const portal = usePortal(async () => {
  fake = await startFakePaystack();
  return { vars: fake.vars() };
});

const ABENA = "abena.darko@example.com";
const NARRATION = "Ɔbaa Ŋkansah's float for Ɛjisu 🌍";
const db = () => portal().businessDb(KUMASI);

beforeAll(async () => {
  // Only a business that subscribed gets webhook events written (functions/webhooks/outbox.db.ts).
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/transfers", eventTypes: ["transfer.approved", "settlement.paid", "settlement.failed"] },
    newWebhookSecret(),
    "development",
  );
  // Kumasi's bank accounts at a bank Paystack has a code for.
  await db().prepare("UPDATE settlement_accounts SET provider = 'GCB Bank' WHERE business_id = ? AND kind = 'bank'").bind(KUMASI).run();
});

function post(path: string, form: Record<string, string>, cookie: { Cookie: string }) {
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

interface PayoutRow {
  id: string;
  reference: string;
  transfer_id: string;
  period_start: number;
  period_end: number;
  gross: number;
  fees: number;
  net: number;
  status: string;
  attempts: number;
  rail: string | null;
  rail_reference: string | null;
  rail_waiting_since: string | null;
}

const payoutOf = (transferId: string) => db().prepare("SELECT * FROM settlements WHERE transfer_id = ?").bind(transferId).first<PayoutRow>();

/** The richest active merchant with an active settlement account, and that account. */
async function richestWithAccount(): Promise<{ merchantId: string; accountId: string }> {
  const { results } = await db()
    .prepare(
      `SELECT m.id AS merchantId, a.id AS accountId FROM merchants m JOIN settlement_accounts a ON a.merchant_id = m.id AND a.business_id = m.business_id
       WHERE m.business_id = ? AND m.status = 'active' AND a.status = 'active' ORDER BY a.is_primary DESC`,
    )
    .bind(KUMASI)
    .all<{ merchantId: string; accountId: string }>();
  const withBalance = await Promise.all(results.map(async (r) => ({ ...r, available: (await getMerchantBalances(ABENA_KUMASI, r.merchantId)).available })));
  withBalance.sort((a, b) => b.available - a.available);
  return withBalance[0]!;
}

/** Abena asks for a transfer of `amount` (in cedis, as typed) to the account; returns the request's and the transfer's ids. */
async function asked(to: { merchantId: string; accountId: string }, amount: string, narration = NARRATION) {
  const key = crypto.randomUUID();
  const response = await post(
    "/money/merchant-funds",
    { intent: "transfer", from: to.merchantId, to: `sa:${to.accountId}`, amount, narration, idempotencyKey: key },
    await signedInCookie(portal(), ABENA, KUMASI),
  );
  expect(response.status).toBe(302);
  const row = await db()
    .prepare("SELECT r.id AS requestId, t.id AS transferId FROM transfers t JOIN approval_requests r ON r.target_id = t.id WHERE t.idempotency_key = ?")
    .bind(key)
    .first<{ requestId: string; transferId: string }>();
  return row!;
}

describe("a transfer to the merchant's own settlement account", () => {
  let transferId = "";
  let merchantId = "";

  it("is paid out once approved: a settlement of its own, sent at once, under a TRF- reference with the narration", async () => {
    const to = await richestWithAccount();
    merchantId = to.merchantId;
    const asking = await asked(to, "12.34");
    transferId = asking.transferId;
    // Asked is not approved: nothing is due to go anywhere.
    expect(await payoutOf(transferId)).toBeNull();

    const approved = await post(`/approvals/transfer/${asking.requestId}`, { intent: "approve" }, await signedInCookie(portal()));
    expect(approved.status).toBe(302);
    const payout = (await payoutOf(transferId))!;
    expect(payout).toMatchObject({ gross: 1_234, fees: 0, net: 1_234, transfer_id: transferId });
    expect(payout.reference).toMatch(/^TRF-[A-Z0-9-]+-[0-9A-F]{16}$/);
    expect(payout.period_end).toBe(payout.period_start);

    // Sent after the answer (waitUntil): Paystack queues it, and the portal waits for its webhook.
    await expect.poll(async () => (await payoutOf(transferId))?.rail_waiting_since ?? null, { timeout: 15_000 }).not.toBeNull();
    const sent = (await payoutOf(transferId))!;
    expect(sent).toMatchObject({ rail: "paystack", attempts: 1, status: "pending" });
    expect(fake.transfers.get(paystackReference(sent.reference)!)).toMatchObject({ amount: 1_234, currency: "GHS", reason: NARRATION });
    expect(fake.violations).toEqual([]);

    // The approval's event names the payout's settlement and carries the narration.
    const event = await db().prepare("SELECT payload AS data FROM webhook_events WHERE id = ?").bind(`evt_${transferId}_approved`).first<{ data: string }>();
    expect(JSON.parse(event!.data)).toMatchObject({ id: transferId, settlement: sent.id, narration: NARRATION, to_settlement_account: to.accountId });
  });

  it("Paystack's webhook pays it, and the history, its CSV and the Settlement History show the rail's reference", async () => {
    const sent = (await payoutOf(transferId))!;
    const reference = paystackReference(railKey(sent.reference, sent.attempts))!;
    fake.settle(reference, "success");
    const signed = fake.webhook("transfer.success", reference);
    const answer = await portal().fetch("/api/v1/callbacks/paystack", { method: "POST", headers: signed.headers, body: signed.body });
    expect(await answer.json()).toEqual({ received: true, applied: "applied" });
    const paid = (await payoutOf(transferId))!;
    expect(paid).toMatchObject({ status: "paid", rail_waiting_since: null });
    expect(paid.rail_reference).toMatch(/^TRF_/);

    const settled = await db().prepare("SELECT payload AS data FROM webhook_events WHERE id = ?").bind(`evt_${paid.id}_paid`).first<{ data: string }>();
    expect(JSON.parse(settled!.data)).toMatchObject({ id: paid.id, transfer: transferId, status: "paid", net: 1_234 });

    const kofi = await signedInCookie(portal());
    const history = textOf(await (await portal().fetch(`/money/merchant-accounts/transfer-history/${merchantId}`, { headers: kofi })).text());
    expect(history).toContain(paid.reference);
    expect(history).toContain(`Rail reference ${paid.rail_reference}`);

    const csv = await (await portal().fetch(`/money/merchant-accounts/transfer-history/${merchantId}/export`, { headers: kofi })).text();
    const [header, ...lines] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toContain("Payout,Payout reference,Rail reference,Paid out (UTC)");
    const line = lines.find((l) => l.startsWith(transferId))!;
    expect(line).toContain(NARRATION);
    expect(line).toContain(`Paid,${paid.reference},${paid.rail_reference},`);

    // The Partner API lists it with the settlements, naming its transfer.
    const listed = await (await api(portal(), await makeKey(portal(), KUMASI), "/api/v1/settlements?limit=100")).json<{ data: Record<string, unknown>[] }>();
    expect(listed.data.find((s) => s.id === paid.id)).toMatchObject({ transfer: transferId, reference: paid.reference, fees: 0, net: 1_234, status: "paid" });

    const settlements = textOf(await (await portal().fetch(`/money/settlement-history?s=${paid.id}`, { headers: kofi })).text());
    expect(settlements).toContain("Transfer payout");
    expect(settlements).toContain("it covers no payments of its own");
  });

  it("an account closed after the asking stops the approval whole: nothing moves, nothing is paid out, it still waits", async () => {
    const to = await richestWithAccount();
    const { requestId, transferId: closedTransfer } = await asked(to, "1.00", "");
    const before = await getMerchantBalances(ABENA_KUMASI, to.merchantId);
    await db().prepare("UPDATE settlement_accounts SET status = 'inactive' WHERE id = ?").bind(to.accountId).run();
    try {
      const refused = await post(`/approvals/transfer/${requestId}`, { intent: "approve" }, await signedInCookie(portal()));
      expect(refused.status).toBe(400);
      expect(textOf(await refused.text())).toContain("the settlement account it pays out to is no longer active");
      expect(await getMerchantBalances(ABENA_KUMASI, to.merchantId)).toEqual(before);
      expect(await payoutOf(closedTransfer)).toBeNull();
      expect(await db().prepare("SELECT status FROM transfers WHERE id = ?").bind(closedTransfer).first<string>("status")).toBe("pending_approval");
    } finally {
      await db().prepare("UPDATE settlement_accounts SET status = 'active' WHERE id = ?").bind(to.accountId).run();
    }
  });
});

describe("the five-minute job's retries of a failed transfer payout", () => {
  /** A port that answers every payout with `answer`, and remembers what it was sent. */
  function portAnswering(answer: RailAnswer): PayoutPort & { sent: Payout[] } {
    const sent: Payout[] = [];
    return { kind: "switch", sent, pay: async (payout) => (sent.push(payout), answer) };
  }

  it("waits 5 minutes after a failure before it sends again, under the next attempt, and pays what it may", async () => {
    const to = await richestWithAccount();
    const { requestId, transferId } = await asked(to, "0.75", "");
    expect((await post(`/approvals/transfer/${requestId}`, { intent: "approve" }, await signedInCookie(portal()))).status).toBe(302);
    // The send after the approval went to Paystack, which refuses it for good.
    await expect.poll(async () => (await payoutOf(transferId))?.attempts ?? 0, { timeout: 15_000 }).toBe(1);
    const first = (await payoutOf(transferId))!;
    fake.settle(paystackReference(first.reference)!, "failed");
    const signed = fake.webhook("transfer.failed", paystackReference(first.reference)!);
    await portal().fetch("/api/v1/callbacks/paystack", { method: "POST", headers: signed.headers, body: signed.body });
    expect((await payoutOf(transferId))!.status).toBe("failed");

    const business = businessOf(KUMASI);
    const failedAt = Date.now();
    const refusing = portAnswering({ ok: false, error: "Bank did not answer", rail: { rail: "switch", reference: null, status: "failed" } });
    expect((await processPayouts(business, refusing, { transfersOnly: true, now: failedAt + TRANSFER_PAYOUT_RETRY_DELAYS_MS[0]! - 60_000 })).failed).toEqual(
      [],
    );
    expect(refusing.sent).toEqual([]);
    const second = await processPayouts(business, refusing, { transfersOnly: true, now: failedAt + TRANSFER_PAYOUT_RETRY_DELAYS_MS[0]! + 60_000 });
    expect(second.failed.map((f) => f.id)).toEqual([first.id]);
    expect(refusing.sent).toMatchObject([{ reference: first.reference, attempt: 2, narration: `Transfer ${first.reference}`, amount: 75 }]);

    // After the second failure the wait is 15 minutes; then a rail that pays, pays it once.
    const paying = portAnswering({ ok: true, rail: { rail: "switch", reference: "sw_paid", status: "succeeded" } });
    const secondAt = Date.now();
    await processPayouts(business, paying, { transfersOnly: true, now: secondAt + TRANSFER_PAYOUT_RETRY_DELAYS_MS[0]! + 60_000 });
    expect(paying.sent).toEqual([]);
    expect((await processPayouts(business, paying, { transfersOnly: true, now: secondAt + TRANSFER_PAYOUT_RETRY_DELAYS_MS[1]! + 60_000 })).paid).toEqual([
      first.id,
    ]);
    expect(await payoutOf(transferId)).toMatchObject({ status: "paid", attempts: 3, rail_reference: "sw_paid" });
    await processPayouts(business, paying, { transfersOnly: true, now: secondAt + 24 * 3_600_000 });
    expect(paying.sent).toHaveLength(1);
  });

  it("the daily run's settlements are not the five-minute job's", async () => {
    const business = businessOf(KUMASI);
    const to = await richestWithAccount();
    const periodStart = Date.UTC(2020, 0, 1);
    await db().batch([
      insertSettlementStatement(business, {
        id: "stl_daily_not_the_jobs",
        merchantId: to.merchantId,
        settlementAccountId: to.accountId,
        periodStart,
        periodEnd: periodStart + 86_400_000,
        gross: 100,
        fees: 0,
        net: 100,
        reference: "STL-DAILY-20200101-TEST",
        createdAt: new Date(periodStart).toISOString(),
      }),
    ]);
    const port = portAnswering({ ok: true, rail: { rail: "switch", reference: "sw_x", status: "succeeded" } });
    await processPayouts(business, port, { transfersOnly: true, now: Date.now() + 24 * 3_600_000 });
    expect(port.sent.map((p) => p.reference)).not.toContain("STL-DAILY-20200101-TEST");
    // The daily run pays it (and says so in the daily run's words).
    const daily = portAnswering({ ok: true, rail: { rail: "switch", reference: "sw_y", status: "succeeded" } });
    await processPayouts(business, daily, { limit: 500 });
    expect(daily.sent.find((p) => p.reference === "STL-DAILY-20200101-TEST")).toMatchObject({ narration: "Settlement STL-DAILY-20200101-TEST" });
  });
});

describe("two payouts of one merchant at one instant (a bulk decision)", () => {
  it("are two settlements: one a day holds for the daily run only", async () => {
    const to = await richestWithAccount();
    const at = new Date().toISOString();
    const transfers = [crypto.randomUUID(), crypto.randomUUID()].map((uuid) => `trf_${uuid}`);
    const d1 = db();
    for (const id of transfers)
      await d1
        .prepare(
          `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, amount, status, idempotency_key, requested_by, approved_by, created_at, decided_at)
           VALUES (?, ?, ?, ?, 5, 'completed', ?, 'usr_abena_darko', 'usr_kofi_boateng', ?, ?)`,
        )
        .bind(id, KUMASI, to.merchantId, to.accountId, id, at, at)
        .run();
    await d1.batch([
      ...transfers.flatMap((id) =>
        transferPayoutStatements(businessOf(KUMASI), { id, fromMerchantId: to.merchantId, toSettlementAccountId: to.accountId, amount: 5 }, at),
      ),
      clearBatchGuardsStatement(d1),
    ]);
    const rows = await Promise.all(transfers.map(payoutOf));
    expect(rows.map((r) => r?.period_start)).toEqual([Date.parse(at), Date.parse(at)]);
    expect(new Set(rows.map((r) => r?.reference)).size).toBe(2);
  });
});
