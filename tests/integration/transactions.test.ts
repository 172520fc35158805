// /transactions and its CSV through the built Worker: the period, filters and
// search narrow the list and its totals exactly as SQL over the same rows does;
// the detail's postings balance; nothing of another business shows.
import { describe, expect, it } from "vitest";
import { formatAmount, formatCount } from "../../app/lib/format";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const DAY = 86_400_000;
const midnight = (ms: number) => Date.parse(`${new Date(ms).toISOString().slice(0, 10)}T00:00:00Z`);

async function expected(where: string, binds: unknown[]) {
  return (await (
    await portal().db()
  )
    .prepare(
      `SELECT COUNT(*) AS count, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross, coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees
       FROM transactions WHERE business_id = ? AND ${where}`,
    )
    .bind(KUMASI, ...binds)
    .first<{ count: number; gross: number; fees: number }>())!;
}

async function page(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  return { response, text: textOf(await response.text()) };
}

function totalsText(t: { count: number; gross: number; fees: number }): string {
  return `Payments ${formatCount(t.count)} Gross (GHS) ${formatAmount(t.gross)} Fees (GHS) ${formatAmount(t.fees)} Net (GHS) ${formatAmount(t.gross - t.fees)}`;
}

describe("/transactions", () => {
  it("shows the last 7 days by default, with totals of exactly those payments", async () => {
    const now = Date.now();
    const want = await expected("created_at >= ? AND created_at < ?", [midnight(now) - 6 * DAY, midnight(now) + DAY]);
    expect(want.count).toBeGreaterThan(0);
    const { response, text } = await page("/transactions");
    expect(response.status).toBe(200);
    expect(text).toContain(totalsText(want));
    expect(text).toContain(`of ${formatCount(want.count)} payments`);
  });

  it("filters by status, channel and network, and by a typed period", async () => {
    const now = Date.now();
    const from = new Date(now - 20 * DAY).toISOString().slice(0, 10);
    const to = new Date(now - 10 * DAY).toISOString().slice(0, 10);
    const want = await expected("created_at >= ? AND created_at < ? AND status = 'successful' AND channel = 'mobile_money' AND network = 'MTN'", [
      Date.parse(`${from}T00:00:00Z`),
      Date.parse(`${to}T00:00:00Z`) + DAY,
    ]);
    const { text } = await page(`/transactions?range=custom&from=${from}&to=${to}&status=successful&channel=mobile_money&network=MTN`);
    expect(text).toContain(totalsText(want));
  });

  it("an impossible or reversed period is refused by the date fields, and the last 7 days show", async () => {
    for (const [from, to, message] of [
      ["2026-02-30", "2026-03-02", "Enter both days as real dates (YYYY-MM-DD)."],
      ["2026-03-10", "2026-03-01", "The first day must not be after the last day."],
      ["2024-01-01", "2026-01-01", "Choose at most 366 days."],
    ]) {
      const { response, text } = await page(`/transactions?range=custom&from=${from}&to=${to}`);
      expect(response.status).toBe(200);
      expect(text).toContain(`${message} Showing the last 7 days instead.`);
    }
  });

  it("searches by reference, by phone as people type it, and by a card's last four", async () => {
    const db = await portal().db();
    const momo = await db
      .prepare(
        "SELECT reference, customer_msisdn AS msisdn, created_at FROM transactions WHERE business_id = ? AND customer_msisdn IS NOT NULL ORDER BY created_at DESC LIMIT 1",
      )
      .bind(KUMASI)
      .first<{ reference: string; msisdn: string }>();
    const card = await db
      .prepare("SELECT reference, card_last4 AS last4 FROM transactions WHERE business_id = ? AND card_last4 IS NOT NULL ORDER BY created_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ reference: string; last4: string }>();
    expect((await page(`/transactions?range=30d&q=${momo!.reference.toLowerCase()}`)).text).toContain("Showing 1–1 of 1 payment");
    const byPhone = await page(`/transactions?range=30d&q=0${momo!.msisdn.slice(3)}`);
    expect(byPhone.text).toContain(momo!.reference);
    // Phones are masked on screen: the number searched for is not shown.
    expect(byPhone.text).not.toContain(momo!.msisdn);
    expect((await page(`/transactions?range=30d&q=${card!.last4}`)).text).toContain(card!.reference);
  });

  it("a search that is not number-heavy finds the payments of merchants so named (SPEC 5)", async () => {
    const db = await portal().db();
    const newest = (merchant: string, same: boolean) =>
      db
        .prepare(`SELECT reference FROM transactions WHERE business_id = ? AND merchant_id ${same ? "=" : "<>"} ? ORDER BY created_at DESC, id DESC LIMIT 1`)
        .bind(KUMASI, merchant)
        .first<string>("reference");
    const name = (await db.prepare("SELECT trading_name FROM merchants WHERE id = 'mer_kff_0001'").first<string>("trading_name"))!;
    const typed = name.split(" ").slice(0, 2).join(" ").toLowerCase();
    const { text } = await page(`/transactions?range=30d&q=${encodeURIComponent(typed)}`);
    expect(text).toContain((await newest("mer_kff_0001", true))!);
    expect(text).not.toContain((await newest("mer_kff_0001", false))!);
    expect(text).not.toContain("No payments match");
  });

  // The word is read two ways (the merchants so named, a reference in letters), each by its own index: a payment
  // found both ways is one payment in the list and in the totals.
  it("a word that is a merchant's name and also a reference written in letters finds each payment once", async () => {
    const db = await portal().db();
    const now = Date.now();
    const from = midnight(now) - 29 * DAY;
    const newestOf = (merchant: string) =>
      db
        .prepare("SELECT id FROM transactions WHERE business_id = ? AND merchant_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT 1")
        .bind(KUMASI, merchant, from)
        .first<number>("id");
    const rename = async (id: number | null, reference: string) =>
      db.prepare("UPDATE transactions SET reference = ? WHERE business_id = ? AND id = ?").bind(reference, KUMASI, id).run();
    const name = (await db.prepare("SELECT trading_name FROM merchants WHERE id = 'mer_kff_0001'").first<string>("trading_name"))!;
    const word = name.split(" ")[0]!;
    await rename(await newestOf("mer_kff_0001"), word.toUpperCase());
    await rename(await newestOf("mer_kff_0002"), "QWERTYZX");

    const both = await page(`/transactions?range=30d&q=${encodeURIComponent(word.toLowerCase())}`);
    const named = await expected(
      "merchant_id IN (SELECT id FROM merchants WHERE business_id = ? AND (name LIKE ? OR trading_name LIKE ?)) AND created_at >= ?",
      [KUMASI, `%${word}%`, `%${word}%`, from],
    );
    expect(named.count).toBeGreaterThan(0);
    expect(both.text).toContain(totalsText(named));

    const lettersOnly = await page("/transactions?range=30d&q=qwertyzx");
    expect(lettersOnly.text).toContain("Showing 1–1 of 1 payment");
    expect(lettersOnly.text).toContain("QWERTYZX");
  });

  it("the detail shows the payment and its ledger postings, which balance", async () => {
    const db = await portal().db();
    const paid = await db
      .prepare("SELECT id, reference FROM transactions WHERE business_id = ? AND status = 'successful' ORDER BY created_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: number; reference: string }>();
    const { response, text } = await page(`/transactions?tx=${paid!.id}`);
    expect(response.status).toBe(200);
    expect(text).toContain("Ledger postings");
    const sum = await db
      .prepare("SELECT SUM(amount) AS s, COUNT(*) AS n FROM ledger_entries WHERE transaction_id = ?")
      .bind(paid!.id)
      .first<{ s: number; n: number }>();
    expect(sum!.n).toBeGreaterThan(1);
    expect(sum!.s).toBe(0);
  });

  it("a payment of another business behind ?tx= is the 404 page with the full path", async () => {
    const other = await (await portal().db()).prepare("SELECT id FROM transactions WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: number }>();
    const { response, text } = await page(`/transactions?tx=${other!.id}`);
    expect(response.status).toBe(404);
    expect(text).toContain(`Page Not Found: /transactions?tx=${other!.id}`);
  });

  it("another business's list shows none of Kumasi's payments", async () => {
    const kumasi = await (
      await portal().db()
    )
      .prepare("SELECT reference FROM transactions WHERE business_id = ? ORDER BY created_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ reference: string }>();
    const { text } = await page("/transactions", "yaw.asante@example.com", ACCRA);
    expect(text).not.toContain(kumasi!.reference);
  });
});

describe("/transactions/export", () => {
  it("streams every payment of the filtered set with masked payers", async () => {
    const now = Date.now();
    const want = await expected("created_at >= ? AND created_at < ?", [midnight(now) - 29 * DAY, midnight(now) + DAY]);
    const response = await portal().fetch("/transactions/export?range=30d", { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(want.count + 1);
    expect(lines.slice(1).every((line) => !/233\d{9}/.test(line))).toBe(true);
  });

  it("is refused to a Viewer (403)", async () => {
    const response = await portal().fetch("/transactions/export", { headers: await signedInCookie(portal(), "yaw.asante@example.com", ACCRA) });
    expect(response.status).toBe(403);
  });
});
