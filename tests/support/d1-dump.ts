// Where a piece of text is stored in a portal's D1: every row of every table is
// read as text, blobs included (cast to text, as their bytes read), so a secret
// found here was written somewhere, even inside a stored answer.
import { normaliseDigits } from "#server/card-numbers/card-numbers";

/** The tables holding `text` anywhere in any row. */
export async function tablesHolding(db: D1Database, text: string): Promise<string[]> {
  const { results: tables } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
    )
    .all<{ name: string }>();
  const holding: string[] = [];
  for (const { name } of tables) {
    const { results: columns } = await db.prepare("SELECT name FROM pragma_table_info(?)").bind(name).all<{ name: string }>();
    const cast = columns.map((column) => `CAST("${column.name}" AS TEXT)`).join(", ");
    const rows = await db.prepare(`SELECT ${cast} FROM "${name}"`).raw();
    if (JSON.stringify(rows).includes(text)) holding.push(name);
  }
  return holding;
}

/**
 * The tables holding any of these digit strings in any spelling: each cell read as a person reads its digits
 * (functions/card-numbers/card-numbers.ts normaliseDigits: every numeral of one digit, NFKC, every script's digits as ASCII) with everything but its digits
 * dropped, so "4111.1111.1111.1111", "٤١١١ ١١١١ ١١١١ ١١١١" and "card 4111\u200b1111..." all read 4111111111111111.
 */
export async function tablesHoldingDigits(db: D1Database, digitStrings: readonly string[]): Promise<string[]> {
  const { results: tables } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
    )
    .all<{ name: string }>();
  const holding: string[] = [];
  for (const { name } of tables) {
    const { results: columns } = await db.prepare("SELECT name FROM pragma_table_info(?)").bind(name).all<{ name: string }>();
    const cast = columns.map((column) => `CAST("${column.name}" AS TEXT)`).join(", ");
    const rows = await db.prepare(`SELECT ${cast} FROM "${name}"`).raw<(string | null)[]>();
    const found = rows.some((row) =>
      row.some((cell) => {
        const digits = cell === null ? "" : onlyDigits(cell);
        return digitStrings.some((wanted) => digits.includes(wanted));
      }),
    );
    if (found) holding.push(name);
  }
  return holding;
}

/** The digits of a text in any script, nothing else. */
export function onlyDigits(text: string): string {
  return normaliseDigits(text).replace(/[^0-9]/g, "");
}
