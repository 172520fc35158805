// The payment detail through the built Worker: where the payment was taken (point of sale, terminal serial), why a
// failed one failed, and links to its merchant, the settlement that paid it, its refunds and disputes; a merchant's
// page links to its transactions, funds and settlements, each narrowed to it; the transactions CSV names each id
// beside it (Ghanaian letters and emoji intact, formulas defused). Another business's ids never show, nor open.
import { describe, expect, it } from "vitest";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { textOf, loaderDataOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const AMA = "ama.mensah@example.com";

async function get(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  const html = await response.text();
  return { response, html, text: textOf(html) };
}

interface SettledPayment {
  id: number;
  reference: string;
  createdAt: number;
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string;
  pointOfSale: string;
  serial: string;
  settlementId: string;
  settlementReference: string;
}

/** A successful payment of the business taken on a terminal and paid out by a settlement. */
async function settledPayment(businessId: string): Promise<SettledPayment> {
  const db = await portal().db();
  const row = await db
    .prepare(
      `SELECT t.id, t.reference, t.created_at AS createdAt, t.merchant_id AS merchantId, t.point_of_sale_id AS pointOfSaleId,
         t.terminal_id AS terminalId, p.name AS pointOfSale, tm.serial, s.id AS settlementId, s.reference AS settlementReference
       FROM transactions t
       JOIN points_of_sale p ON p.id = t.point_of_sale_id
       JOIN terminals tm ON tm.id = t.terminal_id
       JOIN settlement_items si ON si.transaction_id = t.id
       JOIN settlements s ON s.id = si.settlement_id
       WHERE t.business_id = ? AND t.status = 'successful'
       ORDER BY t.created_at DESC LIMIT 1`,
    )
    .bind(businessId)
    .first<SettledPayment>();
  if (!row) throw new Error(`no settled payment in ${businessId}`);
  return row;
}

/** The payment's detail as the loader hands it to the page. */
function detailOf(html: string) {
  return (loaderDataOf(html)["routes/transactions"] as { detail: Record<string, unknown> & { refunds: { href: string | null }[] } }).detail;
}

/** RFC 4180 rows (quoted fields, doubled quotes), the byte-order mark dropped. */
function csvRows(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const text = body.replace(/^\uFEFF/, "");
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ",") {
      row.push(field);
      field = "";
    } else if (!quoted && c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += 1;
    } else {
      field += c;
    }
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe("a payment's detail", () => {
  it("shows where the payment was taken and links to its merchant, point of sale, terminal and settlement", async () => {
    const payment = await settledPayment(KUMASI);
    const { response, html, text } = await get(`/transactions?tx=${payment.id}`);
    expect(response.status).toBe(200);
    const detail = detailOf(html);
    expect(detail.pointOfSale).toEqual({ name: payment.pointOfSale, href: `/merchants/${payment.merchantId}/point-of-sale/${payment.pointOfSaleId}` });
    expect(detail.terminal).toEqual({ serial: payment.serial, href: `/pos-terminals/device-details/${payment.terminalId}` });
    expect(detail.merchantHref).toBe(`/merchants/${payment.merchantId}`);
    expect(detail.settlement).toMatchObject({ reference: payment.settlementReference, href: `/money/settlement-history?s=${payment.settlementId}` });
    expect(text).toContain(`Point of sale ${payment.pointOfSale}`);
    expect(text).toContain(`Terminal ${payment.serial}`);
    expect(text).toContain(`Settlement ${payment.settlementReference}`);
    for (const href of [
      `/merchants/${payment.merchantId}`,
      `/merchants/${payment.merchantId}/point-of-sale/${payment.pointOfSaleId}`,
      `/pos-terminals/device-details/${payment.terminalId}`,
      `/money/settlement-history?s=${payment.settlementId}`,
    ]) {
      expect(html).toContain(`href="${href.replace(/&/g, "&amp;")}"`);
      // Each link opens a page of this business.
      expect((await get(href)).response.status, href).toBe(200);
    }
  });

  it("says why a failed payment failed: the processor's reason, or that it gave none", async () => {
    const db = await portal().db();
    const failed = await db
      .prepare("SELECT id FROM transactions WHERE business_id = ? AND status = 'failed' ORDER BY created_at DESC LIMIT 2")
      .bind(KUMASI)
      .all<{ id: number }>();
    const [withReason, without] = failed.results;
    await db.prepare("UPDATE transactions SET failure_reason = ? WHERE id = ?").bind("Insufficient funds (51)", withReason!.id).run();
    await db.prepare("UPDATE transactions SET failure_reason = NULL WHERE id = ?").bind(without!.id).run();
    expect((await get(`/transactions?tx=${withReason!.id}`)).text).toContain("Why it failed Insufficient funds (51)");
    expect((await get(`/transactions?tx=${without!.id}`)).text).toContain("Why it failed The processor gave no reason");
  });

  it("links each refund to its request and each dispute to its page", async () => {
    const payment = await settledPayment(KUMASI);
    const refund = await requestRefund(ESI_KUMASI, META, {
      transactionId: payment.id,
      amount: 100,
      reason: "Wrong size 👟",
      idempotencyKey: crypto.randomUUID(),
    });
    const db = await portal().db();
    const request = await db
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'refund' AND target_id = ?")
      .bind(KUMASI, refund.id)
      .first<{ id: string }>();
    await db
      .prepare(
        `INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at)
         VALUES ('dsp_detail_test', ?, ?, ?, '13.1', 100, ?, 'open', ?)`,
      )
      .bind(KUMASI, payment.merchantId, payment.id, Date.now() + 7 * 86_400_000, Date.now())
      .run();
    const { html, text } = await get(`/transactions?tx=${payment.id}`);
    const detail = detailOf(html);
    expect(detail.refunds.map((r) => r.href)).toEqual([`/approvals/refund/${request!.id}`]);
    expect(detail.disputes).toEqual([expect.objectContaining({ id: "dsp_detail_test", href: "/disputes/dsp_detail_test" })]);
    expect(html).toContain(`href="/approvals/refund/${request!.id}"`);
    expect(html).toContain(`href="/disputes/dsp_detail_test"`);
    expect(text).toContain("Disputes");
    expect((await get("/disputes/dsp_detail_test")).response.status).toBe(200);
    expect((await get(`/approvals/refund/${request!.id}`)).response.status).toBe(200);
  });

  it("another business's payment is a 404 and names nothing of it", async () => {
    const payment = await settledPayment(KUMASI);
    const { response, text } = await get(`/transactions?tx=${payment.id}`, AMA, ACCRA);
    expect(response.status).toBe(404);
    expect(text).not.toContain(payment.reference);
    expect(text).not.toContain(payment.serial);
  });
});

describe("a merchant's page", () => {
  it("links to its transactions, its funds and its settlements, each narrowed to it", async () => {
    const payment = await settledPayment(KUMASI);
    const { html } = await get(`/merchants/${payment.merchantId}`);
    const id = payment.merchantId;
    for (const href of [`/transactions?merchant=${id}`, `/money/merchant-funds?merchant=${id}`, `/money/settlement-history?merchant=${id}`]) {
      expect(html).toContain(`href="${href}"`);
    }
    const db = await portal().db();
    const merchant = (await db.prepare("SELECT name FROM merchants WHERE id = ?").bind(id).first<{ name: string }>())!.name;

    const funds = loaderDataOf((await get(`/money/merchant-funds?merchant=${id}`)).html)["routes/money.merchant-funds"] as { rows: { id: string }[] };
    expect(funds.rows.map((r) => r.id)).toEqual([id]);

    const settlements = loaderDataOf((await get(`/money/settlement-history?merchant=${id}`)).html)["routes/money.settlement-history"] as {
      rows: { merchantId: string }[];
      narrowedTo: string;
    };
    expect(settlements.rows.length).toBeGreaterThan(0);
    expect(settlements.rows.every((r) => r.merchantId === id)).toBe(true);
    expect(settlements.narrowedTo).toBe(merchant);

    // Accra asking for Kumasi's merchant: its page is a 404, its funds and settlements are empty and unnamed.
    expect((await get(`/merchants/${id}`, AMA, ACCRA)).response.status).toBe(404);
    const foreignFunds = await get(`/money/merchant-funds?merchant=${id}`, AMA, ACCRA);
    expect((loaderDataOf(foreignFunds.html)["routes/money.merchant-funds"] as { rows: unknown[] }).rows).toEqual([]);
    expect(foreignFunds.text).not.toContain(merchant);
    const foreignSettlements = await get(`/money/settlement-history?merchant=${id}`, AMA, ACCRA);
    expect((loaderDataOf(foreignSettlements.html)["routes/money.settlement-history"] as { rows: unknown[] }).rows).toEqual([]);
    expect(foreignSettlements.text).not.toContain(merchant);
  });
});

describe("the transactions CSV", () => {
  it("names the merchant, point of sale and terminal serial beside their ids, letters and emoji intact, formulas defused", async () => {
    const payment = await settledPayment(KUMASI);
    const db = await portal().db();
    const posName = '=HYPERLINK("x") Ɔkɔ Ɛ Ŋ 🍲, "Chop"';
    await db.prepare("UPDATE points_of_sale SET name = ? WHERE id = ?").bind(posName, payment.pointOfSaleId).run();
    const merchant = (await db.prepare("SELECT name FROM merchants WHERE id = ?").bind(payment.merchantId).first<{ name: string }>())!.name;
    const day = new Date(payment.createdAt).toISOString().slice(0, 10);
    const response = await portal().fetch(`/transactions/export?q=${encodeURIComponent(payment.reference)}&range=custom&from=${day}&to=${day}`, {
      headers: await signedInCookie(portal()),
    });
    expect(response.status).toBe(200);
    const [header, ...rows] = csvRows(await response.text());
    expect(header!.slice(0, 8)).toEqual([
      "Reference",
      "Paid (UTC)",
      "Merchant id",
      "Merchant",
      "Point of sale id",
      "Point of sale",
      "Terminal id",
      "Terminal serial",
    ]);
    const row = rows.find((r) => r[0] === payment.reference)!;
    const cell = (name: string) => row[header!.indexOf(name)];
    expect(cell("Merchant id")).toBe(payment.merchantId);
    expect(cell("Merchant")).toBe(merchant);
    expect(cell("Point of sale id")).toBe(payment.pointOfSaleId);
    expect(cell("Point of sale")).toBe(`'${posName}`);
    expect(cell("Terminal id")).toBe(payment.terminalId);
    expect(cell("Terminal serial")).toBe(payment.serial);
  });

  it("another business's export never carries this business's ids or names", async () => {
    const payment = await settledPayment(KUMASI);
    const db = await portal().db();
    const kumasi = await db
      .prepare(
        `SELECT id FROM merchants WHERE business_id = ? UNION ALL SELECT id FROM points_of_sale WHERE business_id = ?
         UNION ALL SELECT serial FROM terminals WHERE business_id = ?`,
      )
      .bind(KUMASI, KUMASI, KUMASI)
      .all<{ id: string }>();
    const response = await portal().fetch(`/transactions/export?range=30d&merchant=${payment.merchantId}`, {
      headers: await signedInCookie(portal(), AMA, ACCRA),
    });
    expect(response.status).toBe(200);
    expect(csvRows(await response.text())).toHaveLength(1);
    const all = await (
      await portal().fetch("/transactions/export?range=30d", {
        headers: await signedInCookie(portal(), AMA, ACCRA),
      })
    ).text();
    const [header, ...rows] = csvRows(all);
    expect(rows.length).toBeGreaterThan(0);
    const ids = new Set(kumasi.results.map((r) => r.id));
    for (const name of ["Merchant id", "Point of sale id", "Terminal serial"]) {
      const index = header!.indexOf(name);
      expect(
        rows.filter((r) => ids.has(r[index]!)),
        name,
      ).toEqual([]);
    }
  });
});
