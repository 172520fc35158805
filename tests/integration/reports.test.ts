// /reports and its CSV through the built Worker: every grouping adds up to the
// rollups over the period, names replace ids, and the CSV says the same.
import { describe, expect, it } from "vitest";
import { formatAmount, formatCount, formatDate } from "#app/lib/format";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { useSharedPortal } from "../support/shared-portal";

// Reads the seed only (sessions of its own aside): the worker's shared portal.
const portal = useSharedPortal();
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function rollupTotals(business: string, from: string, to: string) {
  return (await (
    await portal().db()
  )
    .prepare(
      "SELECT coalesce(SUM(count), 0) AS count, coalesce(SUM(amount), 0) AS amount, coalesce(SUM(fee), 0) AS fee FROM daily_rollups WHERE business_id = ? AND status = 'successful' AND day BETWEEN ? AND ?",
    )
    .bind(business, from, to)
    .first<{ count: number; amount: number; fee: number }>())!;
}

async function page(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  return { response, text: textOf(await response.text()) };
}

describe("/reports", () => {
  it.each(["day", "merchant", "point_of_sale", "terminal", "channel", "network"])("by %s, the totals are the rollups' over the last 30 days", async (by) => {
    const now = Date.now();
    const want = await rollupTotals(KUMASI, day(now - 29 * DAY), day(now));
    expect(want.count).toBeGreaterThan(0);
    const { response, text } = await page(`/reports?by=${by}`);
    expect(response.status).toBe(200);
    expect(text).toContain(`Payments ${formatCount(want.count)} Value (GHS) ${formatAmount(want.amount)} Fees (GHS) ${formatAmount(want.fee)}`);
  });

  it("names merchants instead of showing their ids", async () => {
    // The merchant that took the most over the report's period: any merchant would do on most days, but "this month"
    // on the 1st, or a merchant with no payment lately, has no row to show its name in.
    const now = Date.now();
    const merchant = await (
      await portal().db()
    )
      .prepare(
        "SELECT m.id, m.name FROM daily_rollups r JOIN merchants m ON m.business_id = r.business_id AND m.id = r.merchant_id WHERE r.business_id = ? AND r.status = 'successful' AND r.day BETWEEN ? AND ? GROUP BY m.id ORDER BY SUM(r.amount) DESC LIMIT 1",
      )
      .bind(KUMASI, day(now - 29 * DAY), day(now))
      .first<{ id: string; name: string }>();
    const { text } = await page("/reports?by=merchant&range=30d");
    expect(text).toContain(merchant!.name);
    expect(text).not.toContain(merchant!.id);
  });

  it("a typed period of up to a year is used; a wrong one is refused by the fields", async () => {
    const now = Date.now();
    const from = day(now - 365 * DAY);
    const to = day(now);
    const want = await rollupTotals(KUMASI, from, to);
    expect((await page(`/reports?range=custom&from=${from}&to=${to}`)).text).toContain(`Payments ${formatCount(want.count)}`);
    expect((await page("/reports?range=custom&from=2026-04-31&to=2026-05-02")).text).toContain(
      "Enter both days as real dates (DD/MM/YYYY). Showing the last 30 days instead.",
    );
  });

  it("a year by day: the chart draws every day inside its frame, the table a month of days a page, newest first", async () => {
    const now = Date.now();
    const from = day(now - 364 * DAY);
    const to = day(now);
    const label = (ms: number) => formatDate(`${day(ms)}T12:00:00Z`, "day");
    const path = `/reports?range=custom&from=${from}&to=${to}`;
    const response = await portal().fetch(path, { headers: await signedInCookie(portal()) });
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain(`Payments ${formatCount((await rollupTotals(KUMASI, from, to)).count)}`);

    // One column per day with payments, all of them within the 600-unit view box (with 365 the last ~65 fell outside).
    const { results } = await (
      await portal().db()
    )
      .prepare("SELECT day FROM daily_rollups WHERE business_id = ? AND status = 'successful' AND day BETWEEN ? AND ? GROUP BY day HAVING SUM(amount) > 0")
      .bind(KUMASI, from, to)
      .all<{ day: string }>();
    const d = /<path class="chart__bar" d="([^"]+)"/.exec(html)?.[1] ?? "";
    const columns = [...d.matchAll(/M([\d.]+) 160v-[\d.]+h([\d.]+)/g)].map((m) => Number(m[1]) + Number(m[2]));
    expect(columns).toHaveLength(results.length);
    expect(Math.max(...columns)).toBeLessThanOrEqual(600);
    expect(Math.max(...columns)).toBeGreaterThan(590);

    expect(text).toContain("Showing 1–31 of 365 days, newest first");
    expect(text).toContain(label(now));
    expect(text).toContain(label(now - 30 * DAY));
    expect(text).not.toContain(label(now - 31 * DAY));
    const last = textOf(await (await portal().fetch(`${path}&page=12`, { headers: await signedInCookie(portal()) })).text());
    expect(last).toContain("Showing 342–365 of 365 days, newest first");
    expect(last).toContain(label(now - 341 * DAY));
    expect(last).not.toContain(label(now - 340 * DAY));
    // A day without payments is named as the others are (it showed as 2025-12-17).
    expect(last).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });

  it.each(["merchant", "channel"])("by %s, each share bar is the row's part of the period's value, so together they fill one bar", async (by) => {
    const html = await (await portal().fetch(`/reports?by=${by}`, { headers: await signedInCookie(portal()) })).text();
    const widths = [...html.matchAll(/<rect\b[^>]*\bwidth="([\d.]+)"[^>]*class="share-bar__fill"/g)].map((m) => Number(m[1]));
    expect(widths.length).toBeGreaterThan(1);
    // Drawn against the largest row, the first bar was full and the widths added up to well over 100.
    expect(widths.reduce((sum, w) => sum + w, 0)).toBeCloseTo(100, 0);
    expect(Math.max(...widths)).toBeLessThan(100);
  });

  it("another business sees its own report", async () => {
    const now = Date.now();
    const want = await rollupTotals(ACCRA, day(now - 29 * DAY), day(now));
    const { text } = await page("/reports", "yaw.asante@example.com", ACCRA);
    expect(text).toContain(`Payments ${formatCount(want.count)} Value (GHS) ${formatAmount(want.amount)}`);
  });
});

describe("/reports/export", () => {
  it("is the report as CSV, every day of the period included", async () => {
    const now = Date.now();
    const want = await rollupTotals(KUMASI, day(now - 29 * DAY), day(now));
    const response = await portal().fetch("/reports/export?range=30d", { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Day,Payments,Value (GHS),Fees (GHS),Refunds (GHS)");
    expect(lines).toHaveLength(31);
    const count = lines.slice(1).reduce((sum, line) => sum + Number(line.split(",")[1]), 0);
    expect(count).toBe(want.count);
  });

  it("is refused to a Viewer (403)", async () => {
    expect((await portal().fetch("/reports/export", { headers: await signedInCookie(portal(), "yaw.asante@example.com", ACCRA) })).status).toBe(403);
  });
});
