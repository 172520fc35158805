// The runs of the scheduled jobs (job_runs, migration 0030), in the core database: a row when a job starts, its outcome
// and duration when it ends. A row with no end is a run under way, or one the runtime stopped before it could end.
import type { Db } from "../tenancy/tenant";

export type JobTrigger = "schedule" | "platform";
export type JobOutcome = "ok" | "failed";

export interface JobRun {
  id: number;
  job: string;
  trigger: JobTrigger;
  requestId: string | null;
  startedAt: string;
  finishedAt: string | null;
  outcome: JobOutcome | null;
  durationMs: number | null;
  detail: string | null;
}

/** Runs kept per job: about 17 hours of a 5-minute job, 200 days of a daily one. Older rows go as new ones end. */
export const RUNS_KEPT_PER_JOB = 200;
/** The column's own limit (migration 0030). */
const DETAIL_LIMIT = 500;

const COLUMNS = `id, job, trigger, request_id AS requestId, started_at AS startedAt, finished_at AS finishedAt, outcome, duration_ms AS durationMs, detail`;

export async function recordJobStart(core: Db, run: { job: string; trigger: JobTrigger; requestId: string | null; startedAt: number }): Promise<number> {
  const row = await core
    .prepare("INSERT INTO job_runs (job, trigger, request_id, started_at) VALUES (?, ?, ?, ?) RETURNING id")
    .bind(run.job, run.trigger, run.requestId, new Date(run.startedAt).toISOString())
    .first<{ id: number }>();
  if (!row) throw new Error("job_runs gave no id");
  return row.id;
}

/** The end of a run, and the job's runs beyond the newest RUNS_KEPT_PER_JOB removed (job_runs_by_job). */
export async function recordJobFinish(
  core: Db,
  id: number,
  job: string,
  end: { outcome: JobOutcome; finishedAt: number; durationMs: number; detail: string | null },
): Promise<void> {
  await core.batch([
    core
      .prepare("UPDATE job_runs SET finished_at = ?, outcome = ?, duration_ms = ?, detail = ? WHERE id = ?")
      .bind(new Date(end.finishedAt).toISOString(), end.outcome, Math.max(0, Math.round(end.durationMs)), end.detail?.slice(0, DETAIL_LIMIT) ?? null, id),
    core
      .prepare("DELETE FROM job_runs WHERE job = ?1 AND id < coalesce((SELECT id FROM job_runs WHERE job = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2), 0)")
      .bind(job, RUNS_KEPT_PER_JOB - 1),
  ]);
}

/** Each named job's newest run, and its newest run that ended well (null when there is none). */
export async function lastJobRuns(core: Db, jobs: readonly string[]): Promise<Map<string, { last: JobRun | null; lastOk: JobRun | null }>> {
  const names = JSON.stringify(jobs);
  // One index seek per job name (job_runs_by_job), not a read of every run.
  const [last, lastOk] = await core.batch([
    core
      .prepare(`SELECT ${COLUMNS} FROM job_runs WHERE id IN (SELECT (SELECT MAX(r.id) FROM job_runs r WHERE r.job = j.value) FROM json_each(?) j)`)
      .bind(names),
    core
      .prepare(
        `SELECT ${COLUMNS} FROM job_runs WHERE id IN (SELECT (SELECT r.id FROM job_runs r WHERE r.job = j.value AND r.outcome = 'ok' ORDER BY r.id DESC LIMIT 1) FROM json_each(?) j)`,
      )
      .bind(names),
  ]);
  const found = new Map(jobs.map((job) => [job, { last: null as JobRun | null, lastOk: null as JobRun | null }]));
  for (const run of (last?.results ?? []) as JobRun[]) found.get(run.job)!.last = run;
  for (const run of (lastOk?.results ?? []) as JobRun[]) found.get(run.job)!.lastOk = run;
  return found;
}

/** The newest runs, of one job or all, newest first. */
export async function recentJobRuns(core: Db, query: { job?: string; limit: number }): Promise<JobRun[]> {
  const { results } = query.job
    ? await core.prepare(`SELECT ${COLUMNS} FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT ?`).bind(query.job, query.limit).all<JobRun>()
    : await core.prepare(`SELECT ${COLUMNS} FROM job_runs ORDER BY id DESC LIMIT ?`).bind(query.limit).all<JobRun>();
  return results;
}

/** The run a platform request started ("run now", a move), if any: applying the request twice runs nothing twice. */
export async function jobRunForRequest(core: Db, job: string, requestId: string): Promise<JobRun | null> {
  // By the job's index: at most RUNS_KEPT_PER_JOB rows are read.
  return core.prepare(`SELECT ${COLUMNS} FROM job_runs WHERE job = ? AND request_id = ? ORDER BY id DESC LIMIT 1`).bind(job, requestId).first<JobRun>();
}
