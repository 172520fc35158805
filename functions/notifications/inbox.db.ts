// A person's notices in the portal (decision 053): the bell's count, the list at /notifications, reading one.
// Every statement names the business and the person: a notice is only ever its own person's.
import { decodeCursor, pageSize, toPage, type Page } from "../lists/page";
import type { BusinessDb, Tenant } from "../tenancy/tenant";
import type { NotificationKind } from "./kinds";

export interface Notice {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** The record it is about (a request) and its kind: where following it leads (app/lib/paths.ts approvalPath). */
  subjectId: string;
  subjectKind: string;
  createdAt: string;
  readAt: string | null;
  /** Nothing is left to act on (someone decided the request). */
  settledAt: string | null;
}

const COLUMNS =
  "id, kind, title, body, subject_id AS subjectId, subject_kind AS subjectKind, created_at AS createdAt, read_at AS readAt, settled_at AS settledAt";

/** The bell's count: notices neither read nor settled. One indexed read, in the shell's batch. */
export function unreadCountStatement(business: BusinessDb, userId: string): D1PreparedStatement {
  return business.db
    .prepare("SELECT COUNT(*) AS n FROM notifications WHERE business_id = ? AND user_id = ? AND read_at IS NULL AND settled_at IS NULL")
    .bind(business.businessId, userId);
}

/** The person's notices, newest first, in keyset pages; `unread` keeps those still to look at. */
export async function listNotices(tenant: Tenant, query: { after?: string | null; unread?: boolean; limit?: number } = {}): Promise<Page<Notice>> {
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const where = ["business_id = ?", "user_id = ?"];
  const binds: unknown[] = [tenant.businessId, tenant.userId];
  if (query.unread) where.push("read_at IS NULL AND settled_at IS NULL");
  if (after) {
    where.push("(created_at, id) < (?, ?)");
    binds.push(...after);
  }
  const { results } = await tenant.db
    .prepare(`SELECT ${COLUMNS} FROM notifications WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(...binds, size + 1)
    .all<Notice>();
  return toPage(results, size, (row) => [row.createdAt, row.id]);
}

/** Marks one notice read and gives it (where it leads); null when it is not this person's (a 404 to them). */
export async function openNotice(tenant: Tenant, id: string, now: number): Promise<Notice | null> {
  return tenant.db
    .prepare(`UPDATE notifications SET read_at = coalesce(read_at, ?) WHERE business_id = ? AND user_id = ? AND id = ? RETURNING ${COLUMNS}`)
    .bind(new Date(now).toISOString(), tenant.businessId, tenant.userId, id)
    .first<Notice>();
}

/** Marks every notice of the person read: how many were not yet. */
export async function markAllRead(tenant: Tenant, now: number): Promise<number> {
  const result = await tenant.db
    .prepare("UPDATE notifications SET read_at = ? WHERE business_id = ? AND user_id = ? AND read_at IS NULL")
    .bind(new Date(now).toISOString(), tenant.businessId, tenant.userId)
    .run();
  return result.meta.changes ?? 0;
}
