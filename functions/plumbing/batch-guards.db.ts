// batch_guards is a scratch table whose CHECK rolls a whole D1 batch back when a
// guard row says no; a batch that writes one empties it as its last statement.
// It belongs to no business, so this takes db only.
import type { Db } from "./d1-coalesce";

export function clearBatchGuardsStatement(db: Db): D1PreparedStatement {
  return db.prepare("DELETE FROM batch_guards");
}

/** A guard row: the batch goes on only if `conditionSql` (a SELECT of one value) is true; NULL is false. */
export function guardStatement(db: Db, conditionSql: string, reason: string, ...binds: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO batch_guards (ok, reason) VALUES (coalesce((${conditionSql}), 0), ?)`).bind(...binds, reason);
}

/**
 * A batch D1 refused by a constraint (a guard row's CHECK, a UNIQUE, a NOT NULL): it rolled back whole, nothing was
 * written. The caller says why in the person's words; anything else (D1 unreachable) is a fault and is rethrown.
 */
export function isConstraintRefusal(error: unknown): boolean {
  return error instanceof Error && /\b(CHECK|UNIQUE|NOT NULL|FOREIGN KEY) constraint failed\b/.test(error.message);
}
