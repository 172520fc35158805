// The audit chain (decision 025): each audit entry carries the hash of the entry before it of its business in the
// same database, so changing, removing or reordering one breaks every link after it. D1 cannot hash in SQL, so
// entries are written unsealed in the batch of their change and sealed here soon after; the verifier
// (npm run audit:verify) walks a chain with the pure part of this module.
import { auditChainsToSeal, chainPage, lastSealedBefore, sealStatements, unsealedEntries, type ChainEntry } from "./audit-seal.db";
import { isBusinessMoving, type Db } from "../tenancy/tenant";

export type { ChainEntry };

/** The prev_hash of a chain's first entry. */
export const GENESIS = "0".repeat(64);

/**
 * The bytes an entry's hash covers: every column a person reads, in a fixed order, and the previous hash. Not the
 * id: a business's move to another database renumbers its entries (functions/tenancy/shard-copy.db.ts) and keeps their order.
 * JSON of an array, so no field's text can pass for another's.
 */
export function canonicalEntry(entry: ChainEntry, prevHash: string): string {
  return JSON.stringify([
    "pp-audit-1",
    prevHash,
    entry.businessId,
    entry.actorId,
    entry.action,
    entry.entity,
    entry.entityId,
    entry.beforeJson,
    entry.afterJson,
    entry.ip,
    entry.userAgent,
    entry.requestId,
    entry.createdAt,
  ]);
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** SHA-256 (hex) of the entry after `prevHash`. */
export async function entryHash(entry: ChainEntry, prevHash: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonicalEntry(entry, prevHash))));
}

/** The first entry whose link does not hold, and why. */
export interface BrokenLink {
  entry: ChainEntry;
  /** "link": its prev_hash is not the hash of the entry before it (one removed or moved); "content": it was changed; "order": sealed after an unsealed one. */
  kind: "link" | "content" | "order";
  expected: string | null;
  found: string | null;
}

export type ChainReport = { ok: true; sealed: number; unsealed: number } | { ok: false; sealed: number; unsealed: number; broken: BrokenLink };

/**
 * Walks one chain in id order, a page at a time (push), and says whether it holds. Entries not sealed yet may only
 * form the tail (the sealer seals in order); they are counted, not called broken.
 */
export class ChainWalker {
  private previous = GENESIS;
  private sealed = 0;
  private unsealed = 0;
  private broken: BrokenLink | null = null;

  /** Checks the next entries; false once a link is broken (the rest need not be read). */
  async push(entries: readonly ChainEntry[]): Promise<boolean> {
    for (const entry of entries) {
      if (this.broken) return false;
      if (entry.hash === null) {
        this.unsealed += 1;
        continue;
      }
      if (this.unsealed > 0) {
        this.broken = { entry, kind: "order", expected: null, found: entry.hash };
      } else if (entry.prevHash !== this.previous) {
        this.broken = { entry, kind: "link", expected: this.previous, found: entry.prevHash };
      } else {
        const expected = await entryHash(entry, entry.prevHash);
        if (expected !== entry.hash) this.broken = { entry, kind: "content", expected, found: entry.hash };
        else {
          this.previous = entry.hash;
          this.sealed += 1;
        }
      }
    }
    return this.broken === null;
  }

  report(): ChainReport {
    const counts = { sealed: this.sealed, unsealed: this.unsealed };
    return this.broken ? { ok: false, ...counts, broken: this.broken } : { ok: true, ...counts };
  }
}

/** One chain, walked whole: what the unit tests and small chains use. */
export async function verifyChain(entries: readonly ChainEntry[]): Promise<ChainReport> {
  const walker = new ChainWalker();
  await walker.push(entries);
  return walker.report();
}

/** Entries sealed in one batch; a longer backlog takes several. */
const SEAL_BATCH = 200;

/**
 * Seals the unsealed entries of one chain (a business's, or the entries of no business: `null`) in one database, in
 * id order. Two sealers at once compute the same hashes, and each UPDATE applies only to an entry still unsealed,
 * so they cannot fork the chain. Cheap when there is nothing to seal: one probe of the partial index.
 */
export async function sealChain(db: Db, businessId: string | null): Promise<number> {
  let total = 0;
  for (;;) {
    const entries = await unsealedEntries(db, businessId, SEAL_BATCH);
    const first = entries[0];
    if (!first) return total;
    let previous = (await lastSealedBefore(db, businessId, first.id)) ?? GENESIS;
    const seals: { id: number; prevHash: string; hash: string }[] = [];
    for (const entry of entries) {
      const hash = await entryHash(entry, previous);
      seals.push({ id: entry.id, prevHash: previous, hash });
      previous = hash;
    }
    await db.batch(sealStatements(db, businessId, seals));
    total += entries.length;
    if (entries.length < SEAL_BATCH) return total;
  }
}

/** Seals every chain of a database that has unsealed entries (the 5-minute cron; the core database after a request). */
export async function sealDatabase(db: Db): Promise<number> {
  let total = 0;
  for (const businessId of await auditChainsToSeal(db)) {
    try {
      total += await sealChain(db, businessId);
    } catch (error) {
      // A business being moved refuses the seal (its fence); it is sealed on its new database. The others still are.
      if (!isBusinessMoving(error)) throw error;
    }
  }
  return total;
}

/** Walks one chain of a database from its first entry, a page at a time, stopping at the first broken link. */
export async function verifyStoredChain(db: Db, businessId: string | null, pageSize = 500): Promise<ChainReport> {
  const walker = new ChainWalker();
  let after = 0;
  for (;;) {
    const entries = await chainPage(db, businessId, after, pageSize);
    if (!(await walker.push(entries)) || entries.length < pageSize) return walker.report();
    after = entries.at(-1)!.id;
  }
}

/** Where a business's entries are: its own database, and the core one for its sign-in events (the same when it lives there). */
export interface BusinessChains {
  businessId: string;
  /** The binding of the business's database (decision 021). */
  shard: string;
  business: Db;
  core: Db;
}

/** Both chains of a business: `audit:verify`'s answer. */
export async function verifyBusinessChains(chains: BusinessChains): Promise<{ database: string; report: ChainReport }[]> {
  const reports = [{ database: chains.shard, report: await verifyStoredChain(chains.business, chains.businessId) }];
  if (chains.shard !== "DB") reports.push({ database: "DB", report: await verifyStoredChain(chains.core, chains.businessId) });
  return reports;
}

/** The platform's own chain (decision 039): the core database's entries of no business. `audit:verify --platform`'s answer. */
export async function verifyPlatformChain(core: Db): Promise<{ database: string; report: ChainReport }[]> {
  return [{ database: "DB", report: await verifyStoredChain(core, null) }];
}
