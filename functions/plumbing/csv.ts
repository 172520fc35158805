// CSV downloads of a whole filtered list, streamed page by page (keyset), so a
// large export never sits in memory and the first bytes leave at once.

/** A page of a keyset list (functions/lists/page.ts Page): its rows and the cursor of the next, null on the last. */
export interface CsvPage<Row> {
  rows: readonly Row[];
  next: string | null;
}

/**
 * One CSV field (RFC 4180 quoting). A text that a spreadsheet would run as a
 * formula (=, +, -, @, tab, CR at the start) gets a leading apostrophe: an
 * exported merchant name must not become a command in someone's Excel.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** The last line of an export whose later page failed (the download then errors). */
export const INCOMPLETE = "EXPORT INCOMPLETE: the rest of this list could not be read. Download it again.";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/**
 * A text/csv download of every row `load` pages through, from the first page to the last.
 *
 * The first page is read before the answer is made, so a query that fails is the loader's error (a 5xx page,
 * never a 200 with a header row and nothing else). A later page that fails errors the stream: the download
 * breaks off as failed in the browser (after a last line that says so), rather than ending as if the list were
 * shorter. Each pull enqueues or closes, so an empty list is the header row alone and the answer ends.
 */
export async function csvResponse<Row>(
  filename: string,
  columns: readonly CsvColumn<Row>[],
  load: (after: string | null) => Promise<CsvPage<Row>>,
): Promise<Response> {
  const encoder = new TextEncoder();
  const lines = (rows: readonly Row[]) => rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join("");
  const first = await load(null);
  let after = first.next;
  let failed: { error: unknown } | null = null;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte-order mark, so Excel reads the UTF-8 names (Ɛ, Ɔ) right.
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(columns.map((c) => c.header))}${lines(first.rows)}`));
      if (!after) controller.close();
    },
    async pull(controller) {
      if (failed) throw failed.error;
      try {
        // A pull that neither enqueues nor closes is never called again: the download would hang.
        while (after) {
          const page = await load(after);
          after = page.next;
          if (page.rows.length) {
            controller.enqueue(encoder.encode(lines(page.rows)));
            break;
          }
        }
      } catch (error) {
        // Said in the file too: a proxy or runtime may end a broken download as if it were complete.
        failed = { error };
        controller.enqueue(encoder.encode(csvLine([INCOMPLETE])));
        return;
      }
      if (!after) controller.close();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}
