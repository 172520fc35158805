// The fan-out (decision 053): the business's own records are the events (its requests, people, sign-in security,
// failed payouts and refunds, disputes, webhook endpoints). After each change and on the 5-minute cron it finds who has
// not yet been told what, writes their notices with the words of the moment and, for each person and channel that
// wants it, the delivery, in one batch. A notice's key is its event's (request.waiting:apr_…), unique per person, so
// two runs at once, or a run after a crash, write each notice once.
import type { ApprovalAction, ChangeValues } from "../approvals/change-kinds";
import { requestSubjects, waitingForPerson } from "../approvals/change-requests.db";
import type { BusinessDb, Db } from "../tenancy/tenant";
import { liveBusinessOf } from "../tenancy/test-mode";
import { can, ROLES, type Role } from "../permissions";
import {
  decidedWords,
  disputeDueWords,
  eventKey,
  isAlwaysSent,
  isDigestable,
  kindHasChannel,
  kindIsFor,
  NOTIFICATION_CHANNELS,
  wantsByDefault,
  waitingWords,
  type NotificationKind,
} from "./kinds";
import { DISPUTE_REMINDERS, settleDisputesStatement, untoldDisputesDue } from "./dispute-events.db";
import { memberEvents, securityEvents, type BusinessEvent } from "./people-events.db";
import { payoutEvents, refundEvents, webhookEvents } from "./money-events.db";

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

export interface NewNotice {
  id: string;
  user: string;
  kind: NotificationKind;
  key: string;
  subject: string;
  title: string;
  body: string;
  subjectKind: string;
  email: string;
  /** Where an SMS goes: the number the person's business typed for them, or their own for security notices. */
  phone?: string | null;
  /** Emailed whatever the person's choices (the digest, made only for those who asked for it or had emails held back). */
  forced?: boolean;
}

/** A member as the fan-out reaches them. */
interface Member {
  role: Role;
  email: string;
  phone: string | null;
}

/** The active members who may be told (a test business's are its live business's, decision 045). */
async function membersOf(business: BusinessDb): Promise<Map<string, Member>> {
  const { results } = await business.db
    .prepare(
      `SELECT m.user_id, m.role, u.email, m.contact_phone AS phone FROM memberships m JOIN users u ON u.id = m.user_id AND u.status = 'active'
       WHERE m.business_id = ? AND m.status = 'active'`,
    )
    .bind(liveBusinessOf(business.businessId))
    .all<{ user_id: string; role: Role; email: string; phone: string | null }>();
  return new Map(results.map((row) => [row.user_id, { role: row.role, email: row.email, phone: row.phone }]));
}

/** Which (person, event) pairs of these keys were told already. */
async function toldAlready(business: BusinessDb, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { results } = await business.db
    .prepare("SELECT user_id || ' ' || event_key AS told FROM notifications WHERE business_id = ? AND event_key IN (SELECT value FROM json_each(?))")
    .bind(business.businessId, JSON.stringify([...new Set(keys)]))
    .all<{ told: string }>();
  return new Set(results.map((row) => row.told));
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
       JOIN memberships m ON m.business_id = ? AND m.status = 'active'
       JOIN users u ON u.id = m.user_id AND u.status = 'active'
       LEFT JOIN users mk ON mk.id = r.maker_id
       WHERE r.business_id = ? AND r.status = 'pending' AND ${waiting.sql}
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = r.business_id AND n.user_id = m.user_id AND n.event_key = 'request.waiting:' || r.id)
       ORDER BY r.made_at, r.id, m.user_id
       LIMIT ?`,
    )
    .bind(liveBusinessOf(business.businessId), business.businessId, ...waiting.binds, FAN_OUT_LIMIT)
    .all<WaitingRow>();
  return results;
}

/** The requests decided lately whose maker has not been told. */
async function untoldDecided(business: BusinessDb, since: string): Promise<DecidedRow[]> {
  const { results } = await business.db
    .prepare(
      `SELECT r.id, r.kind, r.action, r.target_id, r.after_json, r.status, r.reason, r.maker_id AS user_id, u.email, ck.name AS checker_name
       FROM approval_requests r
       JOIN memberships m ON m.business_id = ? AND m.user_id = r.maker_id AND m.status = 'active'
       JOIN users u ON u.id = r.maker_id AND u.status = 'active'
       LEFT JOIN users ck ON ck.id = r.checker_id
       WHERE r.business_id = ? AND r.decided_at IS NOT NULL AND r.decided_at >= ? AND r.status IN ('approved', 'rejected')
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = r.business_id AND n.user_id = r.maker_id AND n.event_key = 'request.decided:' || r.id)
       ORDER BY r.decided_at, r.id
       LIMIT ?`,
    )
    .bind(liveBusinessOf(business.businessId), business.businessId, since, FAN_OUT_LIMIT)
    .all<DecidedRow>();
  return results;
}

/** Who may answer a dispute: the roles with respond:dispute. */
const RESPONDERS = ROLES.filter((role) => can(role, "respond:dispute"));

export interface FanOutOptions {
  now?: number;
  /** The core database, whose audit log has the sign-in's security events (a business's own database otherwise). */
  core?: Db;
  /**
   * After a person's change only what a change makes is looked for (requests, people, security); the cron also
   * reads what time and the rails make (dispute deadlines, failed payouts and refunds, webhook endpoints).
   */
  scope?: "change" | "everything";
}

/** The requests' notices: those waiting and those decided, with the subjects' names read once for all. */
async function requestNotices(business: BusinessDb, waiting: WaitingRow[], decided: DecidedRow[]): Promise<NewNotice[]> {
  const notices: NewNotice[] = [];
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

/** Each event's people not told yet: the one it is about, or every member whose role the kind is for. */
async function eventNotices(business: BusinessDb, events: BusinessEvent[], members: () => Promise<Map<string, Member>>): Promise<NewNotice[]> {
  if (events.length === 0) return [];
  const [told, people] = await Promise.all([
    toldAlready(
      business,
      events.map((event) => event.key),
    ),
    members(),
  ]);
  return events.flatMap((event) => {
    const to = event.to
      ? [{ userId: event.to.userId, email: event.to.email, phone: event.to.phone }]
      : [...people].filter(([, member]) => kindIsFor(event.kind, member.role)).map(([userId, member]) => ({ userId, ...member }));
    return to
      .filter((person) => !told.has(`${person.userId} ${event.key}`))
      .map((person) => ({
        id: newNotificationId(),
        user: person.userId,
        kind: event.kind,
        key: event.key,
        subject: event.subject,
        subjectKind: event.subjectKind,
        title: event.title,
        body: event.body,
        email: person.email,
        phone: person.phone,
      }));
  });
}

/** What this run must tell, with the words of the moment. */
async function noticesToWrite(
  business: BusinessDb,
  options: Required<FanOutOptions>,
): Promise<{ notices: NewNotice[]; decided: number; roles: Map<string, Role> }> {
  const { now, core, scope } = options;
  const since = new Date(now - DECIDED_WINDOW_MS).toISOString();
  const everything = scope === "everything";
  const [waiting, decided, disputes, ...eventLists] = await Promise.all([
    untoldWaiting(business),
    untoldDecided(business, since),
    everything ? untoldDisputesDue(business, now, RESPONDERS, FAN_OUT_LIMIT) : [],
    memberEvents(business, since, FAN_OUT_LIMIT),
    securityEvents(core, business.businessId, since, FAN_OUT_LIMIT),
    everything ? payoutEvents(business, since, FAN_OUT_LIMIT) : [],
    everything ? refundEvents(business, since, FAN_OUT_LIMIT) : [],
    everything ? webhookEvents(business, now, now - DECIDED_WINDOW_MS) : [],
  ]);
  let people: Promise<Map<string, Member>> | null = null;
  const members = () => (people ??= membersOf(business));
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
  notices.push(...(await requestNotices(business, waiting, decided)), ...(await eventNotices(business, eventLists.flat(), members)));
  const roles = new Map<string, Role>();
  if (notices.length > 0) {
    // A request's or dispute's person is reached by SMS at the number their business has for them.
    const known = await members();
    for (const notice of notices) {
      const member = known.get(notice.user);
      if (member) roles.set(notice.user, member.role);
      if (notice.phone === undefined) notice.phone = member?.phone ?? null;
    }
  }
  return { notices: notices.slice(0, FAN_OUT_LIMIT), decided: decided.length, roles };
}

/** What the delivery statements read of a notice: its addresses, and what the person gets unless they chose. */
function deliveryFacts(notice: NewNotice, roles: Map<string, Role>) {
  const role = roles.get(notice.user) ?? "Viewer";
  return {
    id: notice.id,
    addr: { email: notice.email, sms: kindHasChannel(notice.kind, "sms") ? (notice.phone ?? null) : null },
    on: Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, wantsByDefault(notice.kind, channel, role) ? 1 : 0])),
    always: isAlwaysSent(notice.kind) || notice.forced ? 1 : 0,
    digestable: isDigestable(notice.kind) ? 1 : 0,
  };
}

/**
 * Statements that write `notices` and their deliveries: one for the notices and one a channel, for any number (they
 * travel as one JSON parameter). A delivery is made only for a notice this very batch wrote (another run's notice for
 * the same event has its own), with an address on that channel, for a person who did not turn the kind off there (a
 * security notice whatever they chose), and by email not for a kind the person's 07:00 digest tells instead.
 */
export function writeStatements(business: BusinessDb, notices: NewNotice[], roles: Map<string, Role>, now: string): D1PreparedStatement[] {
  const live = liveBusinessOf(business.businessId);
  const statements = [
    business.db
      .prepare(
        `INSERT OR IGNORE INTO notifications (id, business_id, user_id, kind, event_key, subject_id, subject_kind, title, body, created_at)
         SELECT j.value->>'id', ?1, j.value->>'user', j.value->>'kind', j.value->>'key', j.value->>'subject', j.value->>'subjectKind', j.value->>'title', j.value->>'body', ?3
         FROM json_each(?2) j`,
      )
      .bind(business.businessId, JSON.stringify(notices), now),
  ];
  const facts = JSON.stringify(notices.map((notice) => deliveryFacts(notice, roles)));
  for (const channel of NOTIFICATION_CHANNELS) {
    statements.push(
      business.db
        .prepare(
          `INSERT OR IGNORE INTO notification_deliveries (id, business_id, notification_id, user_id, channel, address, status, attempts, next_attempt_at, created_at)
           SELECT 'ndl_' || substr(n.id, 5) || '_' || ?4, n.business_id, n.id, n.user_id, ?4, json_extract(j.value, '$.addr.' || ?4), 'pending', 0, ?3, ?3
           FROM json_each(?2) j JOIN notifications n ON n.business_id = ?1 AND n.id = j.value->>'id'
           WHERE json_extract(j.value, '$.addr.' || ?4) IS NOT NULL AND (j.value->>'always' = 1 OR (
             coalesce(
               (SELECT p.wanted FROM notification_preferences p WHERE p.business_id = ?5 AND p.user_id = n.user_id AND p.kind = n.kind AND p.channel = ?4),
               json_extract(j.value, '$.on.' || ?4)) = 1
             AND NOT (?4 = 'email' AND j.value->>'digestable' = 1 AND coalesce(
               (SELECT p.wanted FROM notification_preferences p WHERE p.business_id = ?5 AND p.user_id = n.user_id AND p.kind = 'digest' AND p.channel = 'email'), 0) = 1)))`,
        )
        .bind(business.businessId, facts, now, channel, live),
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

/**
 * One run of the fan-out for a business: how many notices it wrote. Waiting notices are settled when the run saw a
 * decision (and by the cron, for requests gone stale); dispute reminders by the cron.
 */
export async function fanOut(business: BusinessDb, options: FanOutOptions | number = {}): Promise<number> {
  const given = typeof options === "number" ? { now: options } : options;
  const settings: Required<FanOutOptions> = { now: given.now ?? Date.now(), core: given.core ?? business.db, scope: given.scope ?? "everything" };
  const { notices, decided, roles } = await noticesToWrite(business, settings);
  const at = new Date(settings.now).toISOString();
  const everything = settings.scope === "everything";
  const statements = [
    ...(notices.length ? writeStatements(business, notices, roles, at) : []),
    ...(decided > 0 || everything ? [settleStatement(business, at)] : []),
    ...(everything ? [settleDisputesStatement(business, settings.now)] : []),
  ];
  if (statements.length === 0) return 0;
  const results = await business.db.batch(statements);
  return notices.length ? (results[0]?.meta.changes ?? 0) : 0;
}
