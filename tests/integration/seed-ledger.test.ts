// The seeded database is consistent with itself: double entry that balances,
// merchant balances that are what the payments imply, rollups that are a GROUP
// BY over the payments, settlements that pay cleared money once, and the
// pending approval requests of every kind. Checked with SQL over the tiny
// database the other tests use (anchored today) and a demo one (fixed anchor).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLEARING_DAYS, ledgerAccountId, merchantBalance } from "#server/ledger/ledger";
import { migrateLocal, seedLocal } from "../../scripts/seed/local";
import { startPortal, type Portal } from "../support/portal";
import { expectAccountSumsMatchEntries } from "../support/ledger";
import { TEMPLATE_STATE } from "../support/state";

const DAY_MS = 24 * 60 * 60 * 1000;

interface Case {
  name: string;
  prepare: () => Promise<{ template: string; cleanup?: () => void }>;
}

const CASES: Case[] = [
  { name: "tiny (the tests' database)", prepare: async () => ({ template: TEMPLATE_STATE }) },
  {
    name: "demo",
    prepare: async () => {
      const dir = mkdtempSync(join(tmpdir(), "pp-seed-ledger-"));
      await migrateLocal(dir);
      await seedLocal("demo", dir, { anchor: Date.UTC(2026, 7, 1) });
      return { template: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];

async function rows<T>(db: D1Database, sql: string, ...binds: unknown[]): Promise<T[]> {
  return (
    await db
      .prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

describe.each(CASES)("the seeded ledger: $name", ({ prepare }) => {
  let portal: Portal;
  let cleanup: (() => void) | undefined;
  let db: D1Database;

  beforeAll(async () => {
    const prepared = await prepare();
    cleanup = prepared.cleanup;
    portal = await startPortal({ template: prepared.template });
    db = await portal.db();
  }, 120_000);
  afterAll(async () => {
    await portal?.dispose();
    cleanup?.();
  });

  it("has payments, postings and settlements to check", async () => {
    const counts = await rows<{ transactions: number; entries: number; settlements: number }>(
      db,
      "SELECT (SELECT COUNT(*) FROM transactions) AS transactions, (SELECT COUNT(*) FROM ledger_entries) AS entries, (SELECT COUNT(*) FROM settlements) AS settlements",
    );
    expect(counts[0]?.transactions).toBeGreaterThanOrEqual(500);
    expect(counts[0]?.entries).toBeGreaterThan(counts[0]?.transactions ?? 0);
    expect(counts[0]?.settlements).toBeGreaterThan(0);
  });

  it("every posting sums to zero, at one instant, in one business; so does the whole ledger", async () => {
    const bad = await rows(
      db,
      `SELECT posting_id, SUM(amount) AS total, COUNT(*) AS lines FROM ledger_entries GROUP BY posting_id
       HAVING total <> 0 OR lines < 2 OR COUNT(DISTINCT posted_at) <> 1 OR COUNT(DISTINCT business_id) <> 1 LIMIT 5`,
    );
    expect(bad).toEqual([]);
    expect(await db.prepare("SELECT SUM(amount) AS total FROM ledger_entries").first("total")).toBe(0);
    expect(await rows(db, "SELECT business_id, SUM(amount) AS total FROM ledger_entries GROUP BY business_id HAVING total <> 0")).toEqual([]);
    expect(
      await db
        .prepare("SELECT COUNT(*) AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.business_id <> e.business_id")
        .first("n"),
    ).toBe(0);
  });

  it("each account's running sum, which balances are read from, is the sum of its entries", async () => {
    await expectAccountSumsMatchEntries(db);
  });

  it("posts gross, fee and net for each payment, clears it after 1 day (mobile money) or 3 (card), reverses it before", async () => {
    const facts = await rows<{
      id: number;
      status: string;
      channel: "card" | "mobile_money";
      amount: number;
      fee: number;
      created_at: number;
      cleared_at: number | null;
      lines: number;
      scheme: number;
      pending: number;
      fee_revenue: number;
      later_scheme: number;
      later_pending: number;
      later_available: number;
      later_at: number | null;
    }>(
      db,
      `SELECT t.id, t.status, t.channel, t.amount, t.fee, t.created_at, t.cleared_at, COUNT(e.id) AS lines,
         TOTAL(CASE WHEN e.posted_at = t.created_at AND a.kind = 'scheme_receivable' THEN e.amount END) AS scheme,
         TOTAL(CASE WHEN e.posted_at = t.created_at AND a.kind = 'merchant_pending' AND a.merchant_id = t.merchant_id THEN e.amount END) AS pending,
         TOTAL(CASE WHEN e.posted_at = t.created_at AND a.kind = 'fee_revenue' THEN e.amount END) AS fee_revenue,
         TOTAL(CASE WHEN e.posted_at > t.created_at AND a.kind = 'scheme_receivable' THEN e.amount END) AS later_scheme,
         TOTAL(CASE WHEN e.posted_at > t.created_at AND a.kind = 'merchant_pending' AND a.merchant_id = t.merchant_id THEN e.amount END) AS later_pending,
         TOTAL(CASE WHEN e.posted_at > t.created_at AND a.kind = 'merchant_available' AND a.merchant_id = t.merchant_id THEN e.amount END) AS later_available,
         MIN(CASE WHEN e.posted_at > t.created_at THEN e.posted_at END) AS later_at
       FROM transactions t
       LEFT JOIN ledger_entries e ON e.transaction_id = t.id AND e.posting_id NOT LIKE 'pst\\_dsp\\_%' ESCAPE '\\'
       LEFT JOIN ledger_accounts a ON a.id = e.account_id
       GROUP BY t.id`,
    );
    const wrong = facts.filter((t) => {
      const net = t.amount - t.fee;
      if (t.status === "failed") return t.lines !== 0;
      const paid = t.scheme === t.amount && t.pending === -net && t.fee_revenue === -t.fee;
      if (!paid) return true;
      if (t.status === "reversed") {
        // Reversed while still pending: the scheme gives the gross back, the pending net and the fee are undone.
        return (
          t.later_scheme !== -t.amount ||
          t.later_pending !== net ||
          t.later_available !== 0 ||
          (t.later_at ?? 0) >= t.created_at + CLEARING_DAYS[t.channel] * DAY_MS
        );
      }
      if (t.cleared_at === null) return t.lines !== 3;
      return (
        t.cleared_at !== t.created_at + CLEARING_DAYS[t.channel] * DAY_MS ||
        t.later_at !== t.cleared_at ||
        t.later_pending !== net ||
        t.later_available !== -net
      );
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(new Set(facts.map((t) => t.status))).toEqual(new Set(["successful", "failed", "reversed"]));
  });

  it("holds each open dispute's amount from its merchant's available money, in one posting when it was opened", async () => {
    const disputes = await rows<{
      id: string;
      amount: number;
      opened_at: number;
      status: string;
      payment_status: string;
      lines: number;
      available: number;
      held: number;
      at: number;
    }>(
      db,
      `SELECT d.id, d.amount, d.opened_at, d.status, t.status AS payment_status, COUNT(e.id) AS lines,
         TOTAL(CASE WHEN a.kind = 'merchant_available' AND a.merchant_id = d.merchant_id THEN e.amount END) AS available,
         TOTAL(CASE WHEN a.kind = 'merchant_held' AND a.merchant_id = d.merchant_id THEN e.amount END) AS held, MIN(e.posted_at) AS at
       FROM disputes d JOIN transactions t ON t.id = d.transaction_id AND t.business_id = d.business_id
       LEFT JOIN ledger_entries e ON e.posting_id = 'pst_' || d.id || '_hold'
       LEFT JOIN ledger_accounts a ON a.id = e.account_id
       GROUP BY d.id`,
    );
    for (const d of disputes) {
      expect(d).toMatchObject({ status: "open", payment_status: "successful", lines: 2, available: d.amount, held: -d.amount, at: d.opened_at });
    }
  });

  it("each merchant's pending and available balances are what its payments and settlements imply", async () => {
    const sums = new Map(
      (await rows<{ account_id: string; total: number }>(db, "SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id")).map((r) => [
        r.account_id,
        r.total,
      ]),
    );
    const expected = await rows<{ id: string; business_id: string; pending: number; available: number; held: number }>(
      db,
      `SELECT m.id, m.business_id,
         TOTAL(CASE WHEN t.status = 'successful' AND t.cleared_at IS NULL THEN t.amount - t.fee END) AS pending,
         TOTAL(CASE WHEN t.status = 'successful' AND t.cleared_at IS NOT NULL AND i.transaction_id IS NULL THEN t.amount - t.fee END)
           - (SELECT TOTAL(amount) FROM disputes d WHERE d.merchant_id = m.id AND d.status = 'open') AS available,
         (SELECT TOTAL(amount) FROM disputes d WHERE d.merchant_id = m.id AND d.status = 'open') AS held
       FROM merchants m
       LEFT JOIN transactions t ON t.merchant_id = m.id
       LEFT JOIN settlement_items i ON i.transaction_id = t.id
       GROUP BY m.id`,
    );
    expect(expected.length).toBeGreaterThan(0);
    const actual = expected.map((m) => ({
      id: m.id,
      pending: merchantBalance(sums.get(ledgerAccountId(m.business_id, { kind: "merchant_pending", merchantId: m.id })) ?? 0),
      available: merchantBalance(sums.get(ledgerAccountId(m.business_id, { kind: "merchant_available", merchantId: m.id })) ?? 0),
      held: merchantBalance(sums.get(ledgerAccountId(m.business_id, { kind: "merchant_held", merchantId: m.id })) ?? 0),
    }));
    expect(actual).toEqual(expected.map(({ id, pending, available, held }) => ({ id, pending, available, held })));
    expect(actual.some((m) => m.pending > 0)).toBe(true);
    expect(actual.some((m) => m.available > 0)).toBe(true);

    // The business-level accounts: the schemes owe the gross, the fees are earned, the payouts are in flight.
    const businesses = await rows<{ id: string; gross: number; fees: number; paid_out: number }>(
      db,
      `SELECT b.id,
         (SELECT TOTAL(amount) FROM transactions WHERE business_id = b.id AND status = 'successful') AS gross,
         (SELECT TOTAL(fee) FROM transactions WHERE business_id = b.id AND status = 'successful') AS fees,
         (SELECT TOTAL(net) FROM settlements WHERE business_id = b.id) AS paid_out
       FROM businesses b`,
    );
    for (const b of businesses) {
      expect(sums.get(ledgerAccountId(b.id, { kind: "scheme_receivable" })) ?? 0).toBe(b.gross);
      expect(sums.get(ledgerAccountId(b.id, { kind: "fee_revenue" })) ?? 0).toBe(-b.fees);
      expect(sums.get(ledgerAccountId(b.id, { kind: "settlement_payable" })) ?? 0).toBe(-b.paid_out);
    }
  });

  it("settles cleared money once, per merchant and day, to the merchant's own account", async () => {
    const bad = await rows(
      db,
      `WITH items AS (
         SELECT i.settlement_id, TOTAL(t.amount) AS gross, TOTAL(t.fee) AS fees,
           TOTAL(t.merchant_id <> s.merchant_id OR t.status <> 'successful' OR t.cleared_at IS NULL
                 OR t.cleared_at < s.period_start OR t.cleared_at >= s.period_end) AS misfits
         FROM settlement_items i JOIN transactions t ON t.id = i.transaction_id JOIN settlements s ON s.id = i.settlement_id
         GROUP BY i.settlement_id),
       paid AS (
         SELECT e.settlement_id, TOTAL(e.amount) AS available
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN settlements s ON s.id = e.settlement_id
         WHERE a.kind = 'merchant_available' AND a.merchant_id = s.merchant_id
         GROUP BY e.settlement_id)
       SELECT s.id FROM settlements s
       JOIN settlement_accounts sa ON sa.id = s.settlement_account_id
       LEFT JOIN items ON items.settlement_id = s.id
       LEFT JOIN paid ON paid.settlement_id = s.id
       WHERE sa.merchant_id <> s.merchant_id OR s.net <> s.gross - s.fees OR items.settlement_id IS NULL
         OR items.gross <> s.gross OR items.fees <> s.fees OR items.misfits > 0 OR coalesce(paid.available, 0) <> s.net
       LIMIT 5`,
    );
    expect(bad).toEqual([]);
  });

  it("has per-merchant daily totals equal to a GROUP BY over the rollups", async () => {
    const grouped = `SELECT business_id, day, merchant_id, status, SUM(count), SUM(amount), SUM(fee) FROM daily_rollups GROUP BY business_id, day, merchant_id, status`;
    const totals = `SELECT business_id, day, merchant_id, status, count, amount, fee FROM daily_merchant_totals`;
    expect(await rows(db, `${grouped} EXCEPT ${totals} LIMIT 5`)).toEqual([]);
    expect(await rows(db, `${totals} EXCEPT ${grouped} LIMIT 5`)).toEqual([]);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM daily_merchant_totals").first("n")).toBeGreaterThan(0);
  });

  it("has daily rollups equal to a GROUP BY over the transactions", async () => {
    const grouped = `SELECT business_id, strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, merchant_id, point_of_sale_id,
        coalesce(terminal_id, '') AS terminal_id, channel, network, status, COUNT(*) AS count, SUM(amount) AS amount, SUM(fee) AS fee
      FROM transactions GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;
    const rollups = `SELECT business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status, count, amount, fee FROM daily_rollups`;
    expect(await rows(db, `${grouped} EXCEPT ${rollups} LIMIT 5`)).toEqual([]);
    expect(await rows(db, `${rollups} EXCEPT ${grouped} LIMIT 5`)).toEqual([]);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM daily_rollups").first("n")).toBe(await db.prepare(`SELECT COUNT(*) AS n FROM (${grouped})`).first("n"));
  });

  it("has pending approval requests of every kind in Kumasi Fresh Foods, made by the right people, against current versions", async () => {
    const requests = await rows<{ kind: string; action: string; maker: string; checker_id: string | null }>(
      db,
      `SELECT r.kind, r.action, u.email AS maker, r.checker_id FROM approval_requests r
       JOIN users u ON u.id = r.maker_id JOIN businesses b ON b.id = r.business_id
       WHERE b.name = 'Kumasi Fresh Foods' AND r.status = 'pending' ORDER BY r.kind, r.action`,
    );
    // The demo data also has the refund the API examples read, waiting for approval (scripts/seed/api-examples.ts).
    const refunds = await rows(db, "SELECT id FROM refunds WHERE status = 'pending_approval'");
    expect(new Set(requests.map((r) => r.kind))).toEqual(
      new Set(["employee", "merchant", "point_of_sale", "settlement_account", ...(refunds.length > 0 ? ["refund"] : [])]),
    );
    for (const r of requests) {
      expect(r.maker).toBe(r.kind === "employee" ? "ama.mensah@example.com" : "esi.owusu@example.com");
      expect(r.checker_id).toBeNull();
    }
    expect(new Set(requests.filter((r) => r.maker === "esi.owusu@example.com").map((r) => r.action))).toEqual(new Set(["create", "update", "deactivate"]));

    // Updates and deactivations name an existing row at its current version; creates name a free id.
    const targets = await rows<{ id: string; action: string; version: number | null; target_version: number | null }>(
      db,
      `SELECT r.id, r.action, r.target_version,
         CASE r.kind
           WHEN 'merchant' THEN (SELECT version FROM merchants WHERE id = r.target_id AND business_id = r.business_id)
           WHEN 'point_of_sale' THEN (SELECT version FROM points_of_sale WHERE id = r.target_id AND business_id = r.business_id)
           WHEN 'settlement_account' THEN (SELECT version FROM settlement_accounts WHERE id = r.target_id AND business_id = r.business_id)
           WHEN 'employee' THEN (SELECT version FROM memberships WHERE user_id = r.target_id AND business_id = r.business_id)
         END AS version
       FROM approval_requests r WHERE r.status = 'pending'`,
    );
    for (const t of targets) expect(t.version).toBe(t.action === "create" ? null : t.target_version);
  });
});
