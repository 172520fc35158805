// Disputes whose response is due soon (decision 053): 3 days before the deadline, and again 1 day before, each person
// who may respond (their role's respond:dispute) is told once; a dispute answered or closed settles the notice.
import type { BusinessDb } from "../tenancy/tenant";
import { liveBusinessOf } from "../tenancy/test-mode";

export const DAY_MS = 24 * 3_600_000;
/** How long before the deadline each reminder goes: the earlier is skipped when the later one is already due. */
export const DISPUTE_REMINDERS = [
  { days: 3, event: "dispute.due3" },
  { days: 1, event: "dispute.due1" },
] as const;

export interface DisputeDueRow {
  id: string;
  event: (typeof DISPUTE_REMINDERS)[number]["event"];
  due_at: number;
  amount: number;
  merchant_name: string;
  reference: string;
  user_id: string;
  email: string;
}

/** The reminders due now that somebody who may respond has not had, a row each (reminder, person). */
export async function untoldDisputesDue(business: BusinessDb, now: number, responders: readonly string[], limit: number): Promise<DisputeDueRow[]> {
  if (responders.length === 0) return [];
  // A reminder is due from `days` before the deadline until the next reminder's time (or the deadline itself).
  const windows = DISPUTE_REMINDERS.map((reminder, i) => ({
    event: reminder.event,
    from: reminder.days * DAY_MS,
    to: (DISPUTE_REMINDERS[i + 1]?.days ?? 0) * DAY_MS,
  }));
  const { results } = await business.db
    .prepare(
      `SELECT d.id, w.value->>'event' AS event, d.evidence_due_at AS due_at, d.amount, m.name AS merchant_name, t.reference, mem.user_id, u.email
       FROM disputes d
       JOIN json_each(?3) w ON d.evidence_due_at - ?2 <= w.value->>'from' AND d.evidence_due_at - ?2 > w.value->>'to'
       JOIN merchants m ON m.id = d.merchant_id AND m.business_id = d.business_id
       JOIN transactions t ON t.id = d.transaction_id AND t.business_id = d.business_id
       JOIN memberships mem ON mem.business_id = ?6 AND mem.status = 'active' AND mem.role IN (SELECT value FROM json_each(?4))
       JOIN users u ON u.id = mem.user_id AND u.status = 'active'
       WHERE d.business_id = ?1 AND d.status = 'open' AND d.evidence_due_at > ?2
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = d.business_id AND n.user_id = mem.user_id AND n.event_key = (w.value->>'event') || ':' || d.id)
       ORDER BY d.evidence_due_at, d.id, mem.user_id
       LIMIT ?5`,
    )
    .bind(business.businessId, now, JSON.stringify(windows), JSON.stringify(responders), limit, liveBusinessOf(business.businessId))
    .all<DisputeDueRow>();
  return results;
}

/** Reminders of disputes that no longer wait for an answer (answered, closed, or past their deadline): off the bell. */
export function settleDisputesStatement(business: BusinessDb, now: number): D1PreparedStatement {
  return business.db
    .prepare(
      `UPDATE notifications SET settled_at = ?
       WHERE business_id = ? AND kind = 'dispute.due' AND settled_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.business_id = notifications.business_id AND d.id = notifications.subject_id AND d.status = 'open' AND d.evidence_due_at > ?)`,
    )
    .bind(new Date(now).toISOString(), business.businessId, now);
}
