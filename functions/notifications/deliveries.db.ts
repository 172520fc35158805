// The deliveries of notices by email (decision 053): claimed under a lease so two senders never send one at once,
// then marked sent, tried again later (the webhooks' backoff) or given up ("dead", shown to platform staff).
import type { BusinessDb } from "../tenancy/tenant";
import { isTestBusiness } from "../tenancy/test-mode";
import type { NotificationKind } from "./kinds";

/** A sender that crashed mid-send leaves its lease; after this the delivery is anyone's again. */
export const DELIVERY_LEASE_MS = 2 * 60_000;
/** At most this many sends a business a run: a run stays well inside a Worker's time and subrequests. */
export const SEND_LIMIT = 40;

export interface DueDelivery {
  id: string;
  notificationId: string;
  channel: string;
  address: string;
  /** This attempt's number, from 1. */
  attempt: number;
  createdAt: string;
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  businessName: string;
  test: boolean;
}

interface ClaimedRow {
  id: string;
  notification_id: string;
  channel: string;
  address: string;
  attempts: number;
  created_at: string;
}

interface NoticeRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  business_name: string | null;
}

/** Takes up to `limit` due deliveries for this sender: each is sent by one sender at a time. */
export async function claimDueDeliveries(business: BusinessDb, now: number, limit = SEND_LIMIT): Promise<DueDelivery[]> {
  const at = new Date(now).toISOString();
  const { results: claimed } = await business.db
    .prepare(
      `UPDATE notification_deliveries SET lease_until = ?1, attempts = attempts + 1
       WHERE business_id = ?2 AND id IN (
         SELECT id FROM notification_deliveries
         WHERE business_id = ?2 AND status = 'pending' AND next_attempt_at <= ?3 AND (lease_until IS NULL OR lease_until < ?3)
         ORDER BY next_attempt_at, id LIMIT ?4)
       RETURNING id, notification_id, channel, address, attempts, created_at`,
    )
    .bind(new Date(now + DELIVERY_LEASE_MS).toISOString(), business.businessId, at, limit)
    .all<ClaimedRow>();
  if (claimed.length === 0) return [];
  const { results: notices } = await business.db
    .prepare(
      `SELECT n.id, n.user_id, n.kind, n.title, n.body, b.name AS business_name
       FROM notifications n LEFT JOIN businesses b ON b.id = n.business_id
       WHERE n.business_id = ? AND n.id IN (SELECT value FROM json_each(?))`,
    )
    .bind(business.businessId, JSON.stringify(claimed.map((row) => row.notification_id)))
    .all<NoticeRow>();
  const byId = new Map(notices.map((row) => [row.id, row]));
  return claimed.flatMap((row) => {
    const notice = byId.get(row.notification_id);
    if (!notice) return [];
    return [
      {
        id: row.id,
        notificationId: row.notification_id,
        channel: row.channel,
        address: row.address,
        attempt: row.attempts,
        createdAt: row.created_at,
        userId: notice.user_id,
        kind: notice.kind,
        title: notice.title,
        body: notice.body,
        businessName: notice.business_name ?? "your business",
        test: isTestBusiness(business.businessId),
      },
    ];
  });
}

export type DeliveryOutcome = { id: string; sent: true } | { id: string; sent: false; error: string; retryAt: number | null };

/** What a run's sends came to, in one batch: sent, due again at `retryAt`, or given up (no retryAt). */
export async function recordDeliveryOutcomes(business: BusinessDb, outcomes: DeliveryOutcome[], now: number): Promise<void> {
  if (outcomes.length === 0) return;
  const at = new Date(now).toISOString();
  await business.db.batch(
    outcomes.map((outcome) =>
      outcome.sent
        ? business.db
            .prepare("UPDATE notification_deliveries SET status = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL WHERE business_id = ? AND id = ?")
            .bind(at, business.businessId, outcome.id)
        : business.db
            .prepare("UPDATE notification_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, last_error = ? WHERE business_id = ? AND id = ?")
            .bind(
              outcome.retryAt === null ? "dead" : "pending",
              outcome.retryAt === null ? at : new Date(outcome.retryAt).toISOString(),
              outcome.error.slice(0, 500),
              business.businessId,
              outcome.id,
            ),
    ),
  );
}
