// Moving one business to another database (decision 021; `npm run shard:move`). In order:
//   1. the directory notes the move (only one at a time per business) and a fence on the database it leaves refuses
//      every write of it there (migration 0013): people get "try again shortly", the Partner API's queued payments
//      wait in the queue, and nothing can land on the copy being taken;
//   2. its rows are copied, table by table, the database's own integer ids renumbered above the target's;
//   3. the copy is checked: rows per table and, per ledger account, the sum of its lines and its running sum;
//   4. only then the directory switches, and from the next request on the business is read and written there;
//   5. the rows left behind are removed; the fence stays, so a request that read the directory before the switch
//      still cannot write there.
// A copy that does not check out is removed again and the business stays where it was, writable.
import { abandonMove, businessPlace, finishMove, startMove } from "./directory.db";
import { businessFigures, businessRows, insertRowsStatement, MOVED_TABLES, removeBusinessRows, removeFence, renumberOffset, setFence } from "./shard-copy.db";
import type { Db } from "./tenant";

export interface MoveDatabases {
  core: Db;
  /** A database by its binding name (DB, SHARD_A, …). */
  database: (name: string) => Db;
}

export interface MoveReport {
  businessId: string;
  from: string;
  to: string;
  rows: Record<string, number>;
  accounts: number;
}

/** Thrown when a move cannot start or its copy does not match; nothing changed for the business. */
export class MoveRefused extends Error {
  override name = "MoveRefused";
}

export async function moveBusiness(
  databases: MoveDatabases,
  businessId: string,
  to: string,
  options: { pageSize?: number; now?: () => number; afterCopy?: () => Promise<void> } = {},
): Promise<MoveReport> {
  const pageSize = options.pageSize ?? 500;
  const now = () => new Date((options.now ?? Date.now)()).toISOString();
  const place = await businessPlace(databases.core, businessId);
  if (!place) throw new MoveRefused(`No business ${businessId} in the directory.`);
  if (place.shard === to) throw new MoveRefused(`${businessId} is already on ${to}.`);
  const source = databases.database(place.shard);
  const target = databases.database(to);
  if (!(await startMove(databases.core, businessId, to, now()))) throw new MoveRefused(`${businessId} is being moved already.`);
  try {
    await setFence(source, businessId, "moving", now());
    // Whatever an earlier, given-up move left on the target goes first (its audit lines may go only under a 'moved' fence).
    await setFence(target, businessId, "moved", now());
    await removeBusinessRows(target, businessId, pageSize);
    await removeFence(target, businessId);

    const offsets = new Map<string, number>();
    for (const copy of MOVED_TABLES) {
      offsets.set(copy.table, await renumberOffset(source, target, copy, businessId));
      for await (const rows of businessRows(source, copy, businessId, pageSize)) await insertRowsStatement(target, copy, rows, offsets).run();
    }
    await options.afterCopy?.();

    const [before, after] = await Promise.all([businessFigures(source, businessId), businessFigures(target, businessId)]);
    const mismatch = [
      ...Object.keys(before.rows)
        .filter((table) => before.rows[table] !== after.rows[table])
        .map((table) => `${table}: ${before.rows[table]} rows, copied ${after.rows[table]}`),
      ...Object.keys({ ...before.accounts, ...after.accounts })
        .filter((account) => JSON.stringify(before.accounts[account]) !== JSON.stringify(after.accounts[account]))
        .map((account) => `ledger account ${account}: ${JSON.stringify(before.accounts[account])}, copied ${JSON.stringify(after.accounts[account])}`),
    ];
    if (mismatch.length > 0) throw new MoveRefused(`The copy does not match; nothing was switched. ${mismatch.slice(0, 5).join("; ")}`);
    if (!(await finishMove(databases.core, businessId, to, now()))) throw new MoveRefused("The directory changed during the move; nothing was switched.");

    await setFence(source, businessId, "moved", now());
    await removeBusinessRows(source, businessId, pageSize);
    return { businessId, from: place.shard, to, rows: before.rows, accounts: Object.keys(before.accounts).length };
  } catch (error) {
    const current = await businessPlace(databases.core, businessId);
    if (current?.shard === place.shard) {
      // Not switched: the copy goes, the business stays where it was and takes writes again.
      await setFence(target, businessId, "moved", now());
      await removeBusinessRows(target, businessId, pageSize);
      await removeFence(target, businessId);
      await removeFence(source, businessId);
      await abandonMove(databases.core, businessId, to, now());
    }
    throw error;
  }
}
