// The transactions search box through the built Worker, with what a person has to hand: the last characters of a
// reference, the payer's phone in any spelling the forms take, a card's last four, the amount as written on a
// receipt, or part of the merchant's name in Ghana's own letters. Each finds the business's payment, within the
// period shown, and never another business's payment with the same reference tail, phone, card or amount.
import { beforeAll, describe, expect, it } from "vitest";
import { formatAmount } from "#app/lib/format";
import { loaderDataOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const AMA = "ama.mensah@example.com";
const DAY = 86_400_000;

/** What the searched payments are made to look like: nothing seeded has these. */
const REFERENCE = "PSP-20261123-7319046";
const PHONE = "233244987123";
const LAST4 = "6071";
const AMOUNT = 987_654; // GHS 9,876.54

interface Payment {
  id: number;
  reference: string;
}
let momo: Payment;
let card: Payment;
let accra: Payment;
let old: Payment;

async function newest(businessId: string, where: string, binds: unknown[] = []): Promise<Payment> {
  const row = await portal()
    .businessDb(businessId)
    .prepare(`SELECT id, reference FROM transactions WHERE business_id = ? AND ${where} ORDER BY created_at DESC, id DESC LIMIT 1`)
    .bind(businessId, ...binds)
    .first<Payment>();
  expect(row, where).toBeTruthy();
  return row!;
}

async function set(businessId: string, id: number, columns: Record<string, unknown>): Promise<void> {
  const names = Object.keys(columns);
  await portal()
    .businessDb(businessId)
    .prepare(`UPDATE transactions SET ${names.map((name) => `${name} = ?`).join(", ")} WHERE business_id = ? AND id = ?`)
    .bind(...Object.values(columns), businessId, id)
    .run();
}

beforeAll(async () => {
  const now = Date.now();
  momo = await newest(KUMASI, "customer_msisdn IS NOT NULL AND status = 'successful'");
  card = await newest(KUMASI, "card_last4 IS NOT NULL AND status = 'successful'");
  await set(KUMASI, momo.id, { reference: REFERENCE, customer_msisdn: PHONE, amount: AMOUNT });
  await set(KUMASI, card.id, { card_last4: LAST4 });
  momo = { ...momo, reference: REFERENCE };
  // Another business's payment with the same tail, phone, card and amount, and one of Kumasi's outside the period.
  accra = await newest(ACCRA, "customer_msisdn IS NOT NULL");
  await set(ACCRA, accra.id, { reference: "ACC-20261123-7319046", customer_msisdn: PHONE, amount: AMOUNT });
  const cardOfAccra = await newest(ACCRA, "card_last4 IS NOT NULL");
  await set(ACCRA, cardOfAccra.id, { card_last4: LAST4 });
  old = await newest(KUMASI, "created_at < ? AND id NOT IN (?, ?)", [now - 7 * DAY, momo.id, card.id]);
  await set(KUMASI, old.id, { reference: "KFF-OLD-0007319046", amount: AMOUNT, created_at: now - 45 * DAY });
});

interface Row {
  id: number;
  reference: string;
  amount: number;
  merchant: string;
}

async function search(q: string, query = "range=30d", business = KUMASI): Promise<{ rows: Row[]; totals: { count: number } }> {
  const path = `/transactions?${query}&q=${encodeURIComponent(q)}`;
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), AMA, business) });
  expect(response.status, path).toBe(200);
  const data = loaderDataOf(await response.text())["routes/transactions"] as { rows: Row[]; totals: { count: number } };
  expect(data, path).toBeTruthy();
  return data;
}

const references = (rows: Row[]) => rows.map((row) => row.reference);

describe("the transactions search", () => {
  it.each(["7319046", "9046", "23-7319046", "3-7319046", "psp-20261123-7319046", REFERENCE])(
    "finds a payment by the last characters of its reference: %s",
    async (q) => {
      const { rows } = await search(q);
      expect(references(rows)).toContain(REFERENCE);
      expect(references(rows)).not.toContain("ACC-20261123-7319046");
      expect(references(rows)).not.toContain("KFF-OLD-0007319046");
    },
  );

  it("finds only the payments whose reference ends so, and its totals count them once", async () => {
    const { rows, totals } = await search("7319046");
    expect(references(rows)).toEqual([REFERENCE]);
    expect(totals.count).toBe(1);
  });

  it.each(["0244987123", "024 498 7123", "024-498-7123", "233244987123", "+233 24 498 7123", "+233 (0)24 498 7123", "00233 24 498 7123"])(
    "finds a payment by the payer's phone written %s",
    async (q) => {
      const { rows } = await search(q);
      expect(references(rows)).toContain(REFERENCE);
      expect(references(rows)).not.toContain("ACC-20261123-7319046");
    },
  );

  it("finds a payment by its card's last four", async () => {
    const { rows } = await search(LAST4);
    expect(references(rows)).toContain(card.reference);
  });

  it.each(["9876.54", "9,876.54", "GHS 9,876.54", "ghs 9876.54", "GHS9876.54"])("finds a payment by its amount written %s", async (q) => {
    const { rows, totals } = await search(q);
    expect(references(rows)).toEqual([REFERENCE]);
    expect(totals.count).toBe(1);
  });

  it("reads an amount as the screens write it, and the list holds exactly the payments of that amount in the period", async () => {
    const since = Date.parse(`${new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10)}T00:00:00Z`);
    const common = await portal()
      .businessDb(KUMASI)
      .prepare("SELECT amount, COUNT(*) AS n FROM transactions WHERE business_id = ? AND created_at >= ? GROUP BY amount ORDER BY n DESC, amount LIMIT 1")
      .bind(KUMASI, since)
      .first<{ amount: number; n: number }>();
    expect(common!.n).toBeGreaterThan(1);
    const { rows, totals } = await search(`GHS ${formatAmount(common!.amount)}`);
    expect(totals.count).toBe(common!.n);
    expect(rows.length).toBe(Math.min(common!.n, 25));
    expect(rows.every((row) => row.amount === common!.amount)).toBe(true);
  });

  it("searches within the period shown: a payment before it is found when the period holds it", async () => {
    expect(references((await search("0007319046")).rows)).toEqual([]);
    const from = new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10);
    const to = new Date(Date.now()).toISOString().slice(0, 10);
    expect(references((await search("0007319046", `range=custom&from=${from}&to=${to}`)).rows)).toEqual(["KFF-OLD-0007319046"]);
  });

  it("finds another business's payment only in that business", async () => {
    for (const q of ["7319046", PHONE, "GHS 9,876.54"]) {
      const { rows } = await search(q, "range=30d", ACCRA);
      expect(references(rows), q).toContain("ACC-20261123-7319046");
      expect(references(rows), q).not.toContain(REFERENCE);
    }
    expect(references((await search(LAST4, "range=30d", ACCRA)).rows)).not.toContain(card.reference);
  });

  it("finds the payments of a merchant named in Ghana's letters and emoji, in either case", async () => {
    const db = portal().businessDb(KUMASI);
    const merchant = await db
      .prepare("SELECT merchant_id FROM transactions WHERE business_id = ? AND id = ?")
      .bind(KUMASI, momo.id)
      .first<string>("merchant_id");
    await db.prepare("UPDATE merchants SET name = ? WHERE business_id = ? AND id = ?").bind("Ɔkɔdeɛ Ŋkwa Chop Bar 🍲", KUMASI, merchant).run();
    for (const q of ["ɔkɔdeɛ ŋkwa", "ƆKƆDEƐ ŊKWA", "Chop Bar 🍲", "🍲"]) {
      const { rows } = await search(q);
      expect(references(rows), q).toContain(REFERENCE);
      expect(new Set(rows.map((row) => row.merchant)), q).toEqual(new Set(["Ɔkɔdeɛ Ŋkwa Chop Bar 🍲"]));
    }
  });

  it.each([60, 2_000])("answers a %i-character partial reference with no payments, never a server error", async (length) => {
    expect((await search("7".repeat(length))).rows).toEqual([]);
    expect((await search(`A-${"7".repeat(length)}`)).rows).toEqual([]);
  });

  it("exports exactly the payments an amount finds", async () => {
    const response = await portal().fetch(`/transactions/export?range=30d&q=${encodeURIComponent("GHS 9,876.54")}`, {
      headers: await signedInCookie(portal(), AMA, KUMASI),
    });
    expect(response.status).toBe(200);
    const rows = (await response.text()).split("\r\n").slice(1, -1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(REFERENCE);
  });
});
