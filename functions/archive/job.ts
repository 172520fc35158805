// The daily archive job (06:00, a line of its own in functions/operators/jobs.ts): each business's whole months older
// than the retention go to R2 and leave D1. Safe to stop anywhere and to run again
// (docs/decisions/019-cold-archive.md):
//   1. write the object and its manifest (a month already written is written again from D1: nothing was deleted yet);
//   2. read both back and compare their counts and sums with what SQL counts in D1; a difference stops here;
//   3. record the month in D1 (status 'deleting', the reference index, the per-account sums) in one batch;
//   4. delete the month's rows in batches, each batch one D1 transaction; the last marks the month 'archived'.
// A run that finds a month recorded finishes step 4; a month archived with nothing left is not touched again.
// Balances (ledger_accounts.entry_sum), daily rollups and merchant totals stay in D1 and do not change.
import {
  deleteArchivedBatch,
  firstPaymentAt,
  getArchiveMonth,
  monthFigures,
  monthMaxId,
  monthsDeleting,
  readMonthPage,
  recordArchiveMonth,
  type ArchiveMonth,
  type MonthFigures,
} from "./archive.db";
import { logEvent } from "../plumbing/log";
import type { BusinessDb } from "../tenancy/tenant";
import {
  FiguresCounter,
  FORMAT_VERSION,
  gzipLines,
  manifestKey,
  monthOf,
  monthSpan,
  objectKey,
  readLines,
  referenceHash,
  retentionCutoff,
  sha256Bytes,
  type ArchivedPayment,
  type Manifest,
} from "./format";

export interface ArchiveDeps {
  /** The businesses to archive, each with its database (functions/tenancy/shards.ts everyBusinessDb). */
  businesses: readonly BusinessDb[];
  bucket: R2Bucket;
  now: number;
  retentionMonths: number;
  /** Payments read per D1 batch while writing. */
  pageSize?: number;
  /** Payments deleted per D1 batch. */
  deleteBatch?: number;
  /** Stop after this many delete batches (a run cut short; the next run finishes). Unbounded by default. */
  maxDeleteBatches?: number;
  /** Months written per run: a long backlog is spread over several days. */
  maxMonths?: number;
}

export interface ArchiveRunResult {
  /** Months written and recorded by this run, as businessId/YYYY-MM. */
  archived: string[];
  /** Months whose deletes this run finished (recorded by an earlier run, or by this one). */
  finished: string[];
  payments: number;
}

const PAGE_SIZE = 500;
const DELETE_BATCH = 500;
const MAX_MONTHS = 24;

export class ArchiveMismatch extends Error {
  override name = "ArchiveMismatch";
}

async function* monthLines(deps: ArchiveDeps, business: BusinessDb, month: string, maxId: number, refHashes: number[]): AsyncGenerator<string> {
  const span = monthSpan(month);
  let after: { createdAt: number; id: number } | null = null;
  for (;;) {
    const page = await readMonthPage(business, span, maxId, after, deps.pageSize ?? PAGE_SIZE);
    if (page.payments.length === 0) return;
    const entries = new Map<number, ArchivedPayment["e"]>();
    for (const entry of page.entries) entries.set(entry.transaction_id, [...(entries.get(entry.transaction_id) ?? []), entry]);
    const settled = new Map(page.items.map((i) => [i.transaction_id, i.settlement_id]));
    const lines: string[] = [];
    for (const t of page.payments) {
      refHashes.push(await referenceHash(t.reference));
      const line: ArchivedPayment = { t, e: entries.get(t.id) ?? [], s: settled.get(t.id) ?? null };
      lines.push(`${JSON.stringify(line)}\n`);
    }
    yield lines.join("");
    const last = page.payments[page.payments.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
  }
}

function sameFigures(a: MonthFigures, b: MonthFigures): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Reads the object and manifest back from R2 and checks them against D1's own counts; throws on any difference. */
async function verify(bucket: R2Bucket, manifest: Manifest, expected: MonthFigures): Promise<void> {
  const [object, stored] = await Promise.all([bucket.get(manifest.objectKey), bucket.get(manifestKey(manifest.businessId, manifest.month))]);
  if (!object || !stored) throw new ArchiveMismatch(`${manifest.objectKey}: not found after writing it`);
  const bytes = new Uint8Array(await object.arrayBuffer());
  if (bytes.byteLength !== manifest.bytes || (await sha256Bytes(bytes)) !== manifest.sha256) throw new ArchiveMismatch(`${manifest.objectKey}: bytes differ`);
  const span = monthSpan(manifest.month);
  const counter = new FiguresCounter();
  for await (const line of readLines(new Response(bytes).body!)) {
    if (line.t.business_id !== manifest.businessId || line.t.created_at < span.from || line.t.created_at >= span.to || line.t.id > manifest.maxId) {
      throw new ArchiveMismatch(`${manifest.objectKey}: payment ${line.t.id} does not belong here`);
    }
    counter.add(line);
  }
  const read = counter.figures();
  const readManifest = await stored.json<Manifest>();
  if (!sameFigures(read, expected) || !sameFigures(readManifest.figures, expected) || readManifest.sha256 !== manifest.sha256) {
    throw new ArchiveMismatch(`${manifest.objectKey}: counts or sums differ from D1 (${JSON.stringify({ read, expected })})`);
  }
}

/** Deletes the recorded month's rows batch by batch; true when none is left (the month is then 'archived'). */
async function finishDelete(deps: ArchiveDeps, business: BusinessDb, month: ArchiveMonth): Promise<boolean> {
  const span = monthSpan(month.month);
  for (let batches = 0; deps.maxDeleteBatches === undefined || batches < deps.maxDeleteBatches; batches += 1) {
    const deleted = await deleteArchivedBatch(business, month, span, deps.deleteBatch ?? DELETE_BATCH);
    if (deleted === 0) return true;
  }
  return false;
}

/** Steps 1 to 4 for one month of one business. Returns whether it wrote the month (false: it was recorded before). */
export async function archiveMonth(deps: ArchiveDeps, business: BusinessDb, month: string, result: ArchiveRunResult): Promise<void> {
  const { businessId } = business;
  const recorded = await getArchiveMonth(business, month);
  if (recorded) {
    if (await finishDelete(deps, business, recorded)) result.finished.push(`${businessId}/${month}`);
    return;
  }
  const span = monthSpan(month);
  const maxId = await monthMaxId(business, span);
  if (maxId === null) return;
  const refHashes: number[] = [];
  const bytes = await gzipLines(monthLines(deps, business, month, maxId, refHashes));
  const figures = await monthFigures(business, span, maxId);
  const manifest: Manifest = {
    version: FORMAT_VERSION,
    businessId,
    month,
    objectKey: objectKey(businessId, month),
    maxId,
    bytes: bytes.byteLength,
    sha256: await sha256Bytes(bytes),
    figures,
    createdAt: new Date(deps.now).toISOString(),
  };
  await deps.bucket.put(manifest.objectKey, bytes, {
    httpMetadata: { contentType: "application/x-ndjson", contentEncoding: "gzip" },
    customMetadata: { businessId, month, sha256: manifest.sha256 },
  });
  await deps.bucket.put(manifestKey(businessId, month), JSON.stringify(manifest, null, 2), { httpMetadata: { contentType: "application/json" } });
  await verify(deps.bucket, manifest, figures);
  await recordArchiveMonth(
    business,
    { ...figures, month, objectKey: manifest.objectKey, maxId, bytes: manifest.bytes, sha256: manifest.sha256 },
    figures,
    refHashes,
    deps.now,
  );
  result.archived.push(`${businessId}/${month}`);
  result.payments += figures.payments;
  const record = await getArchiveMonth(business, month);
  if (record && (await finishDelete(deps, business, record))) result.finished.push(`${businessId}/${month}`);
}

/** The whole job: every business, months recorded but not yet emptied first, then each due month oldest first. */
export async function runArchive(deps: ArchiveDeps): Promise<ArchiveRunResult> {
  const result: ArchiveRunResult = { archived: [], finished: [], payments: 0 };
  const cutoff = retentionCutoff(deps.now, deps.retentionMonths);
  const maxMonths = deps.maxMonths ?? MAX_MONTHS;
  for (const business of deps.businesses) {
    const { businessId } = business;
    for (const month of await monthsDeleting(business)) {
      if (await finishDelete(deps, business, month)) result.finished.push(`${businessId}/${month.month}`);
    }
    let from = 0;
    for (;;) {
      if (result.archived.length >= maxMonths) break;
      const at = await firstPaymentAt(business, from, cutoff);
      if (at === null) break;
      const month = monthOf(at);
      await archiveMonth(deps, business, month, result);
      from = monthSpan(month).to;
    }
  }
  logEvent("info", "archive.run", { archived: result.archived.length, finished: result.finished.length, payments: result.payments });
  return result;
}
