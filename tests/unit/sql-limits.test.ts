// Our SQL against production D1's limits (decision 033). Local workerd enforces the LIKE pattern, bound
// parameter, statement size and compound SELECT limits (tests/integration/d1-limits.test.ts runs our code at
// them) but allows 127 function arguments where D1 allows 32: those are counted in the SQL text here.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listTransactions, transactionTotals } from "#server/payments/transactions.db";
import type { Tenant } from "#server/tenancy/tenant";
import { compoundSelects, D1_LIMITS, functionCalls, limitProblems, stringLiterals } from "../support/sql-limits";

const root = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(relative);
    // The Worker's SQL: a test beside its module (x.test.ts) is no part of it, and may hold SQL (sql-home.test.ts).
    return /\.ts$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !entry.name.endsWith(".test.ts") ? [relative] : [];
  });
}

describe("functionCalls", () => {
  it("counts the top-level arguments of each SQL function, not commas in strings or nested calls", () => {
    const calls = functionCalls("SELECT json_object('a', 1, 'b,c', coalesce(x, 'y, z', max(p, q))) FROM t WHERE id IN (?, ?, ?)");
    expect(calls.map((call) => [call.name, call.args])).toEqual([
      ["max", 2],
      ["coalesce", 3],
      ["json_object", 4],
    ]);
    expect(functionCalls("SELECT count() FROM t")).toEqual([{ name: "count", args: 0, at: 12 }]);
  });

  it("finds a call over D1's 32 arguments, which local workerd would run", () => {
    const wide = `SELECT json_object(${Array.from({ length: 17 }, (_, i) => `'k${i}', c${i}`).join(", ")})`;
    expect(limitProblems(wide, [])).toEqual(["json_object() has 34 arguments"]);
    expect(limitProblems("SELECT a FROM t WHERE name LIKE ?", [])).toHaveLength(1);
    expect(compoundSelects("SELECT 1 UNION SELECT 2 UNION ALL SELECT 3 EXCEPT SELECT 4")).toBe(4);
  });
});

describe("the SQL text of functions/", () => {
  const literals = sourceFiles("functions").flatMap((file) => stringLiterals(readFileSync(path.join(root, file), "utf8")).map((text) => ({ file, text })));

  it("has no SQL function call over D1's 32 arguments", () => {
    expect(literals.length).toBeGreaterThan(200);
    const wide = literals.flatMap(({ file, text }) =>
      functionCalls(text)
        .filter((call) => call.args > D1_LIMITS.functionArguments)
        .map((call) => `${file}: ${call.name}() with ${call.args} arguments`),
    );
    expect(wide).toEqual([]);
    // The counter does see our calls (a check that finds nothing because it reads nothing proves nothing).
    expect(Math.max(...literals.flatMap(({ text }) => functionCalls(text).map((call) => call.args)))).toBeGreaterThan(2);
  });

  it("has no LIKE or GLOB (D1 refuses patterns over 50 bytes: searches go through functions/lists/search.ts)", () => {
    const likes = literals.filter(({ text }) => /\b(?:LIKE|GLOB)\s+(?:\?|'|\$\{)/.test(text)).map(({ file, text }) => `${file}: ${text.slice(0, 80)}`);
    expect(likes).toEqual([]);
  });

  it("has no statement text compounding more than 5 SELECTs", () => {
    const compounds = literals.filter(({ text }) => compoundSelects(text) > D1_LIMITS.compoundSelects).map(({ file }) => file);
    expect(compounds).toEqual([]);
  });
});

/** A database that records what it is asked and answers nothing. */
function recordingTenant(): { tenant: Tenant; statements: { sql: string; binds: unknown[] }[] } {
  const statements: { sql: string; binds: unknown[] }[] = [];
  const statement = (sql: string): object => ({
    bind: (...binds: unknown[]) => {
      statements.push({ sql, binds });
      return statement(sql);
    },
    all: async () => ({ results: [] }),
    first: async () => null,
    raw: async () => [],
    run: async () => ({ meta: {} }),
  });
  const db = { prepare: (sql: string) => statement(sql), batch: async () => [] };
  return { tenant: { businessId: "bus_x", userId: "usr_x", role: "Super Administrator", db } as unknown as Tenant, statements };
}

describe("the statements built at run time", () => {
  it("a transactions search (a name that is also a reference, in any case) stays within every limit", async () => {
    const { tenant, statements } = recordingTenant();
    const word = `simmwt7bg05t18 ${"Ɔkɔdeɛ 🎉".repeat(300)}`;
    const filter = {
      merchantSearch: word,
      referenceTail: word.toUpperCase(),
      from: 0,
      to: Date.UTC(2026, 10, 25),
      status: "successful",
      channel: "card",
    } as const;
    await listTransactions(tenant, { ...filter, after: null });
    await transactionTotals(tenant, filter);
    expect(statements.length).toBeGreaterThan(0);
    for (const { sql, binds } of statements) expect(limitProblems(sql, binds), sql).toEqual([]);
    // The most the search box makes: one read by merchant name, one of the reference (as typed and in capitals), one of its tail.
    expect(Math.max(...statements.map(({ sql }) => compoundSelects(sql)))).toBe(3);
  });
});
