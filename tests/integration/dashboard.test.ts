// The dashboard (/) through the built Worker: its figures equal what the
// rollups and the transactions say, per business, and it needs a business.
import { describe, expect, it } from "vitest";
import { accraDay } from "#server/reports/dashboard.db";
import { formatAmount, formatCount } from "#app/lib/format";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const DAY = 86_400_000;

async function sum(business: string, fromDay: string, toDay: string) {
  const row = await (
    await portal().db()
  )
    .prepare(
      `SELECT coalesce(SUM(CASE WHEN status = 'successful' THEN count END), 0) AS count, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS amount, coalesce(SUM(count), 0) AS attempts
       FROM daily_rollups WHERE business_id = ? AND day BETWEEN ? AND ?`,
    )
    .bind(business, fromDay, toDay)
    .first<{ count: number; amount: number; attempts: number }>();
  return row!;
}

describe("/ (Dashboard)", () => {
  it("shows the last 30 days' value and count and the success rate as the rollups have them", async () => {
    const now = Date.now();
    const last30 = await sum(KUMASI, accraDay(now - 29 * DAY), accraDay(now));
    expect(last30.count).toBeGreaterThan(0);
    const response = await portal().fetch("/", { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Dashboard</title>");
    const text = textOf(html);
    expect(text).toContain(`Last 30 days' value (GHS) ${formatAmount(last30.amount)}`);
    expect(text).toContain(`Last 30 days' payments ${formatCount(last30.count)}`);
    expect(text).toContain(`${formatCount(last30.attempts)} attempts`);
  });

  it("counts today so far from the payments themselves (the rollups are written overnight)", async () => {
    const db = await portal().db();
    const pos = await db
      .prepare("SELECT id, merchant_id FROM points_of_sale WHERE business_id = ? LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; merchant_id: string }>();
    const now = Date.now();
    const insert = (reference: string, status: string, amount: number) =>
      db
        .prepare(
          `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, channel, network, amount, fee, status, customer_msisdn, created_at)
           VALUES (?, ?, ?, ?, 'mobile_money', 'MTN', ?, 0, ?, '233240000001', ?)`,
        )
        .bind(KUMASI, reference, pos!.merchant_id, pos!.id, amount, status, now - 1000);
    await db.batch([insert("DASH-TODAY-1", "successful", 12_345), insert("DASH-TODAY-2", "successful", 55), insert("DASH-TODAY-3", "failed", 999)]);
    const text = textOf(await (await portal().fetch("/", { headers: await signedInCookie(portal()) })).text());
    // Only today's own rows count; failed ones are not value.
    const before = await db
      .prepare(
        "SELECT coalesce(SUM(amount), 0) AS amount, COUNT(*) AS n FROM transactions WHERE business_id = ? AND status = 'successful' AND created_at >= ? AND reference NOT LIKE 'DASH-TODAY-%'",
      )
      .bind(KUMASI, Date.parse(`${accraDay(now)}T00:00:00Z`))
      .first<{ amount: number; n: number }>();
    expect(text).toContain(`Today's value so far (GHS) ${formatAmount(12_400 + (before?.amount ?? 0))}`);
    expect(text).toContain(`Today's payments so far ${formatCount(2 + (before?.n ?? 0))}`);
    // The masked payer, never the number.
    expect(text).toContain("DASH-TODAY-1");
    expect(text).not.toContain("233240000001");
  });

  it("shows each business its own figures", async () => {
    const now = Date.now();
    const accra = await sum(ACCRA, accraDay(now - 29 * DAY), accraDay(now));
    const kumasi = await sum(KUMASI, accraDay(now - 29 * DAY), accraDay(now));
    expect(accra.amount).not.toBe(kumasi.amount);
    const text = textOf(await (await portal().fetch("/", { headers: await signedInCookie(portal(), "yaw.asante@example.com", ACCRA) })).text());
    expect(text).toContain(`Last 30 days' value (GHS) ${formatAmount(accra.amount)}`);
  });

  it("lists the latest payments with card numbers as BIN and last four and phones masked", async () => {
    const db = await portal().db();
    const latest = await db
      .prepare("SELECT reference, customer_msisdn AS msisdn FROM transactions WHERE business_id = ? ORDER BY created_at DESC, id DESC LIMIT 8")
      .bind(KUMASI)
      .all<{ reference: string; msisdn: string | null }>();
    const text = textOf(await (await portal().fetch("/", { headers: await signedInCookie(portal()) })).text());
    for (const row of latest.results) {
      expect(text).toContain(row.reference);
      if (row.msisdn) expect(text).not.toContain(row.msisdn);
    }
  });

  // The next settlement run pays each merchant's available money (a merchant that owes is skipped); pending money
  // clears first. Summed here from the ledger's entries themselves, not the running sums the page reads.
  it("shows what awaits settlement and what is still clearing, as the ledger's entries say", async () => {
    const db = await portal().db();
    const { results } = await db
      .prepare(
        `SELECT a.kind, 0 - coalesce(SUM(e.amount), 0) AS balance FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id
         WHERE a.business_id = ? AND a.kind IN ('merchant_pending', 'merchant_available') GROUP BY a.id`,
      )
      .bind(KUMASI)
      .all<{ kind: string; balance: number }>();
    const clearing = results.filter((r) => r.kind === "merchant_pending").reduce((sum, r) => sum + r.balance, 0);
    const unsettled = results.filter((r) => r.kind === "merchant_available").reduce((sum, r) => sum + Math.max(0, r.balance), 0);
    expect(unsettled + clearing).toBeGreaterThan(0);
    const text = textOf(await (await portal().fetch("/", { headers: await signedInCookie(portal()) })).text());
    expect(text).toContain(`GHS ${formatAmount(unsettled)} cleared, awaiting settlement (GHS ${formatAmount(clearing)} still clearing)`);
  });

  it("counts silent terminals and pending approvals, linking to them", async () => {
    const html = await (await portal().fetch("/", { headers: await signedInCookie(portal()) })).text();
    expect(html).toContain('href="/pos-terminals?silent=1"');
    // What waits for this person's decision, the queue's "waiting for me" view.
    expect(html).toContain('href="/approvals?view=waiting"');
  });

  it("needs a session and a business", async () => {
    expect((await portal().fetch("/")).headers.get("Location")).toBe("/login");
    expect((await portal().fetch("/", { headers: await signedInCookie(portal(), "kofi.boateng@example.com", null) })).headers.get("Location")).toBe(
      "/select-business",
    );
  });
});
