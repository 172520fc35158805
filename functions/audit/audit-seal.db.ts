// The audit chain's SQL (decision 025; the hashing is functions/audit/audit-chain.ts): reading a chain, and sealing its
// entries, the one change the audit_log table allows (once per entry, from no hash to its hash; migration 0021).
// Apart from functions/audit/audit.db.ts, whose exports only read entries and write new ones.
import type { Db } from "../tenancy/tenant";

/** An entry as its chain covers it: the stored text of each column, not parsed. */
export interface ChainEntry {
  id: number;
  businessId: string | null;
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  beforeJson: string | null;
  afterJson: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  createdAt: string;
  prevHash: string | null;
  hash: string | null;
}

interface ChainRow {
  id: number;
  business_id: string | null;
  actor_id: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: string;
  prev_hash: string | null;
  hash: string | null;
}

const CHAIN_COLUMNS = "id, business_id, actor_id, action, entity, entity_id, before_json, after_json, ip, user_agent, request_id, created_at, prev_hash, hash";

function toChainEntry(row: ChainRow): ChainEntry {
  return {
    id: row.id,
    businessId: row.business_id,
    actorId: row.actor_id,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    beforeJson: row.before_json,
    afterJson: row.after_json,
    ip: row.ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    createdAt: row.created_at,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

// A chain is the entries of one business_id (or of none: `IS ?` matches NULL) in one database, in id order.

/** The chain's first unsealed entries, in id order (the partial index audit_log_unsealed). */
export async function unsealedEntries(db: Db, businessId: string | null, limit: number): Promise<ChainEntry[]> {
  const { results } = await db
    .prepare(`SELECT ${CHAIN_COLUMNS} FROM audit_log WHERE business_id IS ? AND hash IS NULL ORDER BY id LIMIT ?`)
    .bind(businessId, limit)
    .all<ChainRow>();
  return results.map(toChainEntry);
}

/** The hash of the chain's entry just before `id`; null when there is none (the chain starts at `id`). */
export async function lastSealedBefore(db: Db, businessId: string | null, id: number): Promise<string | null> {
  const row = await db
    .prepare("SELECT hash FROM audit_log WHERE business_id IS ? AND id < ? ORDER BY id DESC LIMIT 1")
    .bind(businessId, id)
    .first<{ hash: string | null }>();
  if (!row) return null;
  // Sealing goes in id order, one batch at a time: an unsealed entry before an unsealed one is a fault, never sealed over.
  if (row.hash === null) throw new Error(`audit_log: an unsealed entry precedes ${id} in the chain of ${businessId ?? "no business"}`);
  return row.hash;
}

/** The one UPDATE the table's trigger allows: an unsealed entry gets its two hashes. */
export function sealStatements(db: Db, businessId: string | null, seals: readonly { id: number; prevHash: string; hash: string }[]): D1PreparedStatement[] {
  return seals.map((seal) =>
    db
      .prepare("UPDATE audit_log SET prev_hash = ?, hash = ? WHERE id = ? AND business_id IS ? AND hash IS NULL")
      .bind(seal.prevHash, seal.hash, seal.id, businessId),
  );
}

/** The chains of a database with entries waiting to be sealed (the partial index; the 5-minute cron visits every business). */
export async function auditChainsToSeal(db: Db): Promise<(string | null)[]> {
  const { results } = await db.prepare("SELECT DISTINCT business_id FROM audit_log WHERE hash IS NULL").all<{ business_id: string | null }>();
  return results.map((row) => row.business_id);
}

/** A page of a chain after entry `afterId`, in id order (the verifier). */
export async function chainPage(db: Db, businessId: string | null, afterId: number, limit: number): Promise<ChainEntry[]> {
  const { results } = await db
    .prepare(`SELECT ${CHAIN_COLUMNS} FROM audit_log WHERE business_id IS ? AND id > ? ORDER BY id LIMIT ?`)
    .bind(businessId, afterId, limit)
    .all<ChainRow>();
  return results.map(toChainEntry);
}
