// What the transactions screen shows of the cold archive: the archived months with their counts, and the payments
// a search for a whole reference finds there (only asked when the list found nothing; the archive is read by the
// exact reference, so the last characters of one do not find it).
import { asTransaction, monthSpan } from "#server/archive/format";
import { findArchivedPayments } from "#server/archive/read";
import { listArchiveMonths } from "#server/archive/archive.db";
import type { Tenant } from "#server/tenancy/tenant";
import type { Transaction, TransactionFilter } from "#server/payments/transactions.db";
import { ACCOUNT_LABEL } from "#app/lib/transactions-view";

/** An account id ends with its kind (functions/ledger/ledger.ts ledgerAccountId). */
function accountLabel(accountId: string): string {
  const kind = Object.keys(ACCOUNT_LABEL).find((k) => accountId.endsWith(`_${k}`));
  return kind ? ACCOUNT_LABEL[kind]! : accountId;
}

export async function archiveLookup(
  tenant: Tenant,
  bucket: R2Bucket,
  filter: Pick<TransactionFilter, "reference" | "referenceTail" | "merchantSearch">,
  /** The period shown: archived months within it are named above the list (their payments are not in it). */
  period: { from: number; to: number },
) {
  // A reference written mostly in letters reads as a merchant search; the list tries it as a reference too, and so does this.
  const typed = filter.merchantSearch?.trim();
  const whole = filter.reference ?? filter.referenceTail;
  const references = [...new Set([whole, typed, typed?.toUpperCase()].filter((text): text is string => Boolean(text)))];
  const [months, found] = await Promise.all([listArchiveMonths(tenant), findArchivedPayments(tenant, bucket, references)]);
  return {
    months: months.map((m) => ({ month: m.month, payments: m.payments, successful: m.successful, gross: m.gross, fees: m.fees })),
    inPeriod: months.filter((m) => monthSpan(m.month).from < period.to && monthSpan(m.month).to > period.from).map((m) => m.month),
    found: found.map(
      (f): { month: string; transaction: Transaction; entries: { id: number; account: string; amount: number; memo: string; postedAt: number }[] } => ({
        month: f.month,
        transaction: asTransaction(f.payment.t),
        entries: f.payment.e.map((e) => ({ id: e.id, account: accountLabel(e.account_id), amount: e.amount, memo: e.memo, postedAt: e.posted_at })),
      }),
    ),
  };
}
