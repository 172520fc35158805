// Form submissions sent once. A form the browser re-sends after a lost
// connection carries the submission id of the first send; the first send may
// have reached the portal and only its answer been lost. The first send claims
// the id (per session), runs, and leaves its answer here; a re-send gets that
// answer back without running again. Keyed by session, not business: the
// answer may carry the session's cookies, and only the same session may see it.
// D1, not KV: a claim must be exact, and KV would serve a cached "not found".
import type { Db } from "./d1-coalesce";

/** How long an answer is kept for a re-send: a working day covers any retry. */
export const SUBMISSION_TTL_MS = 24 * 60 * 60_000;
/** A claim older than this whose answer never came belongs to a send that died: the next send takes it over. */
export const ABANDONED_CLAIM_MS = 60_000;

/** An answer as it was given: status, headers (Set-Cookie separately), body. */
export interface StoredAnswer {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

export type Claim = { kind: "claimed" } | { kind: "running" } | { kind: "answered"; answer: StoredAnswer };

interface Row {
  state: "running" | "done";
  status: number | null;
  headers: string | null;
  body: ArrayBuffer | number[] | null;
  created_at: number;
}

function toArrayBuffer(body: ArrayBuffer | number[] | null): ArrayBuffer {
  if (body === null) return new ArrayBuffer(0);
  if (body instanceof ArrayBuffer) return body;
  return new Uint8Array(body).buffer;
}

/** Claims `submissionId` for this session: the first send runs it, a later one waits for or replays its answer. */
export async function claimSubmission(db: Db, sessionId: string, submissionId: string, now: number): Promise<Claim> {
  const inserted = await db
    .prepare("INSERT INTO submissions (session_id, submission_id, state, created_at) VALUES (?, ?, 'running', ?) ON CONFLICT DO NOTHING RETURNING state")
    .bind(sessionId, submissionId, now)
    .first<{ state: string }>();
  if (inserted) return { kind: "claimed" };
  const row = await db
    .prepare("SELECT state, status, headers, body, created_at FROM submissions WHERE session_id = ? AND submission_id = ?")
    .bind(sessionId, submissionId)
    .first<Row>();
  // Released between the two statements (the first send failed): try again.
  if (!row) return claimSubmission(db, sessionId, submissionId, now);
  if (row.state === "done" && row.status !== null) {
    return { kind: "answered", answer: { status: row.status, headers: JSON.parse(row.headers ?? "[]") as [string, string][], body: toArrayBuffer(row.body) } };
  }
  if (row.created_at <= now - ABANDONED_CLAIM_MS) {
    const taken = await db
      .prepare("UPDATE submissions SET created_at = ? WHERE session_id = ? AND submission_id = ? AND state = 'running' AND created_at = ?")
      .bind(now, sessionId, submissionId, row.created_at)
      .run();
    if (taken.meta.changes === 1) return { kind: "claimed" };
  }
  return { kind: "running" };
}

/** Keeps the answer of a claimed submission for its re-sends. */
export async function answerSubmission(db: Db, sessionId: string, submissionId: string, answer: StoredAnswer): Promise<void> {
  await db
    .prepare("UPDATE submissions SET state = 'done', status = ?, headers = ?, body = ? WHERE session_id = ? AND submission_id = ?")
    .bind(answer.status, JSON.stringify(answer.headers), answer.body, sessionId, submissionId)
    .run();
}

/** Gives a claimed submission up (refused or failed): a re-send runs afresh. */
export async function releaseSubmission(db: Db, sessionId: string, submissionId: string): Promise<void> {
  await db.prepare("DELETE FROM submissions WHERE session_id = ? AND submission_id = ? AND state = 'running'").bind(sessionId, submissionId).run();
}

/** Drops answers older than a day (the daily job). */
export async function dropOldSubmissions(db: Db, now: number): Promise<void> {
  await db
    .prepare("DELETE FROM submissions WHERE created_at < ?")
    .bind(now - SUBMISSION_TTL_MS)
    .run();
}
