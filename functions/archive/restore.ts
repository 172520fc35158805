// Puts an archived month back in D1 exactly as it was (same ids, same columns, its entries and settlement items),
// checks D1's counts and sums against the month's record, then forgets the month and deletes its objects.
// Safe to run again after a stop: rows already back are left as they are, and nothing is forgotten before the check.
// A month older than the retention is archived again by the next daily run (docs/archive.md).
import { forgetArchiveMonth, getArchiveMonth, monthFigures, restoreRows, type MonthPage } from "./archive.db";
import { manifestKey, monthSpan, readLines } from "./format";
import { ArchiveMismatch } from "./job";
import type { BusinessDb } from "../tenancy/tenant";

const ROWS_PER_BATCH = 500;

export class NotArchived extends Error {
  override name = "NotArchived";
}

export async function restoreMonth(deps: { bucket: R2Bucket }, business: BusinessDb, month: string): Promise<{ payments: number }> {
  const { businessId } = business;
  const record = await getArchiveMonth(business, month);
  if (!record) throw new NotArchived(`${businessId} has no archived ${month}`);
  const object = await deps.bucket.get(record.objectKey);
  if (!object) throw new ArchiveMismatch(`${record.objectKey}: the object is missing`);
  let page: MonthPage = { payments: [], entries: [], items: [] };
  let payments = 0;
  const flush = async () => {
    if (page.payments.length > 0) await restoreRows(business, page);
    payments += page.payments.length;
    page = { payments: [], entries: [], items: [] };
  };
  for await (const line of readLines(object.body)) {
    page.payments.push(line.t);
    page.entries.push(...line.e);
    if (line.s) page.items.push({ transaction_id: line.t.id, settlement_id: line.s });
    if (page.payments.length >= ROWS_PER_BATCH) await flush();
  }
  await flush();
  const figures = await monthFigures(business, monthSpan(month), record.maxId);
  const recorded = [record.payments, record.successful, record.gross, record.fees, record.amountSum, record.feeSum, record.entries, record.entryDebits];
  const back = [figures.payments, figures.successful, figures.gross, figures.fees, figures.amountSum, figures.feeSum, figures.entries, figures.entryDebits];
  if (JSON.stringify(recorded) !== JSON.stringify(back) || figures.settlementItems !== record.settlementItems) {
    throw new ArchiveMismatch(`${record.objectKey}: D1 after the restore differs from the record (${JSON.stringify({ recorded, back })})`);
  }
  await forgetArchiveMonth(business, record);
  await deps.bucket.delete([record.objectKey, manifestKey(businessId, month)]);
  return { payments };
}
