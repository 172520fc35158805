// A rail's answer names its order by key only. Should a key name a settlement in two businesses (references made before
// they carried their business's tag), the answer is applied to neither, never to whichever database answered first.
import { describe, expect, it } from "vitest";
import { settlementReference } from "../settlement/run";
import { applyAnswerByKey } from "./apply";

/** A database that holds one settlement with `reference` (or none), and fails the test if anything is written. */
function databaseHolding(businessId: string | null, reference: string, writes: string[]): D1Database {
  const statement = (sql: string) => ({
    bind: () => ({
      first: async () =>
        sql.startsWith("SELECT") && businessId ? { id: `stl_${businessId}`, businessId, reference, net: 5000, attempts: 1, status: "pending" } : null,
      run: async () => void writes.push(sql),
      all: async () => ({ results: [] }),
    }),
  });
  return { prepare: statement, batch: async (all: unknown[]) => void writes.push(`batch of ${all.length}`) } as unknown as D1Database;
}

describe("applyAnswerByKey", () => {
  it("applies to neither business when two databases hold the reference", async () => {
    const writes: string[] = [];
    const env = {
      DB: databaseHolding("bus_accra", "STL-MRC-0002-20261126", writes),
      SHARD_1: databaseHolding("bus_kumasi", "STL-MRC-0002-20261126", writes),
    } as unknown as Env;
    const answer = { ok: true as const, rail: { rail: "switch", reference: "ord_1", status: "succeeded" } };
    expect(await applyAnswerByKey(env, "switch", "payout", "STL-MRC-0002-20261126", answer, Date.now())).toBe("ambiguous");
    expect(writes).toEqual([]);
  });

  it("says so when no database holds it", async () => {
    const env = { DB: databaseHolding(null, "x", []), SHARD_1: databaseHolding(null, "x", []) } as unknown as Env;
    expect(await applyAnswerByKey(env, "switch", "payout", "STL-NONE-20261126", { ok: false, error: "no" }, Date.now())).toBe("unknown order");
  });
});

describe("settlement references", () => {
  it("carry the business's tag: two businesses' merchants with one code on one day get two references, each the same every time", async () => {
    const day = Date.UTC(2026, 10, 26);
    const accra = await settlementReference("bus_accra_mobile_pay", "MRC-0002", day);
    const kumasi = await settlementReference("bus_kumasi_fresh_foods", "MRC-0002", day);
    expect(accra).toMatch(/^STL-MRC-0002-20261126-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(kumasi).not.toBe(accra);
    expect(await settlementReference("bus_accra_mobile_pay", "MRC-0002", day)).toBe(accra);
    expect(await settlementReference("bus_accra_mobile_pay", "MRC-0003", day)).toBe(accra.replace("MRC-0002", "MRC-0003"));
  });
});
