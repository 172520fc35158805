// Where a piece of text is stored in a portal's D1: every row of every table is
// read as text, blobs included (cast to text, as their bytes read), so a secret
// found here was written somewhere, even inside a stored answer.

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
