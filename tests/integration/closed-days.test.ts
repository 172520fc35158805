// Reports keep what they build from closed days (functions/reports/closed-days.db.ts):
// a kept figure says what the rollups say, and a payment that lands on a past
// day (the Partner API takes them up to 90 days back) shows at the next request.
import { beforeAll, describe, expect, it } from "vitest";
import { formatAmount, formatCount } from "#app/lib/format";
import { textOf } from "../support/html";
import { api, eventually, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "1000" } });
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Line {
  count: number;
  amount: number;
}

/** The report's CSV as the person downloads it: key → payments and value (pesewas). */
async function csv(path: string): Promise<Map<string, Line>> {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
  expect(response.status).toBe(200);
  const lines = (await response.text())
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .slice(1);
  return new Map(
    lines.map((line) => {
      // The key may be a quoted name with commas; the four figures (payments, value, fees, refunds) are the last fields.
      const fields = line.split(",");
      const [count, value] = fields.slice(-4);
      return [fields.slice(0, -4).join(","), { count: Number(count), amount: Math.round(Number(value) * 100) }];
    }),
  );
}

/** What the rollups say now, summed per day or per merchant over the period (successful payments). */
async function fresh(by: "day" | "merchant_id", from: string, to: string): Promise<Map<string, Line>> {
  const { results } = await (
    await portal().db()
  )
    .prepare(
      `SELECT ${by} AS key, SUM(count) AS count, SUM(amount) AS amount FROM daily_merchant_totals
       WHERE business_id = ? AND status = 'successful' AND day BETWEEN ? AND ? GROUP BY ${by}`,
    )
    .bind(KUMASI, from, to)
    .all<Line & { key: string }>();
  return new Map(results.map((r) => [r.key, { count: r.count, amount: r.amount }]));
}

async function kept(): Promise<number> {
  const row = await (await portal().db()).prepare("SELECT count(*) AS n FROM closed_day_cache WHERE business_id = ?").bind(KUMASI).first<{ n: number }>();
  return row?.n ?? 0;
}

/** The totals /transactions shows, and what SQL over the payments themselves says they must be. */
async function totals(query: string, where: string, binds: unknown[]): Promise<{ shown: string; want: string }> {
  const response = await portal().fetch(`/transactions?${query}`, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
  expect(response.status).toBe(200);
  const text = textOf(await response.text());
  const t = (await (
    await portal().db()
  )
    .prepare(
      `SELECT COUNT(*) AS count, coalesce(SUM(status = 'successful'), 0) AS successful, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS gross,
         coalesce(SUM(CASE WHEN status = 'successful' THEN fee END), 0) AS fees FROM transactions WHERE business_id = ? AND ${where}`,
    )
    .bind(KUMASI, ...binds)
    .first<{ count: number; successful: number; gross: number; fees: number }>())!;
  const want =
    `Payments, every status ${formatCount(t.count)} ${t.count === 1 ? "payment" : "payments"}, ${formatCount(t.successful)} successful ` +
    `Gross of successful payments (GHS) ${formatAmount(t.gross)} Fees of successful payments (GHS) ${formatAmount(t.fees)} ` +
    `Net of successful payments (GHS) ${formatAmount(t.gross - t.fees)}`;
  const shown =
    /Payments, every status [\d,]+ payments?, [\d,]+ successful Gross of successful payments \(GHS\) [\d,.]+ Fees of successful payments \(GHS\) [\d,.]+ Net of successful payments \(GHS\) [\d,.-]+/.exec(
      text,
    )?.[0];
  return { shown: shown ?? "(no totals)", want };
}

const midnight = (ms: number) => Date.parse(`${day(ms)}T00:00:00Z`);

const nonZero = (lines: Map<string, Line>) => new Map([...lines].filter(([, line]) => line.count !== 0));
const sortedFigures = (lines: Map<string, Line>) => [...lines.values()].map((l) => `${l.count}:${l.amount}`).sort();

let key: string;
let parties: Parties;
beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  parties = (await partiesOf(portal(), KUMASI))[0]!;
});

describe("reports over closed days", () => {
  it("a year by day and by merchant, built and then read back, say what the rollups say", async () => {
    const now = Date.now();
    const from = day(now - 364 * DAY);
    const to = day(now);
    const byDay = `/reports/export?range=custom&from=${from}&to=${to}`;
    const byMerchant = `/reports/export?by=merchant&range=custom&from=${from}&to=${to}`;
    const built = nonZero(await csv(byDay));
    const builtMerchants = await csv(byMerchant);
    expect(await kept()).toBeGreaterThanOrEqual(2);
    const want = await fresh("day", from, to);
    expect(want.size).toBeGreaterThanOrEqual(20);
    expect(built).toEqual(want);
    expect(nonZero(await csv(byDay))).toEqual(want);
    // By merchant the CSV names merchants: the figures per merchant are the rollups'.
    const wantMerchants = sortedFigures(await fresh("merchant_id", from, to));
    expect(sortedFigures(builtMerchants)).toEqual(wantMerchants);
    expect(sortedFigures(await csv(byMerchant))).toEqual(wantMerchants);
  });

  it("the transactions' totals over whole days, built and then read back, say what the payments say, filtered too", async () => {
    const now = Date.now();
    const thirty = [midnight(now) - 29 * DAY, midnight(now) + DAY];
    for (let i = 0; i < 2; i += 1) {
      const all = await totals("range=30d", "created_at >= ? AND created_at < ?", thirty);
      expect(all.shown).toBe(all.want);
      const filtered = await totals(
        "range=30d&status=successful&channel=mobile_money&network=MTN",
        "created_at >= ? AND created_at < ? AND status = 'successful' AND channel = 'mobile_money' AND network = 'MTN'",
        thirty,
      );
      expect(filtered.shown).toBe(filtered.want);
      const failed = await totals(
        `range=7d&status=failed&merchant=${parties.merchantId}`,
        "created_at >= ? AND created_at < ? AND status = 'failed' AND merchant_id = ?",
        [midnight(now) - 6 * DAY, midnight(now) + DAY, parties.merchantId],
      );
      expect(failed.shown).toBe(failed.want);
    }
  });

  it("a payment that lands on a past day is in the report at the next request, by day and by merchant", async () => {
    const now = Date.now();
    const from = day(now - 29 * DAY);
    const past = day(now - 5 * DAY);
    const byDay = "/reports/export?range=30d";
    const byMerchant = "/reports/export?by=merchant&range=30d";
    const before = (await csv(byDay)).get(past)!;
    const merchantsBefore = sortedFigures(await csv(byMerchant));
    const thirty = [midnight(now) - 29 * DAY, midnight(now) + DAY];
    const totalsBefore = await totals("range=30d", "created_at >= ? AND created_at < ?", thirty);
    expect(totalsBefore.shown).toBe(totalsBefore.want);
    expect(await kept()).toBeGreaterThanOrEqual(3);

    const payment = momoPayment(parties, { amount: 4_321, occurred_at: new Date(now - 5 * DAY).toISOString() });
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    const db = await portal().db();
    await eventually(
      async () => (await db.prepare("SELECT count(*) AS n FROM transactions WHERE reference = ?").bind(payment.reference).first<{ n: number }>())?.n === 1,
      15_000,
      "the late payment to be written",
    );

    expect((await csv(byDay)).get(past)).toEqual({ count: before.count + 1, amount: before.amount + 4_321 });
    const merchantsAfter = sortedFigures(await csv(byMerchant));
    expect(merchantsAfter).not.toEqual(merchantsBefore);
    expect(merchantsAfter).toEqual(sortedFigures(await fresh("merchant_id", from, day(now))));
    const totalsAfter = await totals("range=30d", "created_at >= ? AND created_at < ?", thirty);
    expect(totalsAfter.shown).not.toBe(totalsBefore.shown);
    expect(totalsAfter.shown).toBe(totalsAfter.want);
  });

  it("today's payments show at once while the closed days are kept", async () => {
    const today = day(Date.now());
    const byDay = "/reports/export?range=30d";
    const before = (await csv(byDay)).get(today)!;
    const payment = momoPayment(parties, { amount: 1_234 });
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    const db = await portal().db();
    await eventually(
      async () => (await db.prepare("SELECT count(*) AS n FROM transactions WHERE reference = ?").bind(payment.reference).first<{ n: number }>())?.n === 1,
      15_000,
      "the payment to be written",
    );
    expect((await csv(byDay)).get(today)).toEqual({ count: before.count + 1, amount: before.amount + 1_234 });
  });
});
