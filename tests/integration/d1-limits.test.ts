// Our data layer at D1's limits, on local workerd's D1, which enforces the 50-byte LIKE pattern, 100 bound
// parameters, 100 KB statements and 5 compound SELECTs as production does (decision 033). Each function that
// takes a list of ids is given more than 100 of them; every statement the screens' queries make is checked
// against all the limits, function arguments counted (tests/support/sql-limits.ts).
import { describe, expect, it } from "vitest";
import { CATALOGUE, recordingDb, type Recorded, type Sample } from "../../scripts/bench/query-catalogue";
import { archiveMonthsForReferences } from "#server/archive/archive.db";
import { findEmployees, pendingChangesFor } from "#server/team/employees.db";
import { findDisputes } from "#server/disputes/disputes.db";
import { searchEverything } from "#app/routes/search/search.server";
import { listMerchantFunds } from "#server/ledger/funds.db";
import { listMerchantBalances } from "#server/ledger/ledger.db";
import { listMerchants } from "#server/merchants/merchants.db";
import { namesOf } from "#server/lists/names.db";
import { encodeCursor } from "#server/lists/page";
import { findSettlements, listSettlements } from "#server/settlement/settlements.db";
import { listTerminals } from "#server/merchants/terminals.db";
import { listTransactions, transactionTotals } from "#server/payments/transactions.db";
import { limitProblems } from "../support/sql-limits";
import { AMA_KUMASI, KUMASI } from "../support/tenants";
import { useSharedPortal } from "../support/shared-portal";

// Reads the seed only (sessions of its own aside): the worker's shared portal.
const portal = useSharedPortal();

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

const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("lists of ids over D1's 100 bound parameters", () => {
  it("pending changes of 150 people (one JSON array, not a ? each)", async () => {
    const ids = many(150, "usr_nobody_");
    expect((await pendingChangesFor(AMA_KUMASI, ids)).size).toBe(0);
  });

  it("archived months for 150 reference hashes", async () => {
    expect(
      await archiveMonthsForReferences(
        AMA_KUMASI,
        Array.from({ length: 150 }, (_, i) => i + 1),
      ),
    ).toEqual([]);
  });

  it("names, balances and funds of 250 merchants, the real ones among them", async () => {
    const db = portal().businessDb(KUMASI);
    const real = (await db.prepare("SELECT id FROM merchants WHERE business_id = ? ORDER BY id LIMIT 3").bind(KUMASI).all<{ id: string }>()).results.map(
      (row) => row.id,
    );
    const ids = [...many(247, "mer_nobody_"), ...real];
    expect([...(await namesOf(AMA_KUMASI, "merchant", ids)).keys()].sort()).toEqual(real);
    expect(Object.keys(await listMerchantBalances(AMA_KUMASI, ids))).toHaveLength(250);
    const period = { fromDay: "2026-01-01", toDay: "2026-12-31", from: Date.UTC(2026, 0, 1), to: Date.UTC(2027, 0, 1) };
    expect(Object.keys(await listMerchantFunds(AMA_KUMASI, ids, period))).toHaveLength(250);
  });
});

describe("the searches at D1's 50-byte pattern limit", () => {
  // 24 Ghanaian letters are 48 bytes (a LIKE '%…%' of 50 bytes, allowed); 25 were refused.
  it.each([24, 25, 49, 50, 51, 2_000])("every search function answers a %i-letter search of Ɔ Ɛ Ŋ and ASCII", async (length) => {
    for (const typed of ["ƆƐŊ".repeat(length).slice(0, length), "k".repeat(length)]) {
      await expect(listMerchants(AMA_KUMASI, { search: typed })).resolves.toMatchObject({ rows: [] });
      await expect(listMerchants(AMA_KUMASI, { number: { plain: typed, phone: typed } })).resolves.toMatchObject({ rows: [] });
      await expect(listSettlements(AMA_KUMASI, { merchantSearch: typed })).resolves.toMatchObject({ rows: [] });
      await expect(listTerminals(AMA_KUMASI, { serial: typed })).resolves.toMatchObject({ rows: [] });
      await expect(listTransactions(AMA_KUMASI, { merchantSearch: typed })).resolves.toMatchObject({ rows: [] });
      await expect(transactionTotals(AMA_KUMASI, { merchantSearch: typed })).resolves.toBeTruthy();
      await expect(listTransactions(AMA_KUMASI, { referenceTail: typed })).resolves.toMatchObject({ rows: [] });
      await expect(transactionTotals(AMA_KUMASI, { referenceTail: typed })).resolves.toMatchObject({ count: 0 });
      await expect(findEmployees(AMA_KUMASI, { text: typed, phoneTail: "9".repeat(length), limit: 5 })).resolves.toEqual([]);
      await expect(findDisputes(AMA_KUMASI, typed, 5)).resolves.toEqual([]);
      await expect(findSettlements(AMA_KUMASI, typed, 5)).resolves.toEqual([]);
    }
  });

  // The top bar's search reads every kind at once: a pasted text of any length, letters, digits or an id, answers.
  it.each([24, 25, 49, 50, 51, 2_000])("the top bar's search answers a %i-character text of every kind", async (length) => {
    for (const typed of ["ƆƐŊ".repeat(length).slice(0, length), "k".repeat(length), "9".repeat(length), `stl_${"k".repeat(length)}`]) {
      await expect(searchEverything(AMA_KUMASI, typed)).resolves.toEqual({ q: typed, groups: [] });
    }
  });

  it.each([3, 4, 49, 50, 51, 2_000])("the transactions search answers a %i-digit reference's tail", async (length) => {
    const typed = "9".repeat(length);
    await expect(listTransactions(AMA_KUMASI, { referenceTail: typed })).resolves.toMatchObject({ rows: [] });
    await expect(transactionTotals(AMA_KUMASI, { referenceTail: typed })).resolves.toMatchObject({ count: 0 });
  });
});

describe("the widest transactions search", () => {
  const widest = {
    ...({ from: SAMPLE.newest - 30 * 86_400_000, to: SAMPLE.newest, status: "successful", channel: "card", network: "VISA" } as const),
    ...{ merchantId: SAMPLE.merchantId, pointOfSaleId: SAMPLE.pointOfSaleId, terminalId: SAMPLE.terminalId },
    merchantSearch: "ƆƐŊ".repeat(700),
    referenceTail: "9".repeat(2_000),
    customerMsisdn: SAMPLE.msisdn,
    amount: 2_500,
  };

  // Five ways to match (the search box makes at most four), every filter and a page's cursor.
  it("keeps its compound SELECTs, parameters and function arguments within D1's limits, and runs", async () => {
    const db = portal().businessDb(KUMASI);
    const recorded: Recorded[] = [];
    const tenant = { ...AMA_KUMASI, db: recordingDb(db, recorded) };
    expect((await listTransactions(tenant, widest)).rows).toEqual([]);
    await listTransactions(tenant, { ...widest, after: encodeCursor([SAMPLE.newest, 5]) });
    await transactionTotals(tenant, widest);
    expect(recorded.map((statement) => limitProblems(statement.sql, statement.binds))).toEqual([[], [], []]);
  });

  it("refuses a sixth way to match in words, before D1 would refuse it", async () => {
    await expect(listTransactions(AMA_KUMASI, { ...widest, cardLast4: SAMPLE.last4 })).rejects.toThrow("at most 5 ways at once, not 6");
  });
});

describe("every statement of the screens' queries", () => {
  it("stays within D1's limits, function arguments counted", async () => {
    const db = portal().businessDb(KUMASI);
    const recorded: Recorded[] = [];
    for (const [, run] of CATALOGUE) await run({ ...AMA_KUMASI, db: recordingDb(db, recorded) }, SAMPLE);
    expect(recorded.length).toBeGreaterThan(CATALOGUE.length);
    const problems = recorded.flatMap((statement) =>
      limitProblems(statement.sql, statement.binds).map((problem) => `${problem}: ${statement.sql.slice(0, 100)}`),
    );
    expect(problems).toEqual([]);
  });
});
