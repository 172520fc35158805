// Runtime clearing against real D1 in workerd: the 5-minute Cron Trigger moves each due payment's net from the
// merchant's pending balance to its available one, once, even when two runs race; failed, reversed and not-yet-due
// payments stay as they are; the daily Cron Trigger clears first, so its settlement pays what just cleared.
import { describe, expect, it } from "vitest";
import { clearDuePayments } from "#server/ledger/clearing";
import { postingStatements } from "#server/ledger/ledger.db";
import { clearsAt, ledgerAccountId, merchantBalance, paymentPosting, transactionFee, type Channel } from "#server/ledger/ledger";
import { settlementPeriodFor } from "#server/settlement/run";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { ACCRA, businessDatabase, businessOf, KOFI_KUMASI, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface Made {
  id: number;
  reference: string;
  channel: Channel;
  amount: number;
  fee: number;
  createdAt: number;
}

async function pointOfSale(db: D1Database): Promise<{ id: string; merchant_id: string }> {
  // A merchant with a primary settlement account, so the daily run can pay it.
  return (await db
    .prepare(
      `SELECT p.id, p.merchant_id FROM points_of_sale p
       JOIN settlement_accounts a ON a.merchant_id = p.merchant_id AND a.is_primary = 1 AND a.status = 'active'
       WHERE p.business_id = ? AND p.status = 'active' ORDER BY p.id LIMIT 1`,
    )
    .bind(KUMASI)
    .first<{ id: string; merchant_id: string }>())!;
}

/** A payment as the payment flow writes it: the row, and (unless it failed) its posting to the merchant's pending account. */
async function pay(db: D1Database, reference: string, channel: Channel, status: string, createdAt: number, amount = 25_000): Promise<Made> {
  const pos = await pointOfSale(db);
  const fee = transactionFee(channel, amount);
  const row = await db
    .prepare(
      `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, channel, network, amount, fee, status, card_bin, card_last4, customer_msisdn, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(
      KUMASI,
      reference,
      pos.merchant_id,
      pos.id,
      channel,
      channel === "card" ? "VISA" : "MTN",
      amount,
      fee,
      status,
      channel === "card" ? "492012" : null,
      channel === "card" ? "4321" : null,
      channel === "card" ? null : "233240000002",
      createdAt,
    )
    .first<{ id: number }>();
  const made = { id: row!.id, reference, channel, amount, fee, createdAt };
  if (status !== "failed") {
    await db.batch(
      postingStatements(KOFI_KUMASI, paymentPosting({ merchantId: pos.merchant_id, amount, fee }), {
        postingId: `txn_${made.id}_payment`,
        memo: `Payment ${reference}`,
        postedAt: createdAt,
        transactionId: made.id,
      }),
    );
  }
  return made;
}

async function clearedAt(db: D1Database, id: number): Promise<number | null> {
  return (await db.prepare("SELECT cleared_at FROM transactions WHERE business_id = ? AND id = ?").bind(KUMASI, id).first<number | null>("cleared_at")) ?? null;
}

/** The merchant's pending and available balances, from the running sums, after checking they agree with the entries. */
async function balances(db: D1Database, merchantId: string): Promise<{ pending: number; available: number }> {
  await expectAccountSumsMatchEntries(businessDatabase(KUMASI));
  const sum = async (kind: "merchant_pending" | "merchant_available") =>
    merchantBalance(
      (await db
        .prepare("SELECT entry_sum FROM ledger_accounts WHERE business_id = ? AND id = ?")
        .bind(KUMASI, ledgerAccountId(KUMASI, { kind, merchantId }))
        .first<number>("entry_sum")) ?? 0,
    );
  return { pending: await sum("merchant_pending"), available: await sum("merchant_available") };
}

/** Payments with more or fewer than one clearing posting of two lines. */
async function clearedTwice(db: D1Database): Promise<unknown[]> {
  return (
    await db
      .prepare(
        `SELECT t.id, (SELECT COUNT(*) FROM ledger_entries e WHERE e.business_id = t.business_id AND e.transaction_id = t.id AND e.posting_id = 'txn_' || t.id || '_clearing') AS lines
         FROM transactions t WHERE t.business_id = ? AND lines <> CASE WHEN t.cleared_at IS NULL THEN 0 ELSE 2 END`,
      )
      .bind(KUMASI)
      .all()
  ).results;
}

describe("the 5-minute Cron Trigger clears what is due", () => {
  const portal = usePortal();

  it("clears due card and mobile money payments at their clearing time, and nothing else", async () => {
    const db = await portal().db();
    const now = Date.now();
    const { merchant_id: merchantId } = await pointOfSale(db);
    const momoDue = await pay(db, "CLR-MOMO-DUE", "mobile_money", "successful", now - DAY - 60_000);
    const cardDue = await pay(db, "CLR-CARD-DUE", "card", "successful", now - 3 * DAY - 60_000);
    const cardNotYet = await pay(db, "CLR-CARD-NOT-YET", "card", "successful", now - 2 * DAY);
    const momoNotYet = await pay(db, "CLR-MOMO-NOT-YET", "mobile_money", "successful", now - 23 * HOUR);
    const failed = await pay(db, "CLR-FAILED", "mobile_money", "failed", now - 2 * DAY);
    const reversed = await pay(db, "CLR-REVERSED", "mobile_money", "reversed", now - 2 * DAY);
    // The seed's own payments falling due since the template was made clear too: the balances must move by all of them.
    const seededDue = (await db
      .prepare(
        `SELECT coalesce(SUM(amount - fee), 0) AS net FROM transactions
           WHERE business_id = ? AND merchant_id = ? AND status = 'successful' AND cleared_at IS NULL AND reference NOT LIKE 'CLR-%'
             AND created_at <= ? - CASE channel WHEN 'card' THEN 3 ELSE 1 END * ?`,
      )
      .bind(KUMASI, merchantId, now, DAY)
      .first<number>("net"))!;
    const before = await balances(db, merchantId);

    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    await expect.poll(() => clearedAt(db, cardDue.id), { timeout: 10_000 }).toBe(clearsAt("card", cardDue.createdAt));
    expect(await clearedAt(db, momoDue.id)).toBe(clearsAt("mobile_money", momoDue.createdAt));
    for (const payment of [cardNotYet, momoNotYet, failed, reversed]) expect(await clearedAt(db, payment.id), payment.reference).toBeNull();

    const moved = momoDue.amount - momoDue.fee + (cardDue.amount - cardDue.fee) + seededDue;
    const after = await balances(db, merchantId);
    expect(after).toEqual({ pending: before.pending - moved, available: before.available + moved });
    // The posting names its payment, like the seed's.
    const lines = await db
      .prepare(
        "SELECT posting_id AS postingId, memo, posted_at AS postedAt FROM ledger_entries WHERE business_id = ? AND transaction_id = ? AND posting_id LIKE '%_clearing'",
      )
      .bind(KUMASI, cardDue.id)
      .all<{ postingId: string; memo: string; postedAt: number }>();
    expect(lines.results).toEqual(
      Array.from({ length: 2 }, () => ({
        postingId: `txn_${cardDue.id}_clearing`,
        memo: "Cleared CLR-CARD-DUE",
        postedAt: clearsAt("card", cardDue.createdAt),
      })),
    );
    expect(await clearedTwice(db)).toEqual([]);
  });

  it("never clears a payment twice, run after run or two runs at once", async () => {
    const db = await portal().db();
    const now = Date.now();
    const { merchant_id: merchantId } = await pointOfSale(db);
    const made: Made[] = [];
    for (let i = 0; i < 24; i++)
      made.push(await pay(db, `CLR-RACE-${i}`, i % 2 ? "card" : "mobile_money", "successful", now - 4 * DAY + i * 60_000, 1_000 + i));
    const before = await balances(db, merchantId);
    // Small batches, so the two runs interleave and meet each other's payments.
    const [a, b] = await Promise.all([
      clearDuePayments([businessOf(KUMASI), businessOf(ACCRA)], now, 5),
      clearDuePayments([businessOf(KUMASI), businessOf(ACCRA)], now, 5),
    ]);
    expect(a.cleared + b.cleared).toBe(made.length);
    const again = await clearDuePayments([businessOf(KUMASI), businessOf(ACCRA)], now);
    expect(again.cleared).toBe(0);
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");

    for (const payment of made) expect(await clearedAt(db, payment.id)).toBe(clearsAt(payment.channel, payment.createdAt));
    const moved = made.reduce((n, p) => n + p.amount - p.fee, 0);
    expect(await balances(db, merchantId)).toEqual({ pending: before.pending - moved, available: before.available + moved });
    expect(await clearedTwice(db)).toEqual([]);
    expect((await db.prepare("SELECT COUNT(*) AS n FROM batch_guards").first<number>("n")) ?? 0).toBe(0);
  });
});

describe("the daily Cron Trigger clears, then settles", () => {
  const portal = usePortal();

  it("pays yesterday's clearings that no 5-minute run made", async () => {
    const db = await portal().db();
    const now = Date.now();
    const period = settlementPeriodFor(now);
    // Mobile money made two hours into the day before yesterday cleared two hours into yesterday.
    const payment = await pay(db, "CLR-DAILY-1", "mobile_money", "successful", period - DAY + 2 * HOUR, 48_000);
    expect(await clearedAt(db, payment.id)).toBeNull();

    expect(await portal().scheduled("0 6 * * *")).toBe("ok");
    await expect
      .poll(() => db.prepare("SELECT settlement_id FROM settlement_items WHERE transaction_id = ?").bind(payment.id).first<string>("settlement_id"), {
        timeout: 10_000,
      })
      .toMatch(/^stl_/);
    expect(await clearedAt(db, payment.id)).toBe(period + 2 * HOUR);
    const settlement = await db
      .prepare("SELECT s.period_start AS periodStart, s.gross FROM settlements s JOIN settlement_items i ON i.settlement_id = s.id WHERE i.transaction_id = ?")
      .bind(payment.id)
      .first<{ periodStart: number; gross: number }>();
    expect(settlement?.periodStart).toBe(period);
    expect(settlement?.gross).toBeGreaterThanOrEqual(48_000);
    expect(await clearedTwice(db)).toEqual([]);
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

describe("a broken setting the clearing does not read", () => {
  // The Partner API's rate limit is unreadable: requests fail on it, clearing reads no setting and goes on.
  const portal = usePortal({ vars: { API_RATE_LIMIT_PER_MINUTE: "lots" } });

  it("does not stop the 5-minute run from clearing what is due", async () => {
    const db = await portal().db();
    const due = await pay(db, "CLR-BROKEN-SETTING-1", "mobile_money", "successful", Date.now() - 2 * DAY);
    expect(await clearedAt(db, due.id)).toBeNull();
    await portal().scheduled("*/5 * * * *");
    await expect.poll(() => clearedAt(db, due.id), { timeout: 10_000 }).toBe(clearsAt("mobile_money", due.createdAt));
  });
});
