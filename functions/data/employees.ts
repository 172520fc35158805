import type { Role } from "../permissions";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "./page";
import type { Tenant } from "./tenant";

/** A person's membership of the business: their role and status there. */
export interface Employee {
  userId: string;
  email: string;
  name: string;
  gender: "female" | "male" | "unspecified";
  role: Role;
  status: "active" | "invited" | "deactivated";
  phones: string[];
  createdAt: string;
  version: number;
}

type Row = Omit<Employee, "phones"> & { phones: string | null };

const SELECT = `SELECT u.id AS userId, u.email, u.name, u.gender, m.role, m.status, m.created_at AS createdAt, m.version,
  (SELECT group_concat(p.msisdn) FROM user_phones p WHERE p.user_id = u.id) AS phones
  FROM memberships m JOIN users u ON u.id = m.user_id`;

const toEmployee = (row: Row): Employee => ({ ...row, phones: row.phones ? row.phones.split(",").sort() : [] });

export async function getEmployee(tenant: Tenant, db: D1Database, userId: string): Promise<Employee | null> {
  const row = await db.prepare(`${SELECT} WHERE m.business_id = ? AND m.user_id = ?`).bind(tenant.businessId, userId).first<Row>();
  return row ? toEmployee(row) : null;
}

export async function listEmployees(tenant: Tenant, db: D1Database, query: PageQuery & { status?: Employee["status"] } = {}): Promise<Page<Employee>> {
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
    .all<Row>();
  return toPage(results.map(toEmployee), size, (e) => [e.name, e.userId]);
}
