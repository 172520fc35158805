// /transactions and its CSV through the built Worker: the period, filters and
// search narrow the list and its totals exactly as SQL over the same rows does;
// the detail's postings balance; nothing of another business shows.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatAmount, formatCount } from "#app/lib/format";
import { transactionFee } from "#server/ledger/ledger";
import { ROOT } from "../support/portal";
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
      `SELECT COUNT(*) AS count, coalesce(SUM(status = 'successful'), 0) AS successful, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross,
         coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees
       FROM transactions WHERE business_id = ? AND ${where}`,
    )
    .bind(KUMASI, ...binds)
    .first<{ count: number; successful: number; gross: number; fees: number }>())!;
}

async function page(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  return { response, text: textOf(await response.text()) };
}

function totalsText(t: { count: number; successful: number; gross: number; fees: number }): string {
  return (
    `Payments, every status ${formatCount(t.count)} ${t.count === 1 ? "payment" : "payments"}, ${formatCount(t.successful)} successful ` +
    `Gross of successful payments (GHS) ${formatAmount(t.gross)} Fees of successful payments (GHS) ${formatAmount(t.fees)} ` +
    `Net of successful payments (GHS) ${formatAmount(t.gross - t.fees)}`
  );
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
      ["2026-02-30", "2026-03-02", "Enter both days as real dates (DD/MM/YYYY)."],
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

// Decision 034: a failed payment moved no money, so it has no fee and no net; the summary's count card counts
// every payment and says how many succeeded, the money cards sum the successful ones and say so.
describe("a failed payment", () => {
  interface Failed {
    id: number;
    reference: string;
    amount: number;
    channel: "card" | "mobile_money";
    network: string;
    merchantId: string;
    pointOfSaleId: string;
    terminalId: string;
    day: string;
  }
  const newestFailed = async () =>
    (await (
      await portal().db()
    )
      .prepare(
        `SELECT id, reference, amount, channel, network, merchant_id AS merchantId, point_of_sale_id AS pointOfSaleId,
           coalesce(terminal_id, '') AS terminalId, date(created_at / 1000, 'unixepoch') AS day
         FROM transactions WHERE business_id = ? AND status = 'failed' ORDER BY created_at DESC LIMIT 1`,
      )
      .bind(KUMASI)
      .first<Failed>())!;

  /** Migration 0028 as wrangler applies it: its statements, in order, on one database. */
  async function migrate(db: D1Database): Promise<void> {
    const sql = readFileSync(join(ROOT, "migrations/0028_failed_payments_no_fee.sql"), "utf8")
      .split("\n")
      .filter((line) => !line.startsWith("--"))
      .join("\n");
    const statements = sql
      .split(";")
      .map((statement) => statement.trim())
      .filter(Boolean);
    await db.batch(statements.map((statement) => db.prepare(statement)));
  }

  it("is seeded with fee 0, and no rollup of failed payments holds a fee, on any database", async () => {
    let failed = 0;
    for (const db of [portal().core(), ...portal().shards()]) {
      failed += (await db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE status = 'failed'").first<number>("n"))!;
      expect(await db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE status = 'failed' AND fee <> 0").first<number>("n")).toBe(0);
      expect(await db.prepare("SELECT COUNT(*) AS n FROM daily_rollups WHERE status = 'failed' AND fee <> 0").first<number>("n")).toBe(0);
      expect(await db.prepare("SELECT COUNT(*) AS n FROM daily_merchant_totals WHERE status = 'failed' AND fee <> 0").first<number>("n")).toBe(0);
    }
    expect(failed).toBeGreaterThan(0);
  });

  it("shows no fee and no net in the list, the detail and the CSV", async () => {
    const failed = await newestFailed();
    const list = await page(`/transactions?range=30d&status=failed&q=${encodeURIComponent(failed.reference)}`);
    expect(list.text).toContain("Showing 1–1 of 1 payment");
    expect(list.text).toContain(`${formatAmount(failed.amount)} — Failed`);
    const detail = await page(`/transactions?range=30d&tx=${failed.id}`);
    expect(detail.response.status).toBe(200);
    expect(detail.text).toContain("Fee (GHS) — Net (GHS) —");
    const csv = await portal().fetch(`/transactions/export?range=30d&status=failed&q=${encodeURIComponent(failed.reference)}`, {
      headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI),
    });
    const [header, row] = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    const cells = row!.split(",");
    const column = (name: string) => header!.split(",").indexOf(name);
    expect(cells[column("Amount (GHS)")]).toBe((failed.amount / 100).toFixed(2));
    expect(cells[column("Fee (GHS)")]).toBe("");
    expect(cells[column("Net (GHS)")]).toBe("");
  });

  it("the summary counts every payment, says how many succeeded, and sums the successful ones (failed alone: none)", async () => {
    const now = Date.now();
    const period = ["created_at >= ? AND created_at < ?", [midnight(now) - 29 * DAY, midnight(now) + DAY]] as const;
    const all = await expected(period[0], [...period[1]]);
    expect(all.successful).toBeLessThan(all.count);
    const shown = await page("/transactions?range=30d");
    expect(shown.text).toContain(totalsText(all));
    const failedOnly = await expected(`${period[0]} AND status = 'failed'`, [...period[1]]);
    expect(failedOnly.count).toBeGreaterThan(0);
    const failedShown = await page("/transactions?range=30d&status=failed");
    expect(failedShown.text).toContain(
      `Payments, every status ${formatCount(failedOnly.count)} ${failedOnly.count === 1 ? "payment" : "payments"}, 0 successful Gross of successful payments (GHS) 0.00`,
    );
  });

  it("migration 0028 clears a fee stored before it, in the payment and its rollups, and its kept figures, on every database", async () => {
    const failed = await newestFailed();
    const db = portal().businessDb(KUMASI);
    // As the portal stored a failed payment before: with its fee, added to its rollups.
    const fee = transactionFee(failed.channel, failed.amount);
    expect(fee).toBeGreaterThan(0);
    const rollupKey = "business_id = ? AND day = ? AND merchant_id = ? AND status = 'failed'";
    const keyBinds = [KUMASI, failed.day, failed.merchantId];
    const changed = await db.batch([
      db.prepare("UPDATE transactions SET fee = ? WHERE business_id = ? AND id = ?").bind(fee, KUMASI, failed.id),
      db
        .prepare(`UPDATE daily_rollups SET fee = fee + ? WHERE ${rollupKey} AND point_of_sale_id = ? AND terminal_id = ? AND channel = ? AND network = ?`)
        .bind(fee, ...keyBinds, failed.pointOfSaleId, failed.terminalId, failed.channel, failed.network),
      db.prepare(`UPDATE daily_merchant_totals SET fee = fee + ? WHERE ${rollupKey}`).bind(fee, ...keyBinds),
    ]);
    expect(changed.map((result) => result.meta.changes)).toEqual([1, 1, 1]);
    // A kept figure of closed days, built before the migration.
    await page("/transactions?range=30d");
    expect(await db.prepare("SELECT COUNT(*) AS n FROM closed_day_cache WHERE business_id = ?").bind(KUMASI).first<number>("n")).toBeGreaterThan(0);

    for (const each of [portal().core(), ...portal().shards()]) await migrate(each);

    expect(await db.prepare("SELECT fee FROM transactions WHERE business_id = ? AND id = ?").bind(KUMASI, failed.id).first<number>("fee")).toBe(0);
    expect(
      await db
        .prepare(`SELECT SUM(fee) AS fee FROM daily_rollups WHERE ${rollupKey}`)
        .bind(...keyBinds)
        .first<number>("fee"),
    ).toBe(0);
    expect(
      await db
        .prepare(`SELECT fee FROM daily_merchant_totals WHERE ${rollupKey}`)
        .bind(...keyBinds)
        .first<number>("fee"),
    ).toBe(0);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM closed_day_cache").first<number>("n")).toBe(0);
    // The rollups agree with the payments again: every failed cell's fee is its payments' (none).
    const disagreeing = await db
      .prepare(
        `SELECT COUNT(*) AS n FROM daily_merchant_totals m WHERE m.business_id = ? AND m.status = 'failed' AND m.fee <> (SELECT coalesce(SUM(t.fee), 0) FROM transactions t
           WHERE t.business_id = m.business_id AND t.merchant_id = m.merchant_id AND t.status = 'failed' AND date(t.created_at / 1000, 'unixepoch') = m.day)`,
      )
      .bind(KUMASI)
      .first<number>("n");
    expect(disagreeing).toBe(0);
    // And the screens, with the kept figures built again.
    const now = Date.now();
    expect((await page("/transactions?range=30d")).text).toContain(
      totalsText(await expected("created_at >= ? AND created_at < ?", [midnight(now) - 29 * DAY, midnight(now) + DAY])),
    );
    expect((await page(`/transactions?range=30d&tx=${failed.id}`)).text).toContain("Fee (GHS) — Net (GHS) —");
  });
});
