import { expect } from "vitest";
import { clearingPosting, paymentPosting } from "#server/ledger/ledger";
import { getMerchantBalances, postingStatements } from "#server/ledger/ledger.db";
import type { Tenant } from "#server/tenancy/tenant";

/** Enough available money for a test (the seed's merchants hold little): a cleared payment, posted by the portal's own ledger functions. */
export async function topUp(tenant: Tenant, merchantId: string, atLeast: number): Promise<void> {
  const { available } = await getMerchantBalances(tenant, merchantId);
  if (available >= atLeast) return;
  const payment = { merchantId, amount: atLeast - available, fee: 0 };
  const postingId = `test_topup_${merchantId}_${crypto.randomUUID()}`;
  await tenant.db.batch([
    ...postingStatements(tenant, paymentPosting(payment), { postingId, memo: "Test top-up", postedAt: Date.now() }),
    ...postingStatements(tenant, clearingPosting(payment), { postingId: `${postingId}_cleared`, memo: "Test top-up cleared", postedAt: Date.now() }),
  ]);
}

/**
 * Every ledger account's running sum equals the sum of its entries (migration 0007's promise), on each database given
 * (the shards): those in D1 and, for months moved to the cold archive, those archived (archive_account_sums, migration 0014).
 */
export async function expectAccountSumsMatchEntries(databases: D1Database | readonly D1Database[]): Promise<void> {
  let accounts = 0;
  for (const db of Array.isArray(databases) ? databases : [databases]) accounts += await expectSumsOn(db as D1Database);
  expect(accounts).toBeGreaterThan(0);
}

async function expectSumsOn(db: D1Database): Promise<number> {
  const held = `coalesce((SELECT SUM(e.amount) FROM ledger_entries e WHERE e.business_id = a.business_id AND e.account_id = a.id), 0)
    + coalesce((SELECT SUM(s.amount) FROM archive_account_sums s JOIN archive_months m ON m.id = s.month_id
                WHERE m.business_id = a.business_id AND m.status = 'archived' AND s.account_id = a.id), 0)`;
  const drift = await db
    .prepare(`SELECT a.id, a.entry_sum, ${held} AS entries FROM ledger_accounts a WHERE a.entry_sum <> ${held}`)
    .all<{ id: string; entry_sum: number; entries: number }>();
  expect(drift.results, "accounts whose running sum drifted from their entries").toEqual([]);
  const accounts = await db.prepare("SELECT COUNT(*) AS n, coalesce(SUM(entry_sum), 0) AS total FROM ledger_accounts").first<{ n: number; total: number }>();
  // Double entry: the running sums balance as the entries do.
  expect(accounts!.total).toBe(0);
  return accounts!.n;
}
