// A list's CSV columns as the list shows its cells: each text with SPEC section 9's brand word replaced, as every
// table cell is (app/components/details.tsx shownValue), so a name reads the same on screen and in the file.
import type { CsvColumn } from "#server/plumbing/csv";
import { replaceBrandWords } from "#app/lib/format";

export function asShown<Row>(columns: readonly CsvColumn<Row>[]): CsvColumn<Row>[] {
  return columns.map((column) => ({
    header: column.header,
    value: (row) => {
      const value = column.value(row);
      return typeof value === "string" ? replaceBrandWords(value) : value;
    },
  }));
}
