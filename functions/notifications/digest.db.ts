// The 07:00 digest (decision 053): once a day, in one email, what waits for a person. It goes to whoever chose it
// instead of an email for each request, to anyone whose emails the hourly cap held back since their last digest, and
// to those who look after terminals when terminals went silent. It counts the requests waiting for the person's
// decision and lists what was held back or told only here; one notice a person a day (its key is the day's).
import { waitingForPerson } from "../approvals/change-requests.db";
import { countSilentTerminals } from "../merchants/terminals.db";
import { SILENT_AFTER_MS } from "../merchants/terminal-silence";
import type { Role } from "../permissions";
import type { BusinessDb } from "../tenancy/tenant";
import { liveBusinessOf } from "../tenancy/test-mode";
import { digestWords } from "./event-words";
import { isDigestable, kindIsFor, wantsByDefault, type NotificationKind } from "./kinds";
import { newNotificationId, writeStatements, type NewNotice } from "./fan-out.db";

/** At most this many lines of held-back or digest-only notices in one digest; the rest are counted. */
export const DIGEST_LINES = 10;

interface PersonRow {
  user_id: string;
  role: Role;
  email: string;
  waiting: number;
  digest: number | null;
  silent_wanted: number | null;
}

interface HeldRow {
  user_id: string;
  title: string;
  body: string;
  kind: string;
  folded: number;
}

/** Writes today's digest for each person who should have one; how many were written. */
export async function writeDigests(business: BusinessDb, now: number): Promise<number> {
  const live = liveBusinessOf(business.businessId);
  const day = new Date(now).toISOString().slice(0, 10);
  const key = `digest:${day}`;
  const waiting = waitingForPerson({ sql: "m.user_id", binds: [] });
  const preference = (kind: string) =>
    `(SELECT p.wanted FROM notification_preferences p WHERE p.business_id = m.business_id AND p.user_id = m.user_id AND p.kind = '${kind}' AND p.channel = 'email')`;
  // Anonymous parameters only, bound in the order they are written (the waiting rule brings its own).
  const { results: people } = await business.db
    .prepare(
      `SELECT m.user_id, m.role, u.email,
         (SELECT count(*) FROM approval_requests r WHERE r.business_id = ? AND ${waiting.sql}) AS waiting,
         ${preference("digest")} AS digest, ${preference("terminal.silent")} AS silent_wanted
       FROM memberships m JOIN users u ON u.id = m.user_id AND u.status = 'active'
       WHERE m.business_id = ? AND m.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.business_id = ? AND n.user_id = m.user_id AND n.event_key = ?)`,
    )
    .bind(business.businessId, ...waiting.binds, live, business.businessId, key)
    .all<PersonRow>();
  if (people.length === 0) return 0;
  const since = new Date(now - 24 * 3_600_000).toISOString();
  const [{ results: held }, silent] = await Promise.all([
    // What the cap held back since the person's last digest, and (for those who chose the digest) what it tells
    // instead of an email: unread, still to act on, since the last digest.
    business.db
      .prepare(
        `SELECT n.user_id, n.title, n.body, n.kind, d.status = 'folded' AS folded
         FROM notifications n LEFT JOIN notification_deliveries d ON d.notification_id = n.id AND d.channel = 'email'
         WHERE n.business_id = ?1 AND n.created_at >= ?2 AND n.kind <> 'digest'
           AND n.created_at > coalesce((SELECT max(x.created_at) FROM notifications x WHERE x.business_id = n.business_id AND x.user_id = n.user_id AND x.kind = 'digest'), '')
           AND (d.status = 'folded' OR (d.id IS NULL AND n.read_at IS NULL AND n.settled_at IS NULL AND n.kind <> 'request.waiting'))
         ORDER BY n.created_at, n.id`,
      )
      .bind(business.businessId, since)
      .all<HeldRow>(),
    countSilentTerminals(business, now - SILENT_AFTER_MS),
  ]);
  const notices: NewNotice[] = [];
  const roles = new Map<string, Role>();
  for (const person of people) {
    const chose = person.digest === 1;
    const lines = held
      .filter((row) => row.user_id === person.user_id && (row.folded === 1 || (chose && isDigestable(row.kind as NotificationKind))))
      .map((row) => `${row.title}: ${row.body}`);
    const wantsSilent =
      kindIsFor("terminal.silent", person.role) && (person.silent_wanted ?? (wantsByDefault("terminal.silent", "email", person.role) ? 1 : 0)) === 1;
    const silentCount = wantsSilent ? silent : 0;
    const folded = held.some((row) => row.user_id === person.user_id && row.folded === 1);
    if (!chose && !folded && silentCount === 0) continue;
    if (lines.length === 0 && silentCount === 0 && person.waiting === 0) continue;
    roles.set(person.user_id, person.role);
    notices.push({
      id: newNotificationId(),
      user: person.user_id,
      kind: "digest",
      key,
      subject: day,
      subjectKind: "digest",
      ...digestWords({ day: Date.parse(`${day}T00:00:00Z`), waiting: person.waiting, lines, silent: silentCount, limit: DIGEST_LINES }),
      email: person.email,
      phone: null,
      forced: true,
    });
  }
  if (notices.length === 0) return 0;
  const [written] = await business.db.batch(writeStatements(business, notices, roles, new Date(now).toISOString()));
  return written?.meta.changes ?? 0;
}
