// The deliveries of notices by email and SMS (decision 053): claimed under a lease so two senders never send one at
// once, then marked sent, tried again later (the webhooks' backoff, or the end of the quiet hours), folded into the
// person's next digest (over the hourly cap), or given up ("dead", shown to platform staff).
import type { BusinessDb } from "../tenancy/tenant";
import { isTestBusiness } from "../tenancy/test-mode";
import type { NotificationChannel, NotificationKind } from "./kinds";
import { HOUR_MS, paceKey } from "./pacing";

/** A sender that crashed mid-send leaves its lease; after this the delivery is anyone's again. */
export const DELIVERY_LEASE_MS = 2 * 60_000;
/** At most this many sends a business a run: a run stays well inside a Worker's time and subrequests. */
export const SEND_LIMIT = 40;

export interface DueDelivery {
  id: string;
  notificationId: string;
  channel: NotificationChannel;
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
  channel: NotificationChannel;
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
export async function claimDueDeliveries(
  business: BusinessDb,
  now: number,
  channels: readonly NotificationChannel[],
  limit = SEND_LIMIT,
): Promise<DueDelivery[]> {
  if (channels.length === 0) return [];
  const at = new Date(now).toISOString();
  const { results: claimed } = await business.db
    .prepare(
      `UPDATE notification_deliveries SET lease_until = ?1, attempts = attempts + 1
       WHERE business_id = ?2 AND id IN (
         SELECT id FROM notification_deliveries
         WHERE business_id = ?2 AND status = 'pending' AND next_attempt_at <= ?3 AND (lease_until IS NULL OR lease_until < ?3)
           AND channel IN (SELECT value FROM json_each(?5))
         ORDER BY next_attempt_at, id LIMIT ?4)
       RETURNING id, notification_id, channel, address, attempts, created_at`,
    )
    .bind(new Date(now + DELIVERY_LEASE_MS).toISOString(), business.businessId, at, limit, JSON.stringify(channels))
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

export type DeliveryOutcome =
  | { id: string; sent: true }
  | { id: string; sent: false; error: string; retryAt: number | null }
  /** Put off (the quiet hours): not an attempt. */
  | { id: string; sent: false; later: number }
  /** Held back by the hourly cap: told in the next digest. */
  | { id: string; sent: false; folded: true };

/** What each (person, channel) of these deliveries was sent in the hour before `now` (pacing.ts paceKey). */
export async function sentInLastHour(business: BusinessDb, userIds: string[], now: number): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const { results } = await business.db
    .prepare(
      `SELECT user_id, channel, count(*) AS sent FROM notification_deliveries
       WHERE business_id = ? AND user_id IN (SELECT value FROM json_each(?)) AND sent_at IS NOT NULL AND sent_at > ?
       GROUP BY user_id, channel`,
    )
    .bind(business.businessId, JSON.stringify([...new Set(userIds)]), new Date(now - HOUR_MS).toISOString())
    .all<{ user_id: string; channel: NotificationChannel; sent: number }>();
  return new Map(results.map((row) => [paceKey(row.user_id, row.channel), row.sent]));
}

function outcomeStatement(business: BusinessDb, outcome: DeliveryOutcome, at: string): D1PreparedStatement {
  const { db, businessId } = business;
  if (outcome.sent) {
    return db
      .prepare("UPDATE notification_deliveries SET status = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL WHERE business_id = ? AND id = ?")
      .bind(at, businessId, outcome.id);
  }
  if ("later" in outcome) {
    return db
      .prepare("UPDATE notification_deliveries SET next_attempt_at = ?, lease_until = NULL, attempts = max(attempts - 1, 0) WHERE business_id = ? AND id = ?")
      .bind(new Date(outcome.later).toISOString(), businessId, outcome.id);
  }
  if ("folded" in outcome) {
    return db
      .prepare(
        "UPDATE notification_deliveries SET status = 'folded', folded_at = ?, lease_until = NULL, attempts = max(attempts - 1, 0) WHERE business_id = ? AND id = ?",
      )
      .bind(at, businessId, outcome.id);
  }
  return db
    .prepare("UPDATE notification_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, last_error = ? WHERE business_id = ? AND id = ?")
    .bind(
      outcome.retryAt === null ? "dead" : "pending",
      outcome.retryAt === null ? at : new Date(outcome.retryAt).toISOString(),
      outcome.error.slice(0, 500),
      businessId,
      outcome.id,
    );
}

/** What a run's sends came to, in one batch. */
export async function recordDeliveryOutcomes(business: BusinessDb, outcomes: DeliveryOutcome[], now: number): Promise<void> {
  if (outcomes.length === 0) return;
  const at = new Date(now).toISOString();
  await business.db.batch(outcomes.map((outcome) => outcomeStatement(business, outcome, at)));
}

/** When the business's next delivery is due (a retry's or the end of the quiet hours), or null when none waits. */
export async function nextDeliveryDue(business: BusinessDb): Promise<number | null> {
  const row = await business.db
    .prepare("SELECT min(next_attempt_at) AS due FROM notification_deliveries WHERE business_id = ? AND status = 'pending'")
    .bind(business.businessId)
    .first<{ due: string | null }>();
  return row?.due ? Date.parse(row.due) : null;
}
