// How rows reach D1: one INSERT … SELECT over json_each(?) per slice of rows,
// the rows bound as a single JSON text. That stays inside D1's limits (100
// bound parameters and 100 KB of SQL per statement, 2 MB per string) however
// many rows a table has, and SQLite unpacks the JSON far faster than it would
// parse the same rows as SQL literals.
import { COLUMNS, rowValues, type Chunk, type TableName } from "./tables";

/** Characters of JSON per statement: well under D1's 2 MB string limit. */
export const MAX_JSON_CHARS = 900_000;

export function insertSql(table: TableName): string {
  const columns = COLUMNS[table];
  return `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${columns.map((_, i) => `value->>${i}`).join(", ")} FROM json_each(?)`;
}

/** The rows of a chunk as JSON arrays of column values, each at most MAX_JSON_CHARS long (unless one row is longer). */
export function* jsonSlices(chunk: Chunk, maxChars: number = MAX_JSON_CHARS): Generator<{ json: string; rows: number }> {
  let parts: string[] = [];
  let chars = 2;
  for (const row of chunk.rows) {
    const json = JSON.stringify(rowValues(chunk.table, row as never));
    if (parts.length > 0 && chars + json.length + 1 > maxChars) {
      yield { json: `[${parts.join(",")}]`, rows: parts.length };
      parts = [];
      chars = 2;
    }
    parts.push(json);
    chars += json.length + 1;
  }
  if (parts.length > 0) yield { json: `[${parts.join(",")}]`, rows: parts.length };
}
