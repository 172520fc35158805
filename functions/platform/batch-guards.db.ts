// batch_guards is a scratch table whose CHECK rolls a whole D1 batch back when a
// guard row says no; a batch that writes one empties it as its last statement.
// It belongs to no business, so this takes db only.
import type { Db } from "../tenancy/tenant";

export function clearBatchGuardsStatement(db: Db): D1PreparedStatement {
  return db.prepare("DELETE FROM batch_guards");
}

/** A guard row: the batch goes on only if `conditionSql` (a SELECT of one value) is true; NULL is false. */
export function guardStatement(db: Db, conditionSql: string, reason: string, ...binds: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO batch_guards (ok, reason) VALUES (coalesce((${conditionSql}), 0), ?)`).bind(...binds, reason);
}
