// Disputes (decision 023) against the built Worker in workerd with real D1 and R2: the processor opens one through the
// Partner API and exactly its amount is held (available -> held), so it can be neither transferred nor settled; closing
// it as won returns the hold, as lost takes it away; the ledger sums to zero and every account's running sum equals
// its entries throughout. Staff answer on /disputes/{id}: evidence is checked by its bytes and its size, served back
// only to the business, a Viewer cannot write, and nothing changes after the deadline. dispute.* webhooks are written.
import { beforeAll, describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { getMerchantBalances, postingStatements } from "#server/ledger/ledger.db";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { clearingPosting, paymentPosting, transactionFee } from "#server/ledger/ledger";
import { runSettlement, settlementPeriodFor } from "#server/settlement/run";
import { moveBusiness } from "#server/tenancy/shard-move";
import { newWebhookSecret } from "#server/webhooks/signing";
import { actionDataOf, textOf } from "../support/html";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { api, makeKey } from "../support/partner-api";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, ACCRA, AMA_ACCRA, businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";

const portal = usePortal();
const keys: Record<string, string> = {};
const DAY = 86_400_000;
const TENANT = { [KUMASI]: ABENA_KUMASI, [ACCRA]: AMA_ACCRA } as const;

beforeAll(async () => {
  keys[KUMASI] = await makeKey(portal(), KUMASI);
  keys[ACCRA] = await makeKey(portal(), ACCRA);
  // An endpoint that wants dispute events: without one nothing is written for them (functions/webhooks/outbox.db.ts).
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/disputes", eventTypes: ["dispute.opened", "dispute.closed"] },
    newWebhookSecret(),
    "development",
  );
});

const dueBy = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface Payment {
  id: number;
  reference: string;
  merchantId: string;
  amount: number;
}

/**
 * A successful, cleared payment of the business not disputed yet, whose merchant has at least its amount available; not
 * one whose reference the API takes for a card number (a run of 13 to 19 digits that passes the Luhn check).
 */
async function undisputedPayment(businessId: string): Promise<Payment> {
  const db = await portal().db();
  const { results } = await db
    .prepare(
      `SELECT t.id, t.reference, t.merchant_id AS merchantId, t.amount FROM transactions t
       WHERE t.business_id = ? AND t.status = 'successful' AND t.cleared_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.business_id = t.business_id AND d.transaction_id = t.id)
       ORDER BY t.amount, t.id LIMIT 200`,
    )
    .bind(businessId)
    .all<Payment>();
  for (const payment of results) {
    if (cardNumberPaths({ reference: payment.reference }).length > 0) continue;
    if ((await getMerchantBalances(TENANT[businessId as keyof typeof TENANT], payment.merchantId)).available >= payment.amount) return payment;
  }
  throw new Error(`no disputable payment in ${businessId}`);
}

async function openDispute(businessId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await api(
    portal(),
    keys[businessId]!,
    "/api/v1/disputes",
    { currency: "GHS", reason_code: "13.1", evidence_due_by: dueBy(7), ...body },
    headers,
  );
  return { status: response.status, headers: response.headers, body: await response.json<Record<string, unknown> & { id: string; errors?: unknown[] }>() };
}

async function close(businessId: string, id: string, outcome: string) {
  const response = await api(portal(), keys[businessId]!, `/api/v1/disputes/${id}/close`, { outcome });
  return { status: response.status, headers: response.headers, body: await response.json<Record<string, unknown>>() };
}

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

describe("opening a dispute (POST /api/v1/disputes)", () => {
  it.each([KUMASI, ACCRA])("holds exactly the disputed amount from available, on either shard (%s), and the ledger sums to zero", async (businessId) => {
    const tenant = TENANT[businessId as keyof typeof TENANT];
    const payment = await undisputedPayment(businessId);
    const before = await getMerchantBalances(tenant, payment.merchantId);
    const amount = payment.amount - 1;
    const opened = await openDispute(businessId, { payment_reference: payment.reference, amount });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ payment_reference: payment.reference, amount, status: "open", currency: "GHS", evidence_due_by: dueBy(7) });
    expect(opened.body.id).toMatch(/^dsp_[0-9a-f]{32}$/);
    const after = await getMerchantBalances(tenant, payment.merchantId);
    expect(after).toEqual({ pending: before.pending, available: before.available - amount, held: before.held + amount, total: before.total });
    expect(
      await count("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND action = 'dispute.open' AND entity_id = ?", businessId, opened.body.id),
    ).toBe(1);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("refuses with JSON paths: the amount above what is left of the payment, a past due date, an unknown or another business's reference", async () => {
    const payment = await undisputedPayment(KUMASI);
    const accra = await undisputedPayment(ACCRA);
    const tooMuch = await openDispute(KUMASI, { payment_reference: payment.reference, amount: payment.amount + 1, evidence_due_by: dueBy(-1) });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toEqual(
      expect.arrayContaining([
        { path: "amount", message: expect.stringMatching(/more than the payment's amount not yet disputed/) },
        { path: "evidence_due_by", message: "is in the past" },
      ]),
    );
    // Part of it disputed: the rest may be, and not a pesewa more.
    expect((await openDispute(KUMASI, { payment_reference: payment.reference, amount: payment.amount - 100 })).status).toBe(201);
    const second = await openDispute(KUMASI, { payment_reference: payment.reference, amount: 101 });
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual([{ path: "amount", message: "is more than the payment's amount not yet disputed or refunded (100 pesewas)" }]);
    for (const reference of ["NO-SUCH-PAYMENT-1", accra.reference]) {
      const unknown = await openDispute(KUMASI, { payment_reference: reference, amount: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ path: "payment_reference", message: "is not the reference of a payment of this business" }]);
    }
    const malformed = await openDispute(KUMASI, { payment_reference: payment.reference, amount: 1.5, reason_code: "", evidence_due_by: "7/12/2026" });
    expect(malformed.status).toBe(400);
    expect((malformed.body.errors as { path: string }[]).map((e) => e.path).sort()).toEqual(["amount", "evidence_due_by", "reason_code"]);
    expect((await api(portal(), null, "/api/v1/disputes", { payment_reference: payment.reference })).status).toBe(401);
  });

  it("an Idempotency-Key makes a repeat one dispute and one hold; the key on another body is 409", async () => {
    const payment = await undisputedPayment(KUMASI);
    // The whole payment: a second dispute of it could only be the same one again.
    const body = { payment_reference: payment.reference, amount: payment.amount };
    const headers = { "Idempotency-Key": `dispute-${payment.reference}` };
    const [a, b] = await Promise.all([openDispute(KUMASI, body, headers), openDispute(KUMASI, body, headers)]);
    const c = await openDispute(KUMASI, body, headers);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(1);
    expect(c.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await count("SELECT COUNT(*) AS n FROM disputes WHERE business_id = ? AND transaction_id = ?", KUMASI, payment.id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM ledger_entries WHERE business_id = ? AND posting_id = ?", KUMASI, `pst_${a.body.id}_hold`)).toBe(2);
    expect((await openDispute(KUMASI, { ...body, reason_code: "4853" }, headers)).status).toBe(409);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

describe("closing a dispute (POST /api/v1/disputes/{id}/close)", () => {
  it("won returns the hold to available; closing again as won changes nothing, as lost is 409", async () => {
    const payment = await undisputedPayment(KUMASI);
    const before = await getMerchantBalances(ABENA_KUMASI, payment.merchantId);
    const { body } = await openDispute(KUMASI, { payment_reference: payment.reference, amount: payment.amount });
    const won = await close(KUMASI, body.id, "won");
    expect(won.status).toBe(200);
    expect(won.body).toMatchObject({ id: body.id, status: "won", closed_at: expect.any(String) });
    expect(await getMerchantBalances(ABENA_KUMASI, payment.merchantId)).toEqual(before);
    const again = await close(KUMASI, body.id, "won");
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await close(KUMASI, body.id, "lost")).status).toBe(409);
    expect(await getMerchantBalances(ABENA_KUMASI, payment.merchantId)).toEqual(before);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND action = 'dispute.close' AND entity_id = ?", KUMASI, body.id)).toBe(1);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("lost removes the held amount: available stays down, held goes back to zero, the scheme owes that much less", async () => {
    const payment = await undisputedPayment(ACCRA);
    const before = await getMerchantBalances(AMA_ACCRA, payment.merchantId);
    const receivable = () => count("SELECT entry_sum AS n FROM ledger_accounts WHERE business_id = ? AND kind = 'scheme_receivable'", ACCRA);
    const owedBefore = await receivable();
    const { body } = await openDispute(ACCRA, { payment_reference: payment.reference, amount: 1_000 });
    const lost = await close(ACCRA, body.id, "lost");
    expect(lost.status).toBe(200);
    expect(await getMerchantBalances(AMA_ACCRA, payment.merchantId)).toEqual({
      pending: before.pending,
      available: before.available - 1_000,
      held: before.held,
      total: before.total - 1_000,
    });
    expect(await receivable()).toBe(owedBefore - 1_000);
    expect((await close(ACCRA, body.id, "won")).status).toBe(409);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("another business's dispute, and an id of none, is 404", async () => {
    const payment = await undisputedPayment(ACCRA);
    const { body } = await openDispute(ACCRA, { payment_reference: payment.reference, amount: 100 });
    expect((await close(KUMASI, body.id, "won")).status).toBe(404);
    expect((await close(KUMASI, `dsp_${"0".repeat(32)}`, "won")).status).toBe(404);
    expect((await close(ACCRA, body.id, "maybe")).status).toBe(400);
    expect((await close(ACCRA, body.id, "won")).status).toBe(200);
  });

  it("writes dispute.opened and dispute.closed webhook events with the change, the dispute as GET answers it", async () => {
    const payment = await undisputedPayment(KUMASI);
    const { body } = await openDispute(KUMASI, { payment_reference: payment.reference, amount: 250 });
    const events = async () =>
      (
        await (
          await portal().db()
        )
          .prepare("SELECT type, payload FROM webhook_events WHERE business_id = ? AND id IN (?, ?) ORDER BY created_at, type DESC")
          .bind(KUMASI, `evt_${body.id}_opened`, `evt_${body.id}_closed`)
          .all<{ type: string; payload: string }>()
      ).results.map((e) => ({ type: e.type, dispute: JSON.parse(e.payload) as Record<string, unknown> }));
    expect(await events()).toEqual([{ type: "dispute.opened", dispute: expect.objectContaining({ id: body.id, amount: 250, status: "open" }) }]);
    await close(KUMASI, body.id, "lost");
    expect((await events()).map((e) => [e.type, e.dispute.status])).toEqual([
      ["dispute.opened", "open"],
      ["dispute.closed", "lost"],
    ]);
    expect(await count("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE business_id = ? AND event_id = ?", KUMASI, `evt_${body.id}_closed`)).toBe(1);
  });
});

describe("held money cannot leave", () => {
  it("a transfer asked before the dispute is refused at approval, and one asked after is refused at once", async () => {
    const payment = await undisputedPayment(KUMASI);
    const other = await (
      await portal().db()
    )
      .prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' AND id <> ? LIMIT 1")
      .bind(KUMASI, payment.merchantId)
      .first<string>("id");
    const { available } = await getMerchantBalances(ABENA_KUMASI, payment.merchantId);
    const asked = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: payment.merchantId,
      to: { kind: "merchant", id: other! },
      amount: available,
      idempotencyKey: `before-dispute-${payment.reference}`,
    });
    expect((await openDispute(KUMASI, { payment_reference: payment.reference, amount: payment.amount })).status).toBe(201);
    await expect(approveMoneyRequest(KOFI_KUMASI, META, "transfer", asked.id)).rejects.toThrow(/exceeds the available balance/);
    await expect(
      requestTransfer(ABENA_KUMASI, META, {
        fromMerchantId: payment.merchantId,
        to: { kind: "merchant", id: other! },
        amount: available,
        idempotencyKey: `after-dispute-${payment.reference}`,
      }),
    ).rejects.toThrow(/exceeds the available balance/);
    expect((await getMerchantBalances(ABENA_KUMASI, payment.merchantId)).available).toBe(available - payment.amount);
  });

  it("a day's cleared money that a dispute holds is not settled; once the dispute is won it is", async () => {
    const db = await portal().db();
    const merchant = await db
      .prepare(
        `SELECT m.id, p.id AS pointOfSaleId FROM merchants m JOIN points_of_sale p ON p.merchant_id = m.id
         JOIN settlement_accounts a ON a.merchant_id = m.id AND a.is_primary = 1 AND a.status = 'active'
         WHERE m.business_id = ? AND m.status = 'active' ORDER BY m.id LIMIT 1`,
      )
      .bind(ACCRA)
      .first<{ id: string; pointOfSaleId: string }>();
    // A day long ago that no run has settled: one large payment of this merchant, made and cleared in it, on the ledger.
    const period = settlementPeriodFor(Date.now()) - 300 * DAY;
    const { available } = await getMerchantBalances(AMA_ACCRA, merchant!.id);
    const amount = available + 50_000;
    const fee = transactionFee("mobile_money", amount);
    const reference = `DSP-STL-${Date.now().toString(36)}`;
    await db
      .prepare(
        `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, channel, network, amount, fee, status, customer_msisdn, created_at, cleared_at)
         VALUES (?, ?, ?, ?, 'mobile_money', 'MTN', ?, ?, 'successful', '233240000003', ?, ?)`,
      )
      .bind(ACCRA, reference, merchant!.id, merchant!.pointOfSaleId, amount, fee, period + 3_600_000, period + 7_200_000)
      .run();
    const id = await db.prepare("SELECT id FROM transactions WHERE business_id = ? AND reference = ?").bind(ACCRA, reference).first<number>("id");
    const facts = { merchantId: merchant!.id, amount, fee };
    await db.batch([
      ...postingStatements(AMA_ACCRA, paymentPosting(facts), {
        postingId: `pst_${reference}`,
        memo: reference,
        postedAt: period + 3_600_000,
        transactionId: id!,
      }),
      ...postingStatements(AMA_ACCRA, clearingPosting(facts), {
        postingId: `clr_${reference}`,
        memo: reference,
        postedAt: period + 7_200_000,
        transactionId: id!,
      }),
    ]);
    const { body } = await openDispute(ACCRA, { payment_reference: reference, amount });
    const held = await runSettlement(businessOf(ACCRA), period, META, null);
    expect(held.settled).toEqual([]);
    expect(held.skipped).toContainEqual({ merchantId: merchant!.id, reason: "available balance below the cleared amount" });
    expect((await close(ACCRA, body.id, "won")).status).toBe(200);
    const released = await runSettlement(businessOf(ACCRA), period, META, null);
    expect(released.settled).toEqual([expect.objectContaining({ merchantId: merchant!.id, net: amount - fee, transactions: 1 })]);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

// ---------------------------------------------------------------- staff: /disputes/{id}

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

async function page(
  path: string,
  email: string,
  businessId: string,
  init: { form?: Record<string, string>; file?: { name: string; bytes: Uint8Array; type: string } } = {},
) {
  const headers: Record<string, string> = { ...(await signedInCookie(portal(), email, businessId)) };
  let body: BodyInit | undefined;
  if (init.file) {
    const form = new FormData();
    form.set("file", new File([init.file.bytes as Uint8Array<ArrayBuffer>], init.file.name, { type: init.file.type }));
    // As a browser sends it: the multipart body with its boundary in the Content-Type and its length declared.
    const encoded = new Request(portal().url, { method: "POST", body: form });
    headers["Content-Type"] = encoded.headers.get("Content-Type")!;
    body = new Uint8Array(await encoded.arrayBuffer());
    headers["Content-Length"] = String(body.byteLength);
  } else if (init.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const method = body === undefined ? "GET" : "POST";
  if (method === "POST") Object.assign(headers, { Origin: portal().url, "Sec-Fetch-Site": "same-origin" });
  return portal().fetch(path, { method, headers, body });
}

/** The dispute page's refusal in the document rendered after its action. */
const refusal = (html: string) => actionDataOf(html)["routes/disputes.$disputeId"];

const ABENA = "abena.darko@example.com";
const KOFI = "kofi.boateng@example.com";
const NEIGHBOUR = "bus_dispute_neighbour";

/** A second business on Kumasi's database, with Kofi as its Administrator: a row of Kumasi's is one query away. */
async function neighbourOfKumasi(): Promise<string> {
  const core = portal().core();
  await portal().placeBusiness(NEIGHBOUR, (await core.prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(KUMASI).first<string>("shard"))!);
  const db = await portal().db();
  const at = new Date().toISOString();
  await db.batch([
    db
      .prepare(
        `INSERT INTO businesses (id, name, identifier, contact_number, contact_email, town, region, sector, status, created_at)
         VALUES (?, 'Ɛbenezer Ŋkɔ Traders', 'GH-BUS-999014', '233302000014', 'hello@ebenezer.example.com', 'Kumasi', 'Ashanti', 'Retail', 'active', ?)`,
      )
      .bind(NEIGHBOUR, at),
    db
      .prepare("INSERT INTO memberships (business_id, user_id, role, status, created_at) VALUES (?, 'usr_kofi_boateng', 'Administrator', 'active', ?)")
      .bind(NEIGHBOUR, at),
  ]);
  await portal().copyBusinessToCore(NEIGHBOUR);
  return NEIGHBOUR;
}
const ESI = "esi.owusu@example.com";
const YAW = "yaw.asante@example.com";
const AMA = "ama.mensah@example.com";

async function openKumasiDispute(): Promise<string> {
  const payment = await undisputedPayment(KUMASI);
  const opened = await openDispute(KUMASI, { payment_reference: payment.reference, amount: Math.min(300, payment.amount) });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return opened.body.id;
}

describe("answering a dispute", () => {
  it("Abena writes a response, attaches a PDF checked by its bytes, and submits; then it is read-only", async () => {
    const id = await openKumasiDispute();
    expect(
      (await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "respond", response: "The customer signed for the goods: Ɔkɔmfo Ɛsi 🧾." } })).status,
    ).toBe(302);
    const attached = await page(`/disputes/${id}`, ABENA, KUMASI, { file: { name: "Receipt Ɔsu.pdf", bytes: PDF, type: "application/pdf" } });
    expect(attached.status).toBe(302);
    const row = await (
      await portal().db()
    )
      .prepare(
        "SELECT id, r2_key AS r2Key, content_type AS contentType, size, file_name AS fileName FROM dispute_evidence WHERE business_id = ? AND dispute_id = ?",
      )
      .bind(KUMASI, id)
      .first<{ id: string; r2Key: string; contentType: string; size: number; fileName: string }>();
    expect(row).toMatchObject({ contentType: "application/pdf", size: PDF.byteLength, fileName: "Receipt Ɔsu.pdf" });
    expect(await (await portal().evidence()).keys(`disputes/${KUMASI}/${id}/`)).toEqual([row!.r2Key]);

    const file = await page(`/disputes/${id}/evidence/${row!.id}`, ESI, KUMASI);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(file.headers.get("Content-Disposition")).toBe(`attachment; filename="Receipt__su.pdf"; filename*=UTF-8''${encodeURIComponent("Receipt Ɔsu.pdf")}`);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);

    expect((await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "submit" } })).status).toBe(302);
    expect(await count("SELECT COUNT(*) AS n FROM disputes WHERE id = ? AND status = 'submitted' AND submitted_by = 'usr_abena_darko'", id)).toBe(1);
    const late = await page(`/disputes/${id}`, ESI, KUMASI, { form: { intent: "respond", response: "Changed afterwards" } });
    expect(late.status).toBe(400);
    expect(refusal(await late.text())).toMatchObject({ errors: { form: expect.stringMatching(/already submitted/) } });
    expect((await page(`/disputes/${id}`, ESI, KUMASI, { file: { name: "more.pdf", bytes: PDF, type: "application/pdf" } })).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM dispute_evidence WHERE dispute_id = ?", id)).toBe(1);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND entity = 'dispute' AND entity_id = ? AND actor_id = 'usr_abena_darko'",
        KUMASI,
        id,
      ),
    ).toBe(3);
  });

  it("refuses evidence by its content, not its name: a PNG or text named .pdf; and a file over 10 MB; nothing is stored", async () => {
    const id = await openKumasiDispute();
    const png = await page(`/disputes/${id}`, ABENA, KUMASI, { file: { name: "photo.png", bytes: PNG, type: "image/png" } });
    expect(png.status).toBe(302);
    const before = await (await portal().evidence()).keys(`disputes/${KUMASI}/${id}/`);
    const refusals = [
      { name: "receipt.pdf", bytes: PNG, type: "application/pdf", message: /its name ends in \.pdf/ },
      { name: "receipt", bytes: PNG.slice(0, 4), type: "application/pdf", message: /not a PDF, JPEG, PNG or WebP/ },
      { name: "receipt.pdf", bytes: new TextEncoder().encode("<script>alert(1)</script>"), type: "application/pdf", message: /not a PDF, JPEG, PNG or WebP/ },
      { name: "scan.pdf", bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(0x25), type: "application/pdf", message: /larger than 10 MB/ },
      // Direction controls in a file name (decision 034): listed as "invoicefdp.png" were it kept.
      { name: "invoice\u202Egnp.pdf", bytes: PDF, type: "application/pdf", message: /reverses how text is shown/ },
      { name: "receipt\u2067.pdf", bytes: PDF, type: "application/pdf", message: /reverses how text is shown/ },
    ];
    for (const file of refusals) {
      const answer = await page(`/disputes/${id}`, ABENA, KUMASI, { file });
      expect(answer.status, file.name).toBe(400);
      expect(refusal(await answer.text())).toMatchObject({ errors: { file: expect.stringMatching(file.message) } });
    }
    // The PNG (as a PNG, whatever it was called) is the one file.
    expect(await count("SELECT COUNT(*) AS n FROM dispute_evidence WHERE dispute_id = ?", id)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM dispute_evidence WHERE dispute_id = ? AND content_type = 'image/png'", id)).toBe(1);
    expect(await (await portal().evidence()).keys(`disputes/${KUMASI}/${id}/`)).toEqual(before);
  });

  it("another business's dispute and its evidence are 404; a Viewer reads but cannot write (403)", async () => {
    const id = await openKumasiDispute();
    await page(`/disputes/${id}`, ABENA, KUMASI, { file: { name: "receipt.pdf", bytes: PDF, type: "application/pdf" } });
    const evidenceId = await (await portal().db()).prepare("SELECT id FROM dispute_evidence WHERE dispute_id = ?").bind(id).first<string>("id");
    // Ama is Administrator of Accra Mobile Pay (another database); Kofi of a neighbour on Kumasi's own database:
    // signed in there, Kumasi's dispute and its file do not exist.
    const neighbour = await neighbourOfKumasi();
    for (const [email, businessId] of [
      [AMA, ACCRA],
      [KOFI, neighbour],
    ] as const) {
      expect((await page(`/disputes/${id}`, email, businessId)).status).toBe(404);
      expect((await page(`/disputes/${id}/evidence/${evidenceId}`, email, businessId)).status).toBe(404);
      expect((await page(`/disputes/${id}`, email, businessId, { form: { intent: "respond", response: "Not ours" } })).status).toBe(404);
      expect((await page(`/disputes/${id}`, email, businessId, { file: { name: "x.pdf", bytes: PDF, type: "application/pdf" } })).status).toBe(404);
    }
    expect((await page(`/disputes/${id}/evidence/${evidenceId}`, KOFI, KUMASI)).status).toBe(200);

    const accra = await undisputedPayment(ACCRA);
    const accraId = (await openDispute(ACCRA, { payment_reference: accra.reference, amount: 100 })).body.id;
    const viewer = await page(`/disputes/${accraId}`, YAW, ACCRA);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain("Your role reads disputes");
    expect((await page(`/disputes/${accraId}`, YAW, ACCRA, { form: { intent: "respond", response: "Viewer" } })).status).toBe(403);
    expect((await page(`/disputes/${accraId}`, YAW, ACCRA, { file: { name: "x.pdf", bytes: PDF, type: "application/pdf" } })).status).toBe(403);
    expect((await page(`/disputes/${accraId}`, YAW, ACCRA, { form: { intent: "submit" } })).status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM dispute_evidence WHERE dispute_id = ?", accraId)).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM disputes WHERE id = ? AND response_text = ''", accraId)).toBe(1);
  });

  it("after the deadline nothing can be written or submitted, and the list marks it overdue", async () => {
    const id = await openKumasiDispute();
    await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "respond", response: "Written in time" } });
    // The deadline passes (the API takes no past date, so the clock is moved on the row).
    await (
      await portal().db()
    )
      .prepare("UPDATE disputes SET evidence_due_at = ? WHERE business_id = ? AND id = ?")
      .bind(Date.now() - 1_000, KUMASI, id)
      .run();
    const submit = await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "submit" } });
    expect(submit.status).toBe(400);
    expect(refusal(await submit.text())).toMatchObject({ errors: { form: expect.stringMatching(/deadline for evidence has passed/) } });
    expect((await page(`/disputes/${id}`, ABENA, KUMASI, { file: { name: "late.pdf", bytes: PDF, type: "application/pdf" } })).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM disputes WHERE id = ? AND status = 'open' AND submitted_at IS NULL", id)).toBe(1);
    const list = await (await page("/disputes?status=open", ESI, KUMASI)).text();
    expect(list).toContain("Overdue");
  });

  it("a reason code is shown with the scheme's meaning beside it: on the dispute, in the list and on the payment", async () => {
    const payment = await undisputedPayment(KUMASI);
    const opened = await openDispute(KUMASI, { payment_reference: payment.reference, amount: Math.min(300, payment.amount), reason_code: "4853" });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect(textOf(await (await page(`/disputes/${opened.body.id}`, ESI, KUMASI)).text())).toContain("Reason code 4853 · Cardholder dispute");
    expect(textOf(await (await page(`/transactions?tx=${payment.id}`, ESI, KUMASI)).text())).toContain("Reason code 4853 · Cardholder dispute");
    expect(textOf(await (await page("/disputes?status=open", ESI, KUMASI)).text())).toMatch(
      /(13\.1 · Merchandise or services not received|4853 · Cardholder dispute) · /,
    );
  });

  it("Submit the response, disabled until a response is saved, says so beside it", async () => {
    const id = await openKumasiDispute();
    const html = await (await page(`/disputes/${id}`, ABENA, KUMASI)).text();
    const button = /<button\b[^>]*>Submit the response<\/button>/.exec(html)?.[0] ?? "";
    expect(button).toContain("disabled");
    const why = /aria-describedby="([^"]+)"/.exec(button)?.[1];
    expect(why).toBeDefined();
    expect(textOf(new RegExp(`<p[^>]*id="${why}"[^>]*>[^<]*</p>`).exec(html)?.[0] ?? "")).toMatch(/save it first/);

    await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "respond", response: "Signed for in person." } });
    const written = await (await page(`/disputes/${id}`, ABENA, KUMASI)).text();
    expect(/<button\b[^>]*>Submit the response<\/button>/.exec(written)?.[0]).not.toMatch(/disabled|aria-describedby/);
  });

  it("the list shows open disputes first, with the days left", async () => {
    const id = await openKumasiDispute();
    const html = await (await page("/disputes", ESI, KUMASI)).text();
    expect(html).toContain(`/disputes/${id}`);
    expect(html).toMatch(/\d+ days left/);
    const closed = await (await page("/disputes?status=won", ESI, KUMASI)).text();
    expect(closed).not.toContain(`/disputes/${id}`);
  });
});

describe("where held money and waiting disputes show", () => {
  it("the dashboard counts the disputes that can still be answered, with the nearest deadline", async () => {
    const answerable = await count("SELECT COUNT(*) AS n FROM disputes WHERE business_id = ? AND status = 'open' AND evidence_due_at > ?", KUMASI, Date.now());
    const payment = await undisputedPayment(KUMASI);
    await openDispute(KUMASI, { payment_reference: payment.reference, amount: 1, evidence_due_by: dueBy(0) });
    const html = await (await page("/", ESI, KUMASI)).text();
    const item = /data-testid="dashboard-disputes"[^>]*>(.*?)<\/a>/s.exec(html)?.[1] ?? "";
    const n = answerable + 1;
    expect(item.replace(/<[^>]+>/g, "")).toBe(`${n}${n === 1 ? "dispute needs" : "disputes need"} a response (the nearest due ${dueDay(dueBy(0))}: due today)`);
  });

  it("Merchant Accounts and Merchant Funds show the money held by disputes beside what is available", async () => {
    const payment = await undisputedPayment(KUMASI);
    const { held } = await getMerchantBalances(ABENA_KUMASI, payment.merchantId);
    expect((await openDispute(KUMASI, { payment_reference: payment.reference, amount: payment.amount })).status).toBe(201);
    const code = await (await portal().db()).prepare("SELECT code FROM merchants WHERE id = ?").bind(payment.merchantId).first<string>("code");
    for (const path of [`/money/merchant-accounts?q=${code}`, `/money/merchant-funds?q=${code}`]) {
      const html = await (await page(path, ABENA, KUMASI)).text();
      expect(html, path).toContain("Held by disputes (GHS)");
      const cell = new RegExp(`${code}[\\s\\S]*?data-label="Held by disputes \\(GHS\\)" class="num">([\\d,.]+)<`).exec(html)?.[1];
      expect(cell, path).toBe(((held + payment.amount) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 }));
    }
  });
});

/** "23 Nov 2026" for a YYYY-MM-DD. */
function dueDay(ymd: string): string {
  const [year, month, day] = ymd.split("-").map(Number);
  return `${String(day).padStart(2, "0")} ${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][month! - 1]} ${year}`;
}

// Last in the file: it moves Kumasi to the other database.
describe("a business that moves to another database", () => {
  it("takes its disputes and their evidence rows; the page, the file and closing work there", async () => {
    const id = await openKumasiDispute();
    await page(`/disputes/${id}`, ABENA, KUMASI, { form: { intent: "respond", response: "Before the move" } });
    await page(`/disputes/${id}`, ABENA, KUMASI, { file: { name: "receipt.pdf", bytes: PDF, type: "application/pdf" } });
    const core = portal().core();
    const from = (await core.prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(KUMASI).first<string>("shard"))!;
    const to = from === "SHARD_A" ? "SHARD_B" : "SHARD_A";
    const rows = async (shard: string) =>
      (await portal()
        .database(shard)
        .prepare(
          "SELECT (SELECT COUNT(*) FROM disputes WHERE business_id = ?1) AS disputes, (SELECT COUNT(*) FROM dispute_evidence WHERE business_id = ?1) AS files",
        )
        .bind(KUMASI)
        .first<{ disputes: number; files: number }>())!;
    const before = await rows(from);
    expect(before.disputes).toBeGreaterThan(0);
    await moveBusiness({ core, database: (name) => portal().database(name) }, KUMASI, to);
    await portal().refreshPlaces();
    expect(await rows(to)).toEqual(before);
    expect(await rows(from)).toEqual({ disputes: 0, files: 0 });

    const html = await (await page(`/disputes/${id}`, ABENA, KUMASI)).text();
    expect(html).toContain("Before the move");
    const evidenceId = await (await portal().db()).prepare("SELECT id FROM dispute_evidence WHERE dispute_id = ?").bind(id).first<string>("id");
    const file = await page(`/disputes/${id}/evidence/${evidenceId}`, ABENA, KUMASI);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
    expect((await close(KUMASI, id, "won")).status).toBe(200);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

describe("the events it wrote", () => {
  it("each holds what the OpenAPI document says its type's data holds", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen].sort()).toEqual(expect.arrayContaining(["dispute.closed", "dispute.opened"]));
  });
});
