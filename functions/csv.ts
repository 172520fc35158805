// CSV downloads of a whole filtered list, streamed page by page (keyset), so a
// large export never sits in memory and the first bytes leave at once.
import type { Page } from "./data/page";

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

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/** A text/csv download of every row `load` pages through, from the first page to the last. */
export function csvResponse<Row>(filename: string, columns: readonly CsvColumn<Row>[], load: (after: string | null) => Promise<Page<Row>>): Response {
  const encoder = new TextEncoder();
  let after: string | null = null;
  let started = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // A byte-order mark, so Excel reads the UTF-8 names (Ɛ, Ɔ) right.
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(columns.map((c) => c.header))}`));
        return;
      }
      if (done) {
        controller.close();
        return;
      }
      const page = await load(after);
      if (page.rows.length) controller.enqueue(encoder.encode(page.rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join("")));
      after = page.next;
      if (!after) done = true;
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
