// Events about people (decision 053): a member added, their role changed or their access removed (an approved
// employee request), and the sign-in and security events of the core's audit log: a sign-in from a browser the person
// never used before, a passkey, phone or authenticator app added or removed, a sign-out everywhere. Each is for the
// one person it concerns. Read back over the last day each run; what was told already is left out by its key.
import type { Db } from "../tenancy/tenant";
import type { BusinessDb } from "../tenancy/tenant";
import type { NotificationKind } from "./kinds";
import { memberWords, SECURITY_EVENTS, securityWords, type SecurityAction } from "./event-words";

/** An event for one person, or for every member whose role the kind is for (no `to`). */
export interface BusinessEvent {
  kind: NotificationKind;
  key: string;
  subject: string;
  subjectKind: string;
  title: string;
  body: string;
  to?: { userId: string; email: string; phone: string | null };
}

interface MemberChangeRow {
  id: string;
  action: "create" | "update" | "deactivate";
  target_id: string;
  before_role: string | null;
  after_role: string | null;
  typed_phone: string | null;
  email: string;
  maker_name: string | null;
  business_name: string | null;
}

/** People added, moved to another role or removed by a request approved since `since`. */
export async function memberEvents(business: BusinessDb, since: string, limit: number): Promise<BusinessEvent[]> {
  const { results } = await business.db
    .prepare(
      `SELECT r.id, r.action, r.target_id, json_extract(r.before_json, '$.role') AS before_role, json_extract(r.after_json, '$.role') AS after_role,
         coalesce(json_extract(r.after_json, '$.phone'), m.contact_phone) AS typed_phone, u.email, mk.name AS maker_name, b.name AS business_name
       FROM approval_requests r
       JOIN users u ON u.id = r.target_id
       LEFT JOIN memberships m ON m.business_id = r.business_id AND m.user_id = r.target_id
       LEFT JOIN users mk ON mk.id = r.maker_id
       LEFT JOIN businesses b ON b.id = r.business_id
       WHERE r.business_id = ? AND r.decided_at IS NOT NULL AND r.decided_at >= ? AND r.status = 'approved' AND r.kind = 'employee'
       ORDER BY r.decided_at, r.id
       LIMIT ?`,
    )
    .bind(business.businessId, since, limit)
    .all<MemberChangeRow>();
  return results.flatMap((row): BusinessEvent[] => {
    const action =
      row.action === "create"
        ? "added"
        : row.action === "deactivate"
          ? "removed"
          : row.after_role && row.after_role !== row.before_role
            ? "role_changed"
            : null;
    if (!action) return [];
    const words = memberWords({
      action,
      business: row.business_name ?? "the business",
      role: row.after_role ?? row.before_role ?? "",
      by: row.maker_name ?? "Someone",
    });
    const phone = typeof row.typed_phone === "string" && /^233\d{9}$/.test(row.typed_phone) ? row.typed_phone : null;
    return [
      {
        kind: `member.${action}`,
        key: `member.${action}:${row.id}`,
        subject: row.target_id,
        subjectKind: "member",
        ...words,
        to: { userId: row.target_id, email: row.email, phone },
      },
    ];
  });
}

interface SecurityRow {
  id: number;
  action: SecurityAction;
  actor_id: string;
  entity_id: string | null;
  user_agent: string | null;
  created_at: string;
  email: string;
  phone: string | null;
}

const SECURITY_ACTIONS = Object.keys(SECURITY_EVENTS) as SecurityAction[];

/**
 * The security events of people of this business since `since`, from the core database's audit log (where sign-in
 * writes them, under the business the session was in). A sign-in is told only from a browser (user agent) none of the
 * person's earlier sessions had; their very first sign-in is not (there is nothing yet to be new against).
 */
export async function securityEvents(core: Db, businessId: string, since: string, limit: number): Promise<BusinessEvent[]> {
  // Each action's latest entries of the business by the audit log's (business_id, action, id) index, then those of
  // the day: the read stays the same size however long the business has been signing in.
  const { results } = await core
    .prepare(
      `SELECT a.id, a.action, a.actor_id, a.entity_id, a.user_agent, a.created_at, u.email,
         (SELECT p.msisdn FROM user_phones p WHERE p.user_id = a.actor_id ORDER BY p.created_at, p.msisdn LIMIT 1) AS phone
       FROM json_each(?2) act
       JOIN audit_log a ON a.id IN (SELECT x.id FROM audit_log x WHERE x.business_id = ?1 AND x.action = act.value ORDER BY x.id DESC LIMIT ?4)
       JOIN users u ON u.id = a.actor_id
       WHERE a.created_at >= ?3
         AND (a.action <> 'auth.business_chosen' OR (
           EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = a.actor_id AND s.id <> a.entity_id AND s.created_at < a.created_at)
           AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = a.actor_id AND s.id <> a.entity_id AND s.created_at < a.created_at AND s.user_agent IS a.user_agent)))
       ORDER BY a.id`,
    )
    .bind(businessId, JSON.stringify(SECURITY_ACTIONS), since, limit)
    .all<SecurityRow>();
  return results.map((row) => ({
    kind: SECURITY_EVENTS[row.action].kind,
    // The audit entry's own instant and entity: its id is renumbered when a business moves to another database.
    key: `security:${row.action}:${row.entity_id ?? ""}:${row.created_at}`,
    subject: row.actor_id,
    subjectKind: "security",
    ...securityWords({ action: row.action, at: row.created_at, userAgent: row.user_agent }),
    to: { userId: row.actor_id, email: row.email, phone: row.phone },
  }));
}
