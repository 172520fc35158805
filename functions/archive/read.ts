// What the transactions screen reads from the archive: a payment found by its exact reference (the D1 index names
// the months that may hold it; only those are opened), and an archived month page by page for its CSV.
import { archiveMonthsForReferences, type ArchiveMonth } from "./archive.db";
import type { Page } from "../lists/page";
import type { Tenant } from "../tenancy/tenant";
import { readLines, referenceHash, type ArchivedPayment } from "./format";

export interface FoundArchived {
  month: string;
  payment: ArchivedPayment;
}

/** The business's archived payments whose reference is one of these (at most one a reference), newest month first. */
export async function findArchivedPayments(tenant: Tenant, bucket: R2Bucket, references: readonly string[]): Promise<FoundArchived[]> {
  const wanted = new Set(references.filter(Boolean));
  if (wanted.size === 0) return [];
  const months = await archiveMonthsForReferences(tenant, await Promise.all([...wanted].map(referenceHash)));
  const found: FoundArchived[] = [];
  for (const month of months) {
    const object = await bucket.get(month.objectKey);
    if (!object) continue;
    for await (const line of readLines(object.body)) {
      // The object is this business's (its key came from the business's own month row); the check costs nothing.
      if (wanted.has(line.t.reference) && line.t.business_id === tenant.businessId) {
        found.push({ month: month.month, payment: line });
        wanted.delete(line.t.reference);
      }
    }
    if (wanted.size === 0) break;
  }
  return found;
}

/**
 * An archived month's payments in pages of `size`, for csvResponse: the object is unzipped as the download is
 * read, never whole. The cursor is only "more to come": the stream itself remembers where it is.
 */
export async function archivedMonthPages(
  bucket: R2Bucket,
  month: ArchiveMonth,
  size: number,
): Promise<((after: string | null) => Promise<Page<ArchivedPayment>>) | null> {
  const object = await bucket.get(month.objectKey);
  if (!object) return null;
  const lines = readLines(object.body);
  return async () => {
    const rows: ArchivedPayment[] = [];
    while (rows.length < size) {
      const next = await lines.next();
      if (next.done) return { rows, next: null };
      rows.push(next.value);
    }
    return { rows, next: "more" };
  };
}
