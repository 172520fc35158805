import { expect } from "vitest";

/** Every ledger account's running sum equals the sum of its entries (migration 0007's promise), on each database given (the shards). */
export async function expectAccountSumsMatchEntries(databases: D1Database | readonly D1Database[]): Promise<void> {
  let accounts = 0;
  for (const db of Array.isArray(databases) ? databases : [databases]) accounts += await expectSumsOn(db as D1Database);
  expect(accounts).toBeGreaterThan(0);
}

async function expectSumsOn(db: D1Database): Promise<number> {
  const drift = await db
    .prepare(
      `WITH sums AS (SELECT e.business_id, e.account_id, SUM(e.amount) AS total FROM ledger_entries e GROUP BY e.business_id, e.account_id)
       SELECT a.id, a.entry_sum, coalesce(s.total, 0) AS entries
       FROM ledger_accounts a LEFT JOIN sums s ON s.business_id = a.business_id AND s.account_id = a.id WHERE a.entry_sum <> coalesce(s.total, 0)`,
    )
    .all<{ id: string; entry_sum: number; entries: number }>();
  expect(drift.results, "accounts whose running sum drifted from their entries").toEqual([]);
  const accounts = await db.prepare("SELECT COUNT(*) AS n, coalesce(SUM(entry_sum), 0) AS total FROM ledger_accounts").first<{ n: number; total: number }>();
  // Double entry: the running sums balance as the entries do.
  expect(accounts!.total).toBe(0);
  return accounts!.n;
}
