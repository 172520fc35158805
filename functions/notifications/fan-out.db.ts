// The fan-out (decision 053): the business's requests and disputes are the events. After each change and on the 5-minute cron it
// finds who has not yet been told what, writes their notices with the words of the moment and, for each person who
// wants it, the email's delivery, in one batch. A notice's key is its event's (request.waiting:apr_…), unique per
// person, so two runs at once, or a run after a crash, write each notice once.
import type { ApprovalAction, ChangeValues } from "../approvals/change-kinds";
import { requestSubjects, waitingForPerson } from "../approvals/change-requests.db";
import type { BusinessDb } from "../tenancy/tenant";
import { can, ROLES } from "../permissions";
import {
  decidedWords,
  disputeDueWords,
  eventKey,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  wantsByDefault,
  waitingWords,
  type NotificationKind,
} from "./kinds";
import { DISPUTE_REMINDERS, settleDisputesStatement, untoldDisputesDue } from "./dispute-events.db";

/** At most this many notices a run: a long queue is told over a few runs, each well inside D1's limits. */
export const FAN_OUT_LIMIT = 200;
/** Decisions older than this are not told any more (a portal deployed with old decisions does not send them all). */
export const DECIDED_WINDOW_MS = 24 * 3_600_000;

interface RequestRow {
  id: string;
  kind: string;
  action: ApprovalAction;
  target_id: string;
  after_json: string;
  user_id: string;
  email: string;
}

interface WaitingRow extends RequestRow {
  maker_name: string | null;
}

interface DecidedRow extends RequestRow {
  status: "approved" | "rejected";
  reason: string | null;
  checker_name: string | null;
}

interface NewNotice {
  id: string;
  user: string;
  kind: NotificationKind;
  key: string;
  subject: string;
  title: string;
  body: string;
  subjectKind: string;
  email: string;
}

export function newNotificationId(): string {
  return `ntf_${crypto.randomUUID().replaceAll("-", "")}`;
}

function afterOf(row: RequestRow): ChangeValues {
  try {
    return JSON.parse(row.after_json) as ChangeValues;
  } catch {
    return {};
  }
}

/** The requests still waiting for someone who has not been told, a row each (request, person). */
async function untoldWaiting(business: BusinessDb): Promise<WaitingRow[]> {
  const waiting = waitingForPerson({ sql: "m.user_id", binds: [] });
  const { results } = await business.db
    .prepare(
      `SELECT r.id, r.kind, r.action, r.target_id, r.after_json, m.user_id, u.email, mk.name AS maker_name
       FROM approval_requests r
       JOIN memberships m ON m.business_id = r.business_id AND m.status = 'active'
       JOIN users u ON u.id = m.user_id AND u.status = 'active'
       LEFT JOIN users mk ON mk.id = r.maker_id
       WHERE r.business_id = ? AND r.status = 'pending' AND ${waiting.sql}
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = r.business_id AND n.user_id = m.user_id AND n.event_key = 'request.waiting:' || r.id)
       ORDER BY r.made_at, r.id, m.user_id
       LIMIT ?`,
    )
    .bind(business.businessId, ...waiting.binds, FAN_OUT_LIMIT)
    .all<WaitingRow>();
  return results;
}

/** The requests decided lately whose maker has not been told. */
async function untoldDecided(business: BusinessDb, since: string): Promise<DecidedRow[]> {
  const { results } = await business.db
    .prepare(
      `SELECT r.id, r.kind, r.action, r.target_id, r.after_json, r.status, r.reason, r.maker_id AS user_id, u.email, ck.name AS checker_name
       FROM approval_requests r
       JOIN memberships m ON m.business_id = r.business_id AND m.user_id = r.maker_id AND m.status = 'active'
       JOIN users u ON u.id = r.maker_id AND u.status = 'active'
       LEFT JOIN users ck ON ck.id = r.checker_id
       WHERE r.business_id = ? AND r.decided_at IS NOT NULL AND r.decided_at >= ? AND r.status IN ('approved', 'rejected')
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = r.business_id AND n.user_id = r.maker_id AND n.event_key = 'request.decided:' || r.id)
       ORDER BY r.decided_at, r.id
       LIMIT ?`,
    )
    .bind(business.businessId, since, FAN_OUT_LIMIT)
    .all<DecidedRow>();
  return results;
}

/** Who may answer a dispute: the roles with respond:dispute. */
const RESPONDERS = ROLES.filter((role) => can(role, "respond:dispute"));

/** What this run must tell, with the words of the moment (the subjects' names read once for all). */
async function noticesToWrite(business: BusinessDb, now: number): Promise<NewNotice[]> {
  const [waiting, decided, disputes] = await Promise.all([
    untoldWaiting(business),
    untoldDecided(business, new Date(now - DECIDED_WINDOW_MS).toISOString()),
    untoldDisputesDue(business, now, RESPONDERS, FAN_OUT_LIMIT),
  ]);
  const notices: NewNotice[] = disputes.map((row) => ({
    id: newNotificationId(),
    user: row.user_id,
    kind: "dispute.due",
    key: eventKey(row.event, row.id),
    subject: row.id,
    subjectKind: "dispute",
    ...disputeDueWords({
      days: DISPUTE_REMINDERS.find((reminder) => reminder.event === row.event)!.days,
      dueAt: row.due_at,
      amount: row.amount,
      merchant: row.merchant_name,
      reference: row.reference,
    }),
    email: row.email,
  }));
  if (waiting.length === 0 && decided.length === 0) return notices;
  const requests = new Map<string, RequestRow>();
  for (const row of [...waiting, ...decided]) requests.set(row.id, row);
  const subjects = await requestSubjects(
    business,
    [...requests.values()].map((row) => ({ id: row.id, kind: row.kind, action: row.action, targetId: row.target_id, after: afterOf(row) })),
  );
  for (const row of waiting) {
    const words = waitingWords({ kind: row.kind, action: row.action, maker: row.maker_name ?? "Someone", subject: subjects[row.id] ?? null });
    notices.push({
      id: newNotificationId(),
      user: row.user_id,
      kind: "request.waiting",
      key: eventKey("request.waiting", row.id),
      subject: row.id,
      ...words,
      subjectKind: row.kind,
      email: row.email,
    });
  }
  for (const row of decided) {
    const words = decidedWords({
      kind: row.kind,
      action: row.action,
      status: row.status,
      checker: row.checker_name ?? "Someone",
      subject: subjects[row.id] ?? null,
      reason: row.reason,
    });
    const kind: NotificationKind = row.status === "approved" ? "request.approved" : "request.rejected";
    notices.push({
      id: newNotificationId(),
      user: row.user_id,
      kind,
      key: eventKey("request.decided", row.id),
      subject: row.id,
      ...words,
      subjectKind: row.kind,
      email: row.email,
    });
  }
  return notices;
}

/**
 * Statements that write `notices` and their deliveries: two for any number (the notices travel as one JSON parameter).
 * A delivery is made only for a notice this very batch wrote (another run's notice for the same event has its own) and
 * for a person who did not turn the kind off on that channel.
 */
function writeStatements(business: BusinessDb, notices: NewNotice[], now: string): D1PreparedStatement[] {
  const json = JSON.stringify(notices);
  const statements = [
    business.db
      .prepare(
        `INSERT OR IGNORE INTO notifications (id, business_id, user_id, kind, event_key, subject_id, subject_kind, title, body, created_at)
         SELECT j.value->>'id', ?1, j.value->>'user', j.value->>'kind', j.value->>'key', j.value->>'subject', j.value->>'subjectKind', j.value->>'title', j.value->>'body', ?3
         FROM json_each(?2) j`,
      )
      .bind(business.businessId, json, now),
  ];
  for (const channel of NOTIFICATION_CHANNELS) {
    // The kinds whose default is on for this channel: a person's own choice (a preferences row) wins either way.
    const onByDefault = JSON.stringify(NOTIFICATION_KINDS.filter((kind) => wantsByDefault(kind, channel)));
    statements.push(
      business.db
        .prepare(
          `INSERT OR IGNORE INTO notification_deliveries (id, business_id, notification_id, channel, address, status, attempts, next_attempt_at, created_at)
           SELECT 'ndl_' || substr(n.id, 5) || '_' || ?4, n.business_id, n.id, ?4, j.value->>'email', 'pending', 0, ?3, ?3
           FROM json_each(?2) j JOIN notifications n ON n.business_id = ?1 AND n.id = j.value->>'id'
           WHERE coalesce(
             (SELECT p.wanted FROM notification_preferences p WHERE p.business_id = n.business_id AND p.user_id = n.user_id AND p.kind = n.kind AND p.channel = ?4),
             n.kind IN (SELECT value FROM json_each(?5))
           )`,
        )
        .bind(business.businessId, json, now, channel, onByDefault),
    );
  }
  return statements;
}

/** Waiting notices whose request no longer waits (someone decided it, or it went stale): off the bell's count. */
function settleStatement(business: BusinessDb, now: string): D1PreparedStatement {
  return business.db
    .prepare(
      `UPDATE notifications SET settled_at = ?
       WHERE business_id = ? AND kind = 'request.waiting' AND settled_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM approval_requests r WHERE r.business_id = notifications.business_id AND r.id = notifications.subject_id AND r.status = 'pending')`,
    )
    .bind(now, business.businessId);
}

/** One run of the fan-out for a business: how many notices it wrote. */
export async function fanOut(business: BusinessDb, now: number = Date.now()): Promise<number> {
  const notices = await noticesToWrite(business, now);
  const at = new Date(now).toISOString();
  const results = await business.db.batch([
    ...(notices.length ? writeStatements(business, notices, at) : []),
    settleStatement(business, at),
    settleDisputesStatement(business, now),
  ]);
  return notices.length ? (results[0]?.meta.changes ?? 0) : 0;
}
