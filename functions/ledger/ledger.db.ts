// Reading and writing the ledger. Balances are always sums of entries; postings
// are written as statements for the caller's batch, checked to balance first.
import { assertBalanced, BUSINESS_ACCOUNT_KINDS, ledgerAccountId, merchantBalance, type PostingLine } from "./ledger";
import { idChunks } from "../lists/names.db";
import type { Tenant, BusinessDb } from "../tenancy/tenant";

export interface LedgerEntry {
  id: number;
  postingId: string;
  accountId: string;
  kind: string;
  merchantId: string | null;
  amount: number;
  memo: string;
  postedAt: number;
}

export interface MerchantBalances {
  pending: number;
  available: number;
  /** Held by open disputes: the merchant's still, but neither transferable nor settled. */
  held: number;
  total: number;
}

export async function getMerchantBalances(tenant: Tenant, merchantId: string): Promise<MerchantBalances> {
  const { db } = tenant;
  const { results } = await db
    .prepare(`SELECT a.kind, a.entry_sum AS sum FROM ledger_accounts a WHERE a.business_id = ? AND a.merchant_id = ?`)
    .bind(tenant.businessId, merchantId)
    .all<{ kind: string; sum: number }>();
  const of = (kind: string) => merchantBalance(results.find((r) => r.kind === kind)?.sum ?? 0);
  const pending = of("merchant_pending");
  const available = of("merchant_available");
  const held = of("merchant_held");
  return { pending, available, held, total: pending + available + held };
}

/** The lines posted for one transaction, in order. */
export async function listTransactionEntries(tenant: Tenant, transactionId: number): Promise<LedgerEntry[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT e.id, e.posting_id AS postingId, e.account_id AS accountId, a.kind, a.merchant_id AS merchantId, e.amount, e.memo, e.posted_at AS postedAt
       FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.business_id = e.business_id
       WHERE e.transaction_id = ? AND e.business_id = ? ORDER BY e.posted_at, e.id`,
    )
    .bind(transactionId, tenant.businessId)
    .all<LedgerEntry>();
  return results;
}

export interface PostingRefs {
  postingId: string;
  memo: string;
  postedAt: number;
  transactionId?: number;
  transferId?: string;
  settlementId?: string;
}

/** Opens the business's own accounts (merchants' accounts open with their first posting); nothing twice. */
export function openBusinessAccountsStatements(business: BusinessDb): D1PreparedStatement[] {
  return BUSINESS_ACCOUNT_KINDS.map((kind) =>
    business.db
      .prepare("INSERT OR IGNORE INTO ledger_accounts (id, business_id, merchant_id, kind) VALUES (?, ?, NULL, ?)")
      .bind(ledgerAccountId(business.businessId, { kind }), business.businessId, kind),
  );
}

/**
 * Statements that write one balanced posting (and create the accounts it needs),
 * for the caller's batch. Throws before anything is written if it does not balance.
 */
export function postingStatements(tenant: BusinessDb, lines: readonly PostingLine[], refs: PostingRefs): D1PreparedStatement[] {
  const { db } = tenant;
  assertBalanced(lines);
  return lines.flatMap((line) => {
    const accountId = ledgerAccountId(tenant.businessId, line.account);
    return [
      db
        .prepare("INSERT OR IGNORE INTO ledger_accounts (id, business_id, merchant_id, kind) VALUES (?, ?, ?, ?)")
        .bind(accountId, tenant.businessId, line.account.merchantId ?? null, line.account.kind),
      db
        .prepare(
          `INSERT INTO ledger_entries (business_id, posting_id, account_id, amount, transaction_id, transfer_id, settlement_id, memo, posted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          tenant.businessId,
          refs.postingId,
          accountId,
          line.amount,
          refs.transactionId ?? null,
          refs.transferId ?? null,
          refs.settlementId ?? null,
          refs.memo,
          refs.postedAt,
        ),
      // The account's running sum moves with its entry, in the same batch.
      db.prepare("UPDATE ledger_accounts SET entry_sum = entry_sum + ? WHERE id = ? AND business_id = ?").bind(line.amount, accountId, tenant.businessId),
    ];
  });
}

/** Pending, available and total balances of several merchants at once (a page of the accounts list). */
export async function listMerchantBalances(tenant: Tenant, merchantIds: readonly string[]): Promise<Record<string, MerchantBalances>> {
  const { db } = tenant;
  const ids = [...new Set(merchantIds)];
  const balances: Record<string, MerchantBalances> = Object.fromEntries(ids.map((id) => [id, { pending: 0, available: 0, held: 0, total: 0 }]));
  if (ids.length === 0) return balances;
  // The accounts' running sums (migration 0007): one row per account; ids in runs D1 can bind.
  const statements = idChunks(ids, 1).map((chunk) =>
    db
      .prepare(
        `SELECT a.merchant_id AS merchantId, a.kind, a.entry_sum AS sum
         FROM ledger_accounts a
         WHERE a.business_id = ? AND a.kind IN ('merchant_pending', 'merchant_available', 'merchant_held') AND a.merchant_id IN (${chunk.map(() => "?").join(", ")})`,
      )
      .bind(tenant.businessId, ...chunk),
  );
  type Row = { merchantId: string; kind: string; sum: number };
  const runs = statements.length === 1 ? [await statements[0]!.all<Row>()] : await db.batch<Row>(statements);
  const results = runs.flatMap((run) => run.results);
  for (const row of results) {
    const balance = balances[row.merchantId];
    if (!balance) continue;
    if (row.kind === "merchant_pending") balance.pending = merchantBalance(row.sum);
    else if (row.kind === "merchant_held") balance.held = merchantBalance(row.sum);
    else balance.available = merchantBalance(row.sum);
    balance.total = balance.pending + balance.available + balance.held;
  }
  return balances;
}

/** One posting of a bulk write, linked to its payment by reference (the payment may be inserted earlier in the same batch). */
export interface BulkPosting {
  lines: readonly PostingLine[];
  postingId: string;
  memo: string;
  postedAt: number;
  transactionReference: string;
}

/**
 * Statements that write many balanced postings at once, for the caller's batch:
 * three statements whatever their number (rows travel as one JSON parameter; D1
 * binds at most 100 parameters a statement). What postingStatements does for
 * one posting: the accounts, the entries, and each account's running sum, moved
 * once by the sum of its lines. Throws before anything is written if one does not balance.
 */
export function bulkPostingStatements({ businessId, db }: BusinessDb, postings: readonly BulkPosting[]): D1PreparedStatement[] {
  if (postings.length === 0) return [];
  const accounts = new Map<string, { merchantId: string | null; kind: string; sum: number }>();
  const entries: [string, string, number, string, string, number][] = [];
  for (const posting of postings) {
    assertBalanced(posting.lines);
    for (const line of posting.lines) {
      const accountId = ledgerAccountId(businessId, line.account);
      const account = accounts.get(accountId) ?? { merchantId: line.account.merchantId ?? null, kind: line.account.kind, sum: 0 };
      account.sum += line.amount;
      accounts.set(accountId, account);
      entries.push([posting.postingId, accountId, line.amount, posting.transactionReference, posting.memo, posting.postedAt]);
    }
  }
  const accountRows = [...accounts].map(([id, a]) => [id, a.merchantId, a.kind, a.sum]);
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO ledger_accounts (id, business_id, merchant_id, kind)
         SELECT j.value->>0, ?1, j.value->>1, j.value->>2 FROM json_each(?2) j`,
      )
      .bind(businessId, JSON.stringify(accountRows)),
    db
      .prepare(
        `INSERT INTO ledger_entries (business_id, posting_id, account_id, amount, transaction_id, memo, posted_at)
         SELECT ?1, j.value->>0, j.value->>1, j.value->>2,
           (SELECT t.id FROM transactions t WHERE t.business_id = ?1 AND t.reference = j.value->>3), j.value->>4, j.value->>5
         FROM json_each(?2) j`,
      )
      .bind(businessId, JSON.stringify(entries)),
    db
      .prepare(
        `UPDATE ledger_accounts SET entry_sum = entry_sum + (SELECT j.value->>3 FROM json_each(?2) j WHERE j.value->>0 = ledger_accounts.id)
         WHERE business_id = ?1 AND id IN (SELECT j.value->>0 FROM json_each(?2) j)`,
      )
      .bind(businessId, JSON.stringify(accountRows)),
  ];
}
