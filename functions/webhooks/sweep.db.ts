// The 5-minute sweep's reads of terminals (sweep.ts): which went silent and are not yet announced, and the mark that
// announces a silence once.
import type { BusinessDb } from "../tenancy/tenant";
import { SILENT_SQL, TERMINAL_COLUMNS, type Terminal } from "../merchants/terminals.db";

/** The whole terminal: terminal.silent carries it as GET /api/v1/terminals lists it. */
export type SilentTerminal = Terminal;

/** Terminals silent (the fleet's one rule) since before `silentBefore`, not yet announced for this silence. */
export async function silentTerminalsToAnnounce({ businessId, db }: BusinessDb, silentBefore: number, limit: number): Promise<SilentTerminal[]> {
  const { results } = await db
    .prepare(
      `SELECT ${TERMINAL_COLUMNS} FROM terminals
       WHERE business_id = ? AND ${SILENT_SQL}
         AND (silent_announced_seen_at IS NULL OR silent_announced_seen_at <> coalesce(last_seen_at, -1))
       ORDER BY serial LIMIT ?`,
    )
    .bind(businessId, silentBefore, limit)
    .all<SilentTerminal>();
  return results;
}

/** For the batch that emits terminal.silent: this silence (its last_seen_at) is announced. */
export function markSilentAnnouncedStatement({ businessId, db }: BusinessDb, terminal: Pick<SilentTerminal, "id" | "lastSeenAt">): D1PreparedStatement {
  return db
    .prepare("UPDATE terminals SET silent_announced_seen_at = ? WHERE id = ? AND business_id = ?")
    .bind(terminal.lastSeenAt ?? -1, terminal.id, businessId);
}
