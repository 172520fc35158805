// The audit log: who did what, when, from where, before and after. Entries are
// written as statements inside the same batch as the change they describe, and
// this module exports no way to change or remove one (the table's triggers
// refuse UPDATE and DELETE as well).
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "./page";
import { nowIso, type RequestMeta, type Tenant, type Db } from "./tenant";

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
