// No list or report query of the screens reads a large table whole: each is
// checked with EXPLAIN QUERY PLAN on the exact SQL and bindings the data layer
// sends. (Timings are for scripts/bench/queries.ts, never for tests.)
import { describe, expect, it } from "vitest";
import { API_LIST_CATALOGUE, CATALOGUE, planOf, recordingDb, type Recorded, type Sample } from "../../scripts/bench/query-catalogue";
import { listTransactions, transactionTotals } from "#server/payments/transactions.db";
import { useSharedPortal } from "../support/shared-portal";
import { AMA_KUMASI } from "../support/tenants";

// Reads the seed only (sessions of its own aside): the worker's shared portal.
const portal = useSharedPortal();

// Plans do not depend on which rows exist; any well-formed sample will do.
const SAMPLE: Sample = {
  merchantId: "mer_sample",
  pointOfSaleId: "pos_sample",
  terminalId: "trm_sample",
  transactionId: 1,
  reference: "REF-SAMPLE",
  msisdn: "233244123456",
  last4: "4821",
  newest: Date.UTC(2026, 10, 20),
};

describe("query plans", () => {
  it.each(CATALOGUE)("%s: no whole-table read", async (_name, run) => {
    // The plans are SQLite's on the database that holds the business (the schema is the same on every one).
    const db = portal().businessDb(AMA_KUMASI.businessId);
    const recorded: Recorded[] = [];
    await run({ ...AMA_KUMASI, db: recordingDb(db, recorded) }, SAMPLE);
    expect(recorded.length).toBeGreaterThan(0);
    for (const statement of recorded) {
      // Tenancy: every statement binds the business, even when it reads rows reached through a scoped one.
      expect(statement.binds, statement.sql).toContain(AMA_KUMASI.businessId);
      const verdict = await planOf(db, statement);
      expect(verdict.scans, `${statement.sql}\n  plan: ${verdict.plan.join(" / ")}`).toEqual([]);
    }
  });

  // The Partner API's lists page by keyset: a page must come off an index in the list's order, or every row the filter
  // has would be read and sorted to give 25 of them (decision 044).
  it.each(API_LIST_CATALOGUE)("%s: read in order off an index, no sort", async (_name, run) => {
    const db = portal().businessDb(AMA_KUMASI.businessId);
    const recorded: Recorded[] = [];
    await run({ ...AMA_KUMASI, db: recordingDb(db, recorded) }, SAMPLE);
    expect(recorded).toHaveLength(1);
    const [statement] = recorded;
    expect(statement!.binds[0], "the business is bound first").toBe(AMA_KUMASI.businessId);
    const { plan } = await planOf(db, statement!);
    expect(plan.join(" / ")).not.toMatch(/TEMP B-TREE|SCAN/);
    expect(
      plan.some((line) => /^SEARCH \w+ USING (COVERING )?INDEX \w+ \(business_id=\?/.test(line)),
      plan.join(" / "),
    ).toBe(true);
  });

  // A word no merchant's name has read a month of payments by time, row by row, to find none (decision 020).
  it("a search by a word reads payments by merchant and by reference, never a range of days", async () => {
    const db = portal().businessDb(AMA_KUMASI.businessId);
    const recorded: Recorded[] = [];
    const tenant = { ...AMA_KUMASI, db: recordingDb(db, recorded) };
    const filter = { merchantSearch: "NO-SUCH-REF", from: SAMPLE.newest - 30 * 86_400_000 };
    await listTransactions(tenant, filter);
    await transactionTotals(tenant, filter);
    expect(recorded).toHaveLength(2);
    for (const statement of recorded) {
      const { plan } = await planOf(db, statement);
      const reads = plan.filter((detail) => /^SEARCH transactions /.test(detail));
      expect(reads.join(" / ")).toMatch(/transactions_by_merchant/);
      expect(reads.join(" / ")).toMatch(/sqlite_autoindex_transactions_1 \(business_id=\? AND reference=\?\)/);
      expect(reads.join(" / ")).not.toMatch(/transactions_by_time/);
    }
  });

  // An amount or a reference's tail had no index: either search read every payment of the period to find a few.
  it.each([
    ["a reference's tail", { referenceTail: "0000487" }, /transactions_by_reference_tail \(business_id=\? AND <expr>=\? AND created_at>\?\)/],
    ["an amount", { amount: 2_500 }, /transactions_by_amount \(business_id=\? AND amount=\? AND created_at>\?\)/],
    ["a card's last four", { cardLast4: "4821" }, /transactions_by_last4 \(business_id=\? AND card_last4=\? AND created_at>\?\)/],
    ["a phone", { customerMsisdn: "233244123456" }, /transactions_by_msisdn \(business_id=\? AND customer_msisdn=\? AND created_at>\?\)/],
    ["a phone's last four", { phoneLast4: "3456" }, /transactions_by_msisdn_tail \(business_id=\? AND <expr>=\? AND created_at>\?\)/],
  ] as const)("a search by %s reads its own index within the period, never a range of days", async (_name, search, index) => {
    const db = portal().businessDb(AMA_KUMASI.businessId);
    const recorded: Recorded[] = [];
    const tenant = { ...AMA_KUMASI, db: recordingDb(db, recorded) };
    const filter = { ...search, from: SAMPLE.newest - 30 * 86_400_000 };
    await listTransactions(tenant, filter);
    await transactionTotals(tenant, filter);
    expect(recorded).toHaveLength(2);
    for (const statement of recorded) {
      const reads = (await planOf(db, statement)).plan.filter((detail) => /^(SEARCH|SCAN) transactions /.test(detail));
      expect(reads.join(" / ")).toMatch(index);
      expect(reads.join(" / ")).not.toMatch(/transactions_by_time|SCAN/);
    }
  });

  // Four digits are a card's or a phone's last four, a reference's tail and an amount at once: four reads, each by its index.
  it("a search by four digits reads four indexes, never a range of days", async () => {
    const db = portal().businessDb(AMA_KUMASI.businessId);
    const recorded: Recorded[] = [];
    const tenant = { ...AMA_KUMASI, db: recordingDb(db, recorded) };
    const filter = { cardLast4: "4821", phoneLast4: "4821", referenceTail: "4821", amount: 482_100, from: SAMPLE.newest - 30 * 86_400_000 };
    await listTransactions(tenant, filter);
    await transactionTotals(tenant, filter);
    for (const statement of recorded) {
      const reads = (await planOf(db, statement)).plan.filter((detail) => /^(SEARCH|SCAN) transactions /.test(detail)).join(" / ");
      for (const index of ["transactions_by_last4", "transactions_by_msisdn_tail", "transactions_by_reference_tail", "transactions_by_amount"])
        expect(reads).toContain(index);
      expect(reads).not.toMatch(/transactions_by_time|SCAN/);
    }
  });

  it.each([
    ["an unindexed filter", "SELECT id FROM transactions WHERE amount > ?", [100]],
    ["an aliased unindexed filter", "SELECT r.id FROM approval_requests r WHERE r.reason = ?", ["x"]],
    ["a join that walks a large table", "SELECT m.id FROM businesses b JOIN merchants m ON m.contact_name = b.name WHERE b.id = ?", ["b"]],
  ])("the checker does catch %s", async (_name, sql, binds) => {
    const db = await portal().db();
    expect((await planOf(db, { sql, binds })).scans.length).toBeGreaterThan(0);
  });
});
