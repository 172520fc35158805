// Settlement and payouts against real D1 in workerd: a run pays each merchant
// what cleared the day before, never a transaction twice (even two runs at
// once); payouts are claimed, retried after a failure, never paid twice; the
// Cron Trigger runs it all; the page shows it and only an administrator runs it.
import { beforeAll, describe, expect, it } from "vitest";
import { processPayouts, type Payout, type PayoutPort } from "#server/settlement/payouts";
import { runSettlement, settlementPeriodFor } from "#server/settlement/run";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { usePortal } from "../support/use-portal";
import { askedCheck, sendChecked } from "../support/fresh-check";
import { insertSettlementStatement } from "#server/settlement/settlement-runs.db";

const DAY = 86_400_000;

async function count(db: D1Database, sql: string, ...binds: unknown[]): Promise<number> {
  return (
    (await db
      .prepare(sql)
      .bind(...binds)
      .first<number>("n")) ?? 0
  );
}

async function ledgerTotal(db: D1Database): Promise<number> {
  return (await db.prepare("SELECT coalesce(SUM(amount), 0) AS s FROM ledger_entries").first<number>("s")) ?? 0;
}

/** A provider that records every call and fails the references it is told to, once. */
function recordingPort(failOnce: Set<string> = new Set()): PayoutPort & { calls: Payout[] } {
  const calls: Payout[] = [];
  return {
    kind: "test",
    calls,
    async pay(payout) {
      calls.push(payout);
      if (failOnce.delete(payout.reference)) return { ok: false, error: "Bank timeout" };
      return { ok: true };
    },
  };
}

describe("the daily settlement run", () => {
  const portal = usePortal();

  it("settles yesterday's cleared payments once, even when two runs race, and the ledger still sums to zero", async () => {
    const db = await portal().db();
    const period = settlementPeriodFor(Date.now());
    const cleared = await count(
      db,
      "SELECT COUNT(*) AS n FROM transactions t WHERE business_id = ? AND status = 'successful' AND cleared_at >= ? AND cleared_at < ? AND NOT EXISTS (SELECT 1 FROM settlement_items s WHERE s.transaction_id = t.id)",
      KUMASI,
      period,
      period + DAY,
    );
    expect(cleared).toBeGreaterThan(0);
    const [a, b] = await Promise.all([runSettlement(businessOf(KUMASI), period, META, null), runSettlement(businessOf(KUMASI), period, META, null)]);
    const made = [...a.settled, ...b.settled];
    expect(made.reduce((n, s) => n + s.transactions, 0)).toBe(cleared);
    expect(new Set(made.map((s) => s.merchantId)).size).toBe(made.length);
    const again = await runSettlement(businessOf(KUMASI), period, META, KOFI_KUMASI);
    expect(again.settled).toEqual([]);
    // Every covered transaction is in exactly one settlement, and the sums agree.
    for (const s of made) {
      const row = await db
        .prepare("SELECT gross, fees, net FROM settlements WHERE id = ?")
        .bind(s.settlementId)
        .first<{ gross: number; fees: number; net: number }>();
      const items = await db
        .prepare(
          "SELECT SUM(t.amount) AS gross, SUM(t.fee) AS fees FROM settlement_items i JOIN transactions t ON t.id = i.transaction_id WHERE i.settlement_id = ?",
        )
        .bind(s.settlementId)
        .first<{ gross: number; fees: number }>();
      expect(row).toEqual({ gross: items!.gross, fees: items!.fees, net: items!.gross - items!.fees });
      expect(await count(db, "SELECT COUNT(*) AS n FROM ledger_entries WHERE settlement_id = ?", s.settlementId)).toBe(2);
    }
    expect(await ledgerTotal(db)).toBe(0);
    await expectAccountSumsMatchEntries(portal().shards());
  });

  it("pays out what is due, records a failure, retries it next time, and never pays twice", async () => {
    const db = await portal().db();
    const due = (
      await db
        .prepare("SELECT reference, attempts FROM settlements WHERE business_id = ? AND status = 'pending' ORDER BY created_at")
        .bind(KUMASI)
        .all<{ reference: string; attempts: number }>()
    ).results;
    expect(due.length).toBeGreaterThan(1);
    const failing = due[0]!.reference;
    // The seed's last run is already in flight (one attempt made).
    const tried = due[0]!.attempts;
    const port = recordingPort(new Set([failing]));
    // Two payout runs at once: each settlement is claimed by one of them.
    const [first, second] = await Promise.all([processPayouts(businessOf(KUMASI), port), processPayouts(businessOf(KUMASI), port)]);
    expect(new Set(port.calls.map((c) => c.reference)).size).toBe(port.calls.length);
    expect([...first.failed, ...second.failed].map((f) => f.id)).toHaveLength(1);
    const failed = await db.prepare("SELECT status, attempts FROM settlements WHERE reference = ?").bind(failing).first<{ status: string; attempts: number }>();
    expect(failed).toEqual({ status: "failed", attempts: tried + 1 });
    const retry = await processPayouts(businessOf(KUMASI), port);
    expect(retry.paid).toHaveLength(1);
    expect(await db.prepare("SELECT status, attempts FROM settlements WHERE reference = ?").bind(failing).first()).toEqual({
      status: "paid",
      attempts: tried + 2,
    });
    expect(port.calls.filter((c) => c.reference === failing)).toHaveLength(2);
    // Nothing left: a further run calls the provider for nothing.
    const calls = port.calls.length;
    await processPayouts(businessOf(KUMASI), port);
    expect(port.calls.length).toBe(calls);
    const attempts = await count(
      db,
      "SELECT COUNT(*) AS n FROM payout_attempts WHERE settlement_id = (SELECT id FROM settlements WHERE reference = ?)",
      failing,
    );
    expect(attempts).toBe(2);
  });

  it("a merchant without a primary settlement account is skipped and says why", async () => {
    const db = await portal().db();
    const period = settlementPeriodFor(Date.now()) - 400 * DAY;
    const merchant = await db.prepare("SELECT id, business_id FROM merchants WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: string }>();
    const pos = await db.prepare("SELECT id FROM points_of_sale WHERE merchant_id = ? LIMIT 1").bind(merchant!.id).first<{ id: string }>();
    await db.batch([
      db
        .prepare(
          `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, channel, network, amount, fee, status, customer_msisdn, created_at, cleared_at)
           VALUES (?, 'STL-SKIP-1', ?, ?, 'mobile_money', 'MTN', 1000, 8, 'successful', '233240000002', ?, ?)`,
        )
        .bind(ACCRA, merchant!.id, pos!.id, period + 3_600_000, period + 7_200_000),
      db.prepare("UPDATE settlement_accounts SET is_primary = 0 WHERE merchant_id = ?").bind(merchant!.id),
    ]);
    const run = await runSettlement(businessOf(ACCRA), period, META, null);
    expect(run.skipped).toContainEqual({ merchantId: merchant!.id, reason: "no active primary settlement account" });
  });
});

describe("the Cron Trigger and the page", () => {
  const portal = usePortal();

  it("the scheduled handler settles every business and pays out", async () => {
    const db = await portal().db();
    const before = await count(db, "SELECT COUNT(*) AS n FROM settlements");
    expect(await portal().scheduled("0 6 * * *")).toBe("ok");
    await expect.poll(() => count(db, "SELECT COUNT(*) AS n FROM settlements"), { timeout: 10_000 }).toBeGreaterThan(before);
    await expect.poll(() => count(db, "SELECT COUNT(*) AS n FROM payout_attempts"), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it("lists settlements with the transactions each covers; another business's settlement is a 404", async () => {
    const db = await portal().db();
    const settlement = await db
      .prepare("SELECT id, reference FROM settlements WHERE business_id = ? ORDER BY period_start DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; reference: string }>();
    const items = await count(db, "SELECT COUNT(*) AS n FROM settlement_items WHERE settlement_id = ?", settlement!.id);
    const text = textOf(await (await portal().fetch(`/money/settlement-history?s=${settlement!.id}`, { headers: await signedInCookie(portal()) })).text());
    expect(text).toContain(settlement!.reference);
    expect(text).toContain(`Transactions covered (${items})`);
    const foreign = await db.prepare("SELECT id FROM settlements WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: string }>();
    expect((await portal().fetch(`/money/settlement-history?s=${foreign!.id}`, { headers: await signedInCookie(portal()) })).status).toBe(404);
  });

  it("only an administrator runs it on demand, and only under a fresh check: without one nothing runs and the page asks for it", async () => {
    const db = await portal().db();
    // A settlement due for its payout (nothing to pay, so no rail is asked): the run pays it, and only the run.
    const account = (await db
      .prepare("SELECT merchant_id AS merchantId, settlement_account_id AS accountId FROM settlements WHERE business_id = ? ORDER BY id LIMIT 1")
      .bind(KUMASI)
      .first<{ merchantId: string; accountId: string }>())!;
    const periodStart = Date.UTC(1999, 0, 1);
    await insertSettlementStatement(businessOf(KUMASI), {
      id: "stl_run_needs_check",
      merchantId: account.merchantId,
      settlementAccountId: account.accountId,
      periodStart,
      periodEnd: periodStart + 86_400_000,
      gross: 0,
      fees: 0,
      net: 0,
      reference: "STL-RUN-CHECK-19990101",
      createdAt: new Date(Date.UTC(1999, 0, 1)).toISOString(),
    }).run();
    const statusOf = async () => (await db.prepare("SELECT status FROM settlements WHERE id = 'stl_run_needs_check'").first<{ status: string }>())!.status;
    const post = (cookie: { Cookie: string }) => () =>
      portal().fetch("/money/settlement-history", {
        method: "POST",
        headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
        body: "intent=run",
      });
    expect((await post(await signedInCookie(portal(), "abena.darko@example.com", KUMASI))()).status).toBe(403);
    const kofi = await signedInCookie(portal());
    const unchecked = await post(kofi)();
    expect(unchecked.status).toBe(428);
    expect(askedCheck(await unchecked.text())).toMatchObject({ binding: "settlement:run", purpose: "run the settlement now" });
    expect(await statusOf()).toBe("pending");
    const ran = await sendChecked(portal().core(), kofi, post(kofi));
    expect(ran.status).toBe(302);
    expect(ran.headers.get("Location")).toBe("/money/settlement-history");
    expect(await statusOf()).toBe("paid");
  });

  it("a send that is not the page's form is refused on the page, by the run button, and nothing runs", async () => {
    const kofi = await signedInCookie(portal());
    const db = await portal().db();
    const before = await count(db, "SELECT COUNT(*) AS n FROM payout_attempts");
    const refused = await portal().fetch("/money/settlement-history", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", ...kofi },
      body: JSON.stringify({ intent: "run" }),
    });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(/<form[^>]*method="post"[\s\S]*Run settlement now[\s\S]*role="alert"[^>]*>What was sent is not one of this page/);
    expect(await count(db, "SELECT COUNT(*) AS n FROM payout_attempts")).toBe(before);
  });
});

describe("a business with more than 500 merchants", () => {
  const portal = usePortal();
  const MERCHANT = "mer_test_beyond_500";
  const SETTLEMENT = "stl_test_beyond_500";
  const REFERENCE = "STL-ZZT-0001-20990101";
  const NAME = "Zongo Ɔkɔdeɛ Traders 🍍";
  const NOW = "2026-11-01T09:00:00.000Z";
  const history = async (query: string) => {
    const response = await portal().fetch(`/money/settlement-history${query}`, { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(200);
    return textOf(await response.text());
  };

  beforeAll(async () => {
    const db = await portal().db();
    // 520 merchants whose names sort before every other one, then one whose settlement is the newest.
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 520)
         INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
           created_at, updated_at)
         SELECT 'mer_test_bulk_' || printf('%04d', i), ?1, 'BLK-' || printf('%04d', i), 'Aa Bulk Merchant ' || printf('%04d', i), 'Aa Bulk Merchant',
           'Q77' || printf('%08d', i), 'Retail', 'Kumasi', 'Ashanti', 'Adum', 'Kwame Bulk', '233244000111', 'bulk@example.com', ?2, ?2 FROM n`,
      )
      .bind(KUMASI, NOW)
      .run();
    await db.batch([
      db
        .prepare(
          `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
             created_at, updated_at)
           VALUES (?, ?, 'ZZT-0001', ?, ?, 'Q7800000001', 'Retail', 'Kumasi', 'Ashanti', 'Zongo Junction', 'Ɛfua Ŋkansah', '233244000222', 'zongo@example.com',
             ?, ?)`,
        )
        .bind(MERCHANT, KUMASI, NAME, NAME, NOW, NOW),
      db
        .prepare(
          `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, is_primary, created_at, updated_at)
           VALUES ('sa_test_beyond_500', ?, ?, 'bank', 'GCB Bank', '1021300777', ?, 1, ?, ?)`,
        )
        .bind(KUMASI, MERCHANT, NAME, NOW, NOW),
      db
        .prepare(
          `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference,
             created_at)
           VALUES (?, ?, ?, 'sa_test_beyond_500', ?, ?, 10000, 175, 9825, 'pending', ?, ?)`,
        )
        .bind(SETTLEMENT, KUMASI, MERCHANT, Date.UTC(2099, 0, 1), Date.UTC(2099, 0, 2), REFERENCE, NOW),
    ]);
  });

  it("names the merchant of a settlement beyond the first 500 by name, in the list and in the detail", async () => {
    const list = await history("");
    expect(list).toContain(`${REFERENCE} ${NAME} GCB Bank 1021300777`);
    expect(list).not.toContain("Unknown merchant");
    const detail = await history(`?s=${SETTLEMENT}`);
    expect(detail).toContain(`Merchant ${NAME} Settlement account GCB Bank 1021300777`);
  });

  it("finds that merchant's settlements by typing part of its name or its code", async () => {
    const other = await (
      await portal().db()
    )
      .prepare("SELECT reference FROM settlements WHERE business_id = ? AND merchant_id <> ? ORDER BY period_start DESC, id DESC LIMIT 1")
      .bind(KUMASI, MERCHANT)
      .first<string>("reference");
    expect(other).toBeTruthy();
    expect(await history("")).toContain(other!);
    for (const typed of ["Ɔkɔdeɛ", "zongo", "ZZT-0001", "zzt-0001"]) {
      const found = await history(`?q=${encodeURIComponent(typed)}`);
      expect(found, typed).toContain(REFERENCE);
      expect(found, typed).not.toContain(other!);
    }
    const none = await history(`?q=${encodeURIComponent("No such merchant")}`);
    expect(none).not.toContain(REFERENCE);
    expect(none).toContain("No settlements");
  });
});
