// The cold archive's object format (docs/archive.md): one gzipped NDJSON object per business per month, a line per
// payment with its ledger entries and settlement, D1's own columns; a JSON manifest next to it with the counts and sums.
import type { EntryRow, MonthFigures, MonthSpan, PaymentRow } from "./archive.db";
import type { Transaction } from "../payments/transactions.db";
import { hex } from "../plumbing/sha256";

export const FORMAT_VERSION = 1;

/** One line of the object: the payment (t), its ledger entries (e) and the settlement that paid it (s). */
export interface ArchivedPayment {
  t: PaymentRow;
  e: EntryRow[];
  s: string | null;
}

export interface Manifest {
  version: number;
  businessId: string;
  month: string;
  objectKey: string;
  /** The payments' highest id: rows of the month above it were not archived. */
  maxId: number;
  /** Of the gzipped object. */
  bytes: number;
  sha256: string;
  figures: MonthFigures;
  createdAt: string;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(text: string): boolean {
  return MONTH.test(text);
}

/** The month (UTC, which is Accra's time) of an instant, as YYYY-MM. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function monthSpan(month: string): MonthSpan {
  const [, year, mon] = MONTH.exec(month) ?? [];
  if (!year || !mon) throw new Error(`Not a month: ${month}`);
  return { from: Date.UTC(Number(year), Number(mon) - 1, 1), to: Date.UTC(Number(year), Number(mon), 1) };
}

/**
 * The first instant kept in D1: the start of the month `retentionMonths` before this one. On 2026-11-23 with 13,
 * 2025-10-01: months up to 2025-09 are archived, so every archived payment is more than 13 months old.
 */
export function retentionCutoff(now: number, retentionMonths: number): number {
  const today = new Date(now);
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - retentionMonths, 1);
}

export const objectKey = (businessId: string, month: string) => `${businessId}/${month}.ndjson.gz`;
export const manifestKey = (businessId: string, month: string) => `${businessId}/${month}.manifest.json`;

/** The reference index's key: the first 48 bits of SHA-256(reference), a safe integer. */
export async function referenceHash(reference: string): Promise<number> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(reference));
  return parseInt(hex(new Uint8Array(digest, 0, 6)), 16);
}

export async function sha256Bytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

/** Gzips lines given page by page; the compressed bytes are gathered as they come (a month's object is a few MB). */
export async function gzipLines(pages: AsyncIterable<string>): Promise<Uint8Array<ArrayBuffer>> {
  const compression = new CompressionStream("gzip");
  const gathered = new Response(compression.readable).arrayBuffer();
  const writer = compression.writable.getWriter();
  const encoder = new TextEncoder();
  try {
    for await (const text of pages) if (text) await writer.write(encoder.encode(text));
    await writer.close();
  } catch (error) {
    await writer.abort(error);
    throw error;
  }
  return new Uint8Array(await gathered);
}

/** The object's payments, line by line, as they are unzipped (a whole month never sits in memory). */
export async function* readLines(gzipped: ReadableStream<unknown>): AsyncGenerator<ArchivedPayment> {
  // (The DOM and Workers typings of the stream's chunks differ; both are bytes.)
  const reader = (gzipped as ReadableStream<BufferSource>).pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += value;
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line) yield JSON.parse(line) as ArchivedPayment;
    }
    if (rest) yield JSON.parse(rest) as ArchivedPayment;
  } finally {
    reader.releaseLock();
  }
}

/** Counts a month's figures line by line, the way monthFigures counts them in SQL (a month never sits in memory). */
export class FiguresCounter {
  private readonly totals = { payments: 0, successful: 0, gross: 0, fees: 0, amountSum: 0, feeSum: 0, entries: 0, entryDebits: 0, settlementItems: 0 };
  private readonly accounts = new Map<string, { entries: number; amount: number }>();

  add({ t, e, s }: ArchivedPayment): void {
    const totals = this.totals;
    totals.payments += 1;
    totals.amountSum += t.amount;
    totals.feeSum += t.fee;
    if (t.status === "successful") {
      totals.successful += 1;
      totals.gross += t.amount;
      totals.fees += t.fee;
    }
    if (s) totals.settlementItems += 1;
    for (const entry of e) {
      totals.entries += 1;
      if (entry.amount > 0) totals.entryDebits += entry.amount;
      const account = this.accounts.get(entry.account_id) ?? { entries: 0, amount: 0 };
      account.entries += 1;
      account.amount += entry.amount;
      this.accounts.set(entry.account_id, account);
    }
  }

  figures(): MonthFigures {
    const accounts = [...this.accounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([accountId, a]) => ({ accountId, ...a }));
    return { ...this.totals, accounts };
  }
}

export function figuresOf(lines: Iterable<ArchivedPayment>): MonthFigures {
  const counter = new FiguresCounter();
  for (const line of lines) counter.add(line);
  return counter.figures();
}

/** An archived payment as the screens and the CSV show a payment. */
export function asTransaction(t: PaymentRow): Transaction {
  return {
    id: t.id,
    reference: t.reference,
    merchantId: t.merchant_id,
    pointOfSaleId: t.point_of_sale_id,
    terminalId: t.terminal_id,
    channel: t.channel,
    network: t.network,
    amount: t.amount,
    fee: t.fee,
    status: t.status,
    cardBin: t.card_bin,
    cardLast4: t.card_last4,
    customerMsisdn: t.customer_msisdn,
    createdAt: t.created_at,
    clearedAt: t.cleared_at,
    failureReason: t.failure_reason,
    reversalReason: t.reversal_reason,
    reversedAt: t.reversed_at,
  };
}
