import type { Role } from "../permissions";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textContains } from "../lists/search";
import type { Tenant } from "../tenancy/tenant";

/**
 * A person's membership of the business: their role and status there, and the number the business typed for them (its
 * contact number, decision 029). Never the person's sign-in phones: those are the person's, not the business's to read.
 */
export interface Employee {
  userId: string;
  email: string;
  name: string;
  gender: "female" | "male" | "unspecified";
  role: Role;
  status: "active" | "invited" | "deactivated";
  /** What the business typed when it invited the person; null for a membership older than migration 0025. */
  contactPhone: string | null;
  createdAt: string;
  version: number;
}

const SELECT = `SELECT u.id AS userId, u.email, u.name, u.gender, m.role, m.status, m.created_at AS createdAt, m.version, m.contact_phone AS contactPhone
  FROM memberships m JOIN users u ON u.id = m.user_id`;

export async function getEmployee(tenant: Tenant, userId: string): Promise<Employee | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE m.business_id = ? AND m.user_id = ?`).bind(tenant.businessId, userId).first<Employee>();
}

export async function listEmployees(tenant: Tenant, query: PageQuery & { status?: Employee["status"] } = {}): Promise<Page<Employee>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const where = ["m.business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.status) {
    where.push("m.status = ?");
    binds.push(query.status);
  }
  if (after) {
    where.push("(u.name COLLATE NOCASE > ? OR (u.name COLLATE NOCASE = ? AND u.id > ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const { results } = await db
    .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY u.name COLLATE NOCASE, u.id LIMIT ?`)
    .bind(...binds, size + 1)
    .all<Employee>();
  return toPage(results, size, (e) => [e.name, e.userId]);
}

/**
 * The business's people whose name or email holds `text`, or whose contact number ends in `phoneTail` (digits), by
 * name, at most `limit` (the top bar's search). Either may be left out; with neither there is nothing to find.
 */
export async function findEmployees(tenant: Tenant, query: { text?: string; phoneTail?: string; limit: number }): Promise<Employee[]> {
  const { db } = tenant;
  const ways: string[] = [];
  const binds: unknown[] = [tenant.businessId];
  if (query.text?.trim()) {
    const match = textContains(["u.name", "u.email"], query.text.trim());
    ways.push(match.sql);
    binds.push(...match.binds);
  }
  if (query.phoneTail) {
    ways.push("(m.contact_phone IS NOT NULL AND substr(m.contact_phone, -length(?)) = ?)");
    binds.push(query.phoneTail, query.phoneTail);
  }
  if (ways.length === 0) return [];
  const { results } = await db
    .prepare(`${SELECT} WHERE m.business_id = ? AND (${ways.join(" OR ")}) ORDER BY u.name COLLATE NOCASE, u.id LIMIT ?`)
    .bind(...binds, Math.max(1, Math.floor(query.limit)))
    .all<Employee>();
  return results;
}

/** How many people the business has (for the list's count and its last page). */
export async function countEmployees(tenant: Tenant): Promise<number> {
  const { db } = tenant;
  return (await db.prepare("SELECT COUNT(*) AS n FROM memberships WHERE business_id = ?").bind(tenant.businessId).first<number>("n")) ?? 0;
}

/** A change to an employee waiting for a checker. */
export interface PendingEmployeeChange {
  requestId: string;
  targetId: string;
  action: "create" | "update" | "deactivate";
  after: Record<string, string | number | null>;
  makerName: string;
  madeAt: string;
}

interface PendingRow {
  requestId: string;
  targetId: string;
  action: PendingEmployeeChange["action"];
  afterJson: string;
  makerName: string;
  madeAt: string;
}

const toPending = (row: PendingRow): PendingEmployeeChange => ({
  requestId: row.requestId,
  targetId: row.targetId,
  action: row.action,
  after: JSON.parse(row.afterJson) as PendingEmployeeChange["after"],
  makerName: row.makerName,
  madeAt: row.madeAt,
});

const SELECT_PENDING = `SELECT r.id AS requestId, r.target_id AS targetId, r.action, r.after_json AS afterJson, mk.name AS makerName, r.made_at AS madeAt
  FROM approval_requests r JOIN memberships mkm ON mkm.business_id = r.business_id AND mkm.user_id = r.maker_id JOIN users mk ON mk.id = mkm.user_id`;

/** The pending request (at most one each) on these employees, by user id. */
export async function pendingChangesFor(tenant: Tenant, userIds: readonly string[]): Promise<Map<string, PendingEmployeeChange>> {
  const { db } = tenant;
  if (userIds.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `${SELECT_PENDING} WHERE r.business_id = ? AND r.kind = 'employee' AND r.status = 'pending'
       AND r.target_id IN (SELECT value FROM json_each(?))`,
    )
    // One JSON array, not a ? per id: D1 binds at most 100 parameters a statement.
    .bind(tenant.businessId, JSON.stringify([...userIds]))
    .all<PendingRow>();
  return new Map(results.map((row) => [row.targetId, toPending(row)]));
}

/** Invitations waiting for a checker, newest first: the people are not employees until one approves. */
export async function listPendingInvites(tenant: Tenant, limit = 50): Promise<PendingEmployeeChange[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `${SELECT_PENDING} WHERE r.business_id = ? AND r.kind = 'employee' AND r.status = 'pending' AND r.action = 'create' ORDER BY r.made_at DESC, r.id DESC LIMIT ?`,
    )
    .bind(tenant.businessId, pageSize(limit))
    .all<PendingRow>();
  return results.map(toPending);
}

/**
 * Why this email cannot be invited to the business, or null: it belongs to an
 * employee already, or an invitation for it waits for approval (the engine
 * would accept a second one, with a new user id each time, and the later
 * approval would fail).
 */
export async function emailTakenInBusiness(tenant: Tenant, email: string): Promise<"employee" | "invited" | null> {
  const { db } = tenant;
  const normalized = email.trim().toLowerCase();
  const [member, invited] = await db.batch<{ one: number }>([
    db
      .prepare("SELECT 1 AS one FROM users u JOIN memberships m ON m.user_id = u.id AND m.business_id = ? WHERE u.email = ?")
      .bind(tenant.businessId, normalized),
    db
      .prepare(
        `SELECT 1 AS one FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND status = 'pending' AND action = 'create'
         AND json_extract(after_json, '$.email') = ? LIMIT 1`,
      )
      .bind(tenant.businessId, normalized),
  ]);
  if (member?.results.length) return "employee";
  if (invited?.results.length) return "invited";
  return null;
}
