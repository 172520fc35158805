// The audit log: who did what, when, from where, before and after. Entries are
// written as statements inside the same batch as the change they describe, and
// this module exports no way to change or remove one (the table's triggers
// refuse UPDATE and DELETE as well). The one change allowed is sealing: an entry
// gets the hash of its chain once (decision 025), in functions/audit/audit-seal.db.ts.
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { nowIso, type RequestMeta, type Tenant, type Db } from "../tenancy/tenant";
import { DAY_MS, utcDay } from "../plumbing/time";

export interface AuditEntry {
  id: number;
  actorId: string | null;
  actorName: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  createdAt: string;
}

export interface AuditFacts {
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

const INSERT_AUDIT = `INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, before_json, after_json, ip, user_agent, request_id, created_at)`;

function auditValues(actor: SignInActor, meta: RequestMeta, facts: AuditFacts, at: string): unknown[] {
  return [
    actor.businessId,
    actor.userId,
    facts.action,
    facts.entity,
    facts.entityId ?? null,
    json(facts.before),
    json(facts.after),
    meta.ip,
    meta.userAgent,
    meta.requestId,
    at,
  ];
}

/** A statement that records one audited event for the tenant's business, for a batch. */
export function auditStatement(tenant: Tenant, meta: RequestMeta, facts: AuditFacts, at = nowIso()): D1PreparedStatement {
  const { db } = tenant;
  return signInAuditStatement(tenant, db, meta, facts, at);
}

/** Who a sign-in event concerns: the user when known, the business once one is chosen (null before). */
export interface SignInActor {
  userId: string | null;
  businessId: string | null;
}

/**
 * A statement that records one sign-in event (code sent, code failure, lockout,
 * logout, revocation). Before a business is chosen there is no tenant, so the
 * entry's business_id is null.
 */
export function signInAuditStatement(actor: SignInActor, db: Db, meta: RequestMeta, facts: AuditFacts, at = nowIso()): D1PreparedStatement {
  return db.prepare(`${INSERT_AUDIT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).bind(...auditValues(actor, meta, facts, at));
}

/**
 * The same entry, written only when the batch's previous statement changed a
 * row (SQLite's changes()): "revoked it" and "audited it" are then one fact.
 */
export function ifChangedAuditStatement(actor: SignInActor, db: Db, meta: RequestMeta, facts: AuditFacts, at = nowIso()): D1PreparedStatement {
  return db.prepare(`${INSERT_AUDIT} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0`).bind(...auditValues(actor, meta, facts, at));
}

/**
 * The same entry, unless the same person wrote one of the same action on the same record at `since` or later: a read
 * that is audited (a platform operator reading a business's figures) is one entry per visit, not one per reload or
 * revalidation. The look and the write are one statement, so two requests at once cannot both find none.
 */
export function unlessRecentAuditStatement(
  actor: SignInActor,
  db: Db,
  meta: RequestMeta,
  facts: AuditFacts,
  since: string,
  at = nowIso(),
): D1PreparedStatement {
  return db
    .prepare(
      `${INSERT_AUDIT} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
       WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE business_id IS ? AND entity = ? AND entity_id IS ? AND actor_id IS ? AND action = ? AND created_at >= ?)`,
    )
    .bind(...auditValues(actor, meta, facts, at), actor.businessId, facts.entity, facts.entityId ?? null, actor.userId, facts.action, since);
}

interface AuditRow {
  id: number;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: string;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    before: row.before_json === null ? null : JSON.parse(row.before_json),
    after: row.after_json === null ? null : JSON.parse(row.after_json),
    ip: row.ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    createdAt: row.created_at,
  };
}

/** The business's audit trail, newest first; optionally of one entity or one row. */
export async function listAudit(tenant: Tenant, query: PageQuery & { entity?: string; entityId?: string } = {}): Promise<Page<AuditEntry>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 1);
  const where = ["a.business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.entity) {
    where.push("a.entity = ?");
    binds.push(query.entity);
    if (query.entityId) {
      where.push("a.entity_id = ?");
      binds.push(query.entityId);
    }
  }
  if (after) {
    where.push("a.id < ?");
    binds.push(after[0]);
  }
  const { results } = await db
    .prepare(
      `SELECT a.id, a.actor_id, u.name AS actor_name, a.action, a.entity, a.entity_id, a.before_json, a.after_json, a.ip, a.user_agent, a.request_id, a.created_at
       FROM audit_log a LEFT JOIN memberships am ON am.business_id = a.business_id AND am.user_id = a.actor_id LEFT JOIN users u ON u.id = am.user_id
       WHERE ${where.join(" AND ")} ORDER BY a.id DESC LIMIT ?`,
    )
    .bind(...binds, size + 1)
    .all<AuditRow>();
  return toPage(results.map(toEntry), size, (entry) => [entry.id]);
}

// ---- The Audit tab: the business's entries from its database and the core one, merged ----

/** What the Audit tab narrows by; days are Africa/Accra days (UTC+0), `to` inclusive. */
export interface AuditFilter {
  actorId?: string;
  entity?: string;
  action?: string;
  fromDay?: string;
  toDay?: string;
}

/** Where an entry was written: the business's database, or the core one (sign-in events once a business was chosen). */
export type AuditSource = "business" | "core";

export interface AuditListEntry extends AuditEntry {
  source: AuditSource;
}

/** The merged list's order is (created_at, source, id), newest first: the core database's entries rank below at a tie. */
const SOURCE_RANK: Record<AuditSource, number> = { core: 0, business: 1 };

/** The next day of a YYYY-MM-DD day (the exclusive end of a period). */
function dayAfter(day: string): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
}

async function auditOf(
  db: Db,
  businessId: string,
  source: AuditSource,
  filter: AuditFilter,
  after: [string, number, number] | null,
  limit: number,
): Promise<AuditListEntry[]> {
  const where = ["business_id = ?"];
  const binds: unknown[] = [businessId];
  const equal = { actor_id: filter.actorId, entity: filter.entity, action: filter.action };
  for (const [column, value] of Object.entries(equal)) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    binds.push(value);
  }
  if (filter.fromDay) {
    where.push("created_at >= ?");
    binds.push(`${filter.fromDay}T00:00:00.000Z`);
  }
  if (filter.toDay) {
    where.push("created_at < ?");
    binds.push(`${dayAfter(filter.toDay)}T00:00:00.000Z`);
  }
  if (after) {
    // Below the cursor (created_at, rank, id) in this source: at the same instant, a lower-ranked source's every
    // entry (id below infinity), the same source's lower ids, a higher-ranked source's none.
    const [createdAt, rank, id] = after;
    const idBelow = SOURCE_RANK[source] < rank ? Number.MAX_SAFE_INTEGER : SOURCE_RANK[source] > rank ? 0 : id;
    where.push("(created_at < ? OR (created_at = ? AND id < ?))");
    binds.push(createdAt, createdAt, idBelow);
  }
  const { results } = await db
    .prepare(
      `SELECT id, actor_id, NULL AS actor_name, action, entity, entity_id, before_json, after_json, ip, user_agent, request_id, created_at
       FROM audit_log WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(...binds, limit)
    .all<AuditRow>();
  return results.map((row) => ({ ...toEntry(row), source }));
}

const newestFirst = (a: AuditListEntry, b: AuditListEntry) =>
  a.createdAt !== b.createdAt
    ? a.createdAt < b.createdAt
      ? 1
      : -1
    : SOURCE_RANK[a.source] !== SOURCE_RANK[b.source]
      ? SOURCE_RANK[b.source] - SOURCE_RANK[a.source]
      : b.id - a.id;

/**
 * Every audit entry of the tenant's business, newest first, in keyset pages over both of its sources: its own
 * database and, when that is not the core one (`core` null then), the core database's sign-in events of the business.
 * Names are the caller's (namesOf): a person is named through this business's membership only.
 */
export async function listBusinessAudit(tenant: Tenant, core: Db | null, query: AuditFilter & PageQuery = {}): Promise<Page<AuditListEntry>> {
  const size = pageSize(query.limit);
  const cursor = decodeCursor(query.after, 3);
  const after =
    cursor && typeof cursor[0] === "string" && typeof cursor[1] === "number" && typeof cursor[2] === "number"
      ? ([cursor[0], cursor[1], cursor[2]] as [string, number, number])
      : null;
  const [own, signIns] = await Promise.all([
    auditOf(tenant.db, tenant.businessId, "business", query, after, size + 1),
    core ? auditOf(core, tenant.businessId, "core", query, after, size + 1) : Promise.resolve([]),
  ]);
  const merged = own
    .concat(signIns)
    .sort(newestFirst)
    .slice(0, size + 1);
  return toPage(merged, size, (entry) => [entry.createdAt, SOURCE_RANK[entry.source], entry.id]);
}

/** The distinct values of an indexed column of the business's entries, one index probe each (a loose index scan, not a read of every entry). */
function distinctStatement(db: Db, businessId: string, column: "actor_id" | "entity" | "action"): D1PreparedStatement {
  return db
    .prepare(
      `WITH RECURSIVE v(value) AS (
         SELECT MIN(${column}) FROM audit_log WHERE business_id = ?
         UNION ALL SELECT (SELECT MIN(${column}) FROM audit_log WHERE business_id = ? AND ${column} > v.value) FROM v WHERE v.value IS NOT NULL
       ) SELECT value FROM v WHERE value IS NOT NULL`,
    )
    .bind(businessId, businessId);
}

/** The people, kinds of record and actions the business's log holds: the Audit tab's filter choices. */
export async function listAuditChoices(tenant: Tenant, core: Db | null): Promise<{ actorIds: string[]; entities: string[]; actions: string[] }> {
  const columns = ["actor_id", "entity", "action"] as const;
  const read = (db: Db) => db.batch(columns.map((column) => distinctStatement(db, tenant.businessId, column)));
  const sets = await Promise.all([read(tenant.db), core ? read(core) : Promise.resolve([])]);
  const values = (i: number) =>
    [...new Set(sets.flatMap((results) => ((results[i]?.results ?? []) as { value: string }[]).map((row) => row.value)))].sort((a, b) => a.localeCompare(b));
  return { actorIds: values(0), entities: values(1), actions: values(2) };
}
