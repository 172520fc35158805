// The load context's D1 joins the reads a request starts together into one batch
// (functions/plumbing/d1-coalesce.ts). D1 here is a stand-in that records each round trip.
import { describe, expect, it } from "vitest";
import { coalescedEnv, isReadOnly } from "./d1-coalesce";

interface FakeStatement {
  sql: string;
  args: unknown[];
}

function fakeD1() {
  const trips: string[][] = [];
  const answer = (s: FakeStatement) => ({ results: s.sql.includes("nothing") ? [] : [{ sql: s.sql, n: s.args[0] ?? null }], success: true, meta: {} });
  const statement = (sql: string, args: unknown[] = []): FakeStatement & Record<string, unknown> => {
    const self: FakeStatement & Record<string, unknown> = {
      sql,
      args,
      bind: (...values: unknown[]) => statement(sql, values),
      all: () => {
        trips.push([sql]);
        return Promise.resolve(answer(self));
      },
      first: () => {
        trips.push([sql]);
        return Promise.resolve(answer(self).results[0] ?? null);
      },
      run: () => {
        trips.push([sql]);
        return Promise.resolve(answer(self));
      },
    };
    return self;
  };
  const db = {
    prepare: (sql: string) => statement(sql),
    batch: (statements: FakeStatement[]) => {
      trips.push(statements.map((s) => s.sql));
      if (statements.some((s) => s.sql.includes("boom"))) return Promise.reject(new Error("no such table: boom"));
      return Promise.resolve(statements.map(answer));
    },
  };
  const env = coalescedEnv({ DB: db } as unknown as Env);
  return { trips, db: env.DB };
}

describe("reads started together", () => {
  it("go to D1 as one batch, and each caller gets its own answer", async () => {
    const { trips, db } = fakeD1();
    const [all, first, column, none, batch] = await Promise.all([
      db.prepare("SELECT a FROM t WHERE x = ?").bind(1).all(),
      db.prepare("SELECT b FROM t WHERE x = ?").bind(2).first(),
      db.prepare("SELECT c FROM t WHERE x = ?").bind(3).first("n"),
      db.prepare("SELECT nothing FROM t").first(),
      db.batch([db.prepare("SELECT d FROM t WHERE x = ?").bind(4), db.prepare("WITH w AS (SELECT 1) SELECT e FROM w")]),
    ]);
    expect(trips).toEqual([
      [
        "SELECT a FROM t WHERE x = ?",
        "SELECT b FROM t WHERE x = ?",
        "SELECT c FROM t WHERE x = ?",
        "SELECT nothing FROM t",
        "SELECT d FROM t WHERE x = ?",
        "WITH w AS (SELECT 1) SELECT e FROM w",
      ],
    ]);
    expect(all.results).toEqual([{ sql: "SELECT a FROM t WHERE x = ?", n: 1 }]);
    expect(first).toEqual({ sql: "SELECT b FROM t WHERE x = ?", n: 2 });
    expect(column).toBe(3);
    expect(none).toBeNull();
    expect(batch.map((r) => r.results[0])).toEqual([
      { sql: "SELECT d FROM t WHERE x = ?", n: 4 },
      { sql: "WITH w AS (SELECT 1) SELECT e FROM w", n: null },
    ]);
  });

  it("reads started one after the other are a round trip each", async () => {
    const { trips, db } = fakeD1();
    await db.prepare("SELECT a FROM t").all();
    await db.prepare("SELECT b FROM t").first();
    expect(trips).toEqual([["SELECT a FROM t"], ["SELECT b FROM t"]]);
  });

  it("writes are never held back or joined: they go as called, a batch that writes in its own transaction", async () => {
    const { trips, db } = fakeD1();
    const read = db.prepare("SELECT a FROM t").all();
    await db.prepare("UPDATE t SET a = 1").run();
    await db.prepare("INSERT INTO t (a) VALUES (1) RETURNING a").all();
    await db.batch([db.prepare("SELECT a FROM t"), db.prepare("DELETE FROM t")]);
    await read;
    expect(trips).toEqual([["UPDATE t SET a = 1"], ["INSERT INTO t (a) VALUES (1) RETURNING a"], ["SELECT a FROM t", "DELETE FROM t"], ["SELECT a FROM t"]]);
  });

  it("a joined batch that fails is sent again per caller: only the bad read's caller sees the error", async () => {
    const { trips, db } = fakeD1();
    const [good, bad, other] = await Promise.allSettled([
      db.prepare("SELECT a FROM t").all(),
      db.prepare("SELECT x FROM boom").all(),
      db.prepare("SELECT b FROM t").first(),
    ]);
    expect(good).toMatchObject({ status: "fulfilled", value: { results: [{ sql: "SELECT a FROM t" }] } });
    expect(bad).toMatchObject({ status: "rejected", reason: { message: "no such table: boom" } });
    expect(other).toMatchObject({ status: "fulfilled", value: { sql: "SELECT b FROM t" } });
    expect(trips[0]).toHaveLength(3);
    expect(trips.slice(1)).toEqual([["SELECT a FROM t"], ["SELECT x FROM boom"], ["SELECT b FROM t"]]);
  });
});

describe("isReadOnly", () => {
  it("is true only for a SELECT or WITH that writes nothing", () => {
    for (const sql of ["SELECT 1", "  select a from t", "WITH w AS (SELECT 1) SELECT * FROM w"]) expect(isReadOnly(sql)).toBe(true);
    for (const sql of [
      "INSERT INTO t VALUES (1)",
      "UPDATE t SET a = 1",
      "DELETE FROM t",
      "WITH w AS (SELECT 1) DELETE FROM t",
      "REPLACE INTO t VALUES (1)",
      "PRAGMA optimize",
    ]) {
      expect(isReadOnly(sql)).toBe(false);
    }
  });
});
