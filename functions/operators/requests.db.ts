// The platform's maker-checker rows (platform_requests, migration 0030) in the core database. Each write is audited on
// the platform's chain: the core database's entries of no business (functions/audit/audit-seal.db.ts).
import { ifChangedAuditStatement, signInAuditStatement } from "../audit/audit.db";
import type { Db, RequestMeta } from "../tenancy/tenant";

export const PLATFORM_REQUEST_KINDS = [
  "onboard_business",
  "suspend_business",
  "reactivate_business",
  "close_business",
  "run_job",
  "move_business",
  "replay_queue",
] as const;
export type PlatformRequestKind = (typeof PLATFORM_REQUEST_KINDS)[number];
export type PlatformRequestStatus = "pending" | "approved" | "rejected" | "stale";

export interface PlatformRequestRow {
  id: string;
  kind: PlatformRequestKind;
  subjectId: string;
  after: Record<string, unknown>;
  makerId: string;
  makerName: string;
  madeAt: string;
  status: PlatformRequestStatus;
  checkerId: string | null;
  checkerName: string | null;
  decidedAt: string | null;
  reason: string | null;
  outcome: Record<string, unknown> | null;
}

interface Row {
  id: string;
  kind: PlatformRequestKind;
  subject_id: string;
  after_json: string;
  maker_id: string;
  maker_name: string;
  made_at: string;
  status: PlatformRequestStatus;
  checker_id: string | null;
  checker_name: string | null;
  decided_at: string | null;
  reason: string | null;
  outcome_json: string | null;
}

const SELECT = `SELECT r.id, r.kind, r.subject_id, r.after_json, r.maker_id, m.name AS maker_name, r.made_at, r.status, r.checker_id,
  c.name AS checker_name, r.decided_at, r.reason, r.outcome_json
  FROM platform_requests r JOIN users m ON m.id = r.maker_id LEFT JOIN users c ON c.id = r.checker_id`;

const toRequest = (row: Row): PlatformRequestRow => ({
  id: row.id,
  kind: row.kind,
  subjectId: row.subject_id,
  after: JSON.parse(row.after_json) as Record<string, unknown>,
  makerId: row.maker_id,
  makerName: row.maker_name,
  madeAt: row.made_at,
  status: row.status,
  checkerId: row.checker_id,
  checkerName: row.checker_name,
  decidedAt: row.decided_at,
  reason: row.reason,
  outcome: row.outcome_json ? (JSON.parse(row.outcome_json) as Record<string, unknown>) : null,
});

export interface Actor {
  userId: string;
  meta: RequestMeta;
}

/**
 * Records a request (and its audit entry) unless one of the same kind for the same subject already waits: then nothing
 * is written and the waiting one's id comes back with `made: false`.
 */
export async function insertPlatformRequest(
  core: Db,
  actor: Actor,
  request: { id: string; kind: PlatformRequestKind; subjectId: string; after: Record<string, unknown>; audited?: Record<string, unknown> },
  at: string,
): Promise<{ id: string; made: boolean }> {
  const [inserted] = await core.batch([
    core
      .prepare(
        `INSERT INTO platform_requests (id, kind, subject_id, after_json, maker_id, made_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, subject_id) WHERE status = 'pending' DO NOTHING RETURNING id`,
      )
      .bind(request.id, request.kind, request.subjectId, JSON.stringify(request.after), actor.userId, at),
    // Only when the row above was written: the audit says what was asked, never what was not.
    ifChangedAuditStatement(
      { userId: actor.userId, businessId: null },
      core,
      actor.meta,
      {
        action: "platform.request.made",
        entity: "platform_request",
        entityId: request.id,
        after: { kind: request.kind, subject: request.subjectId, ...(request.audited ?? request.after) },
      },
      at,
    ),
  ]);
  if ((inserted?.results.length ?? 0) > 0) return { id: request.id, made: true };
  const waiting = await core
    .prepare("SELECT id FROM platform_requests WHERE kind = ? AND subject_id = ? AND status = 'pending'")
    .bind(request.kind, request.subjectId)
    .first<{ id: string }>();
  return { id: waiting?.id ?? request.id, made: false };
}

export async function platformRequest(core: Db, id: string): Promise<PlatformRequestRow | null> {
  const row = await core.prepare(`${SELECT} WHERE r.id = ?`).bind(id).first<Row>();
  return row ? toRequest(row) : null;
}

/** The waiting requests (oldest first, as they are to be decided), or the decided ones (newest first). */
export async function listPlatformRequests(core: Db, view: "waiting" | "decided", limit = 100): Promise<PlatformRequestRow[]> {
  const where = view === "waiting" ? "r.status = 'pending' ORDER BY r.made_at, r.id" : "r.status <> 'pending' ORDER BY r.decided_at DESC, r.id DESC";
  const { results } = await core.prepare(`${SELECT} WHERE ${where} LIMIT ?`).bind(limit).all<Row>();
  return results.map(toRequest);
}

/** The waiting requests of kinds about one subject (a business's page says what waits for it). */
export async function waitingFor(core: Db, subjectId: string): Promise<PlatformRequestRow[]> {
  const { results } = await core.prepare(`${SELECT} WHERE r.subject_id = ? AND r.status = 'pending' ORDER BY r.made_at`).bind(subjectId).all<Row>();
  return results.map(toRequest);
}

/** How many requests wait for a decision someone other than `userId` made: the navigation's count. */
export async function countWaitingFor(core: Db, userId: string): Promise<number> {
  const row = await core.prepare("SELECT count(*) AS n FROM platform_requests WHERE status = 'pending' AND maker_id <> ?").bind(userId).first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * The decision, only if the request still waits and the checker did not make it (the table's CHECK says so too), with
 * its audit entry in the same batch: false when another decision came first.
 */
export async function recordDecision(
  core: Db,
  actor: Actor,
  request: Pick<PlatformRequestRow, "id" | "kind" | "subjectId">,
  decision: { status: "approved" | "rejected"; reason: string | null; outcome: Record<string, unknown> | null },
  at: string,
): Promise<boolean> {
  const [updated] = await core.batch([
    core
      .prepare(
        `UPDATE platform_requests SET status = ?, checker_id = ?, decided_at = ?, reason = ?, outcome_json = ?
         WHERE id = ? AND status = 'pending' AND maker_id <> ? RETURNING id`,
      )
      .bind(decision.status, actor.userId, at, decision.reason, decision.outcome ? JSON.stringify(decision.outcome) : null, request.id, actor.userId),
    ifChangedAuditStatement(
      { userId: actor.userId, businessId: null },
      core,
      actor.meta,
      {
        action: `platform.request.${decision.status}`,
        entity: "platform_request",
        entityId: request.id,
        after: { kind: request.kind, subject: request.subjectId, reason: decision.reason, outcome: decision.outcome },
      },
      at,
    ),
  ]);
  return (updated?.results.length ?? 0) > 0;
}

/** An entry on the platform's chain for what a request's applying did beyond the decision (an SMS sent, a job run). */
export function platformAuditStatement(
  core: Db,
  actor: Actor,
  facts: { action: string; entity: string; entityId: string; after: unknown },
  at: string,
): D1PreparedStatement {
  return signInAuditStatement({ userId: actor.userId, businessId: null }, core, actor.meta, facts, at);
}
