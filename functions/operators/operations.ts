// The platform's operations as requests (decision 039): "run now" a scheduled job, move a business to another
// database, replay what a queue parked. One Platform Administrator asks, another approves under a fresh check, and the
// approval applies it here. Each is applied while the approving request waits, not after its answer: a job, a move or
// a replay may take longer than the 30 seconds a Worker keeps running after it has answered (waitUntil), and one cut
// off there would leave a move half done. The approving page shows the outcome; the Jobs and Shards screens show the run.
import { replayParked } from "../analytics/replay";
import { replayParkedPayments } from "../payments/ingest-replay";
import { businessPlace } from "../tenancy/directory.db";
import { MoveRefused, moveBusiness, type MoveReport } from "../tenancy/shard-move";
import { databaseNamed, shardNames } from "../tenancy/shards";
import { RuleError } from "../tenancy/tenant";
import { jobRunForRequest } from "./jobs.db";
import { jobNamed, runJob, type ScheduledJob } from "./jobs";
import type { PlatformKindSpec } from "./requests";

/** The job name a move is recorded under in job_runs: the Shards screen reads its runs. */
export const MOVE_JOB = "shard-move";
/** What a replay request puts back on its queue at most (the oldest first); more is another request. */
export const REPLAY_LIMIT = 100;

export const QUEUES = {
  payments: { label: "Parked Partner API payments", what: "Puts the oldest parked payment messages back on the payments queue." },
  events: { label: "Dead-lettered analytics events", what: "Puts the parked analytics events back on the events queue." },
} as const;
export type QueueName = keyof typeof QUEUES;

const text = (value: unknown, fallback: string) => (typeof value === "string" && value ? value : fallback);

/** The databases a business may be moved to: the ones this Worker binds. */
export function movableDatabases(env: Env): string[] {
  return ["DB", ...shardNames(env)];
}

const runJobSpec: PlatformKindSpec = {
  kind: "run_job",
  title: (request) => `Run ${jobNamed(request.subjectId)?.label ?? request.subjectId} now`,
  facts: (request) => [
    ["Job", jobNamed(request.subjectId)?.label ?? request.subjectId],
    ["What it does", jobNamed(request.subjectId)?.what ?? "A job this version no longer has."],
    ["When", "Once, as soon as the request is approved; its schedule is unchanged."],
  ],
  async apply(run, request) {
    const job = jobNamed(request.subjectId);
    if (!job) throw new RuleError("This version of the platform has no such job.");
    const env = run.context.cloudflare.env;
    // Approved twice at once: the second approval reads the first one's run instead of running the job again.
    const earlier = await jobRunForRequest(env.DB, job.name, request.id);
    if (earlier) return { job: job.name, runId: earlier.id, outcome: earlier.outcome, durationMs: earlier.durationMs };
    const result = await runJob(env, job, { trigger: "platform", requestId: request.id, now: run.deps.now() });
    return { job: job.name, outcome: result.outcome, durationMs: result.durationMs, ...(result.error ? { error: result.error.message } : {}) };
  },
};

const moveSpec: PlatformKindSpec = {
  kind: "move_business",
  title: (request) => `Move ${text(request.after.businessName, request.subjectId)} to ${text(request.after.to, "another database")}`,
  facts: (request) => [
    ["Business", `${text(request.after.businessName, request.subjectId)} (${request.subjectId})`],
    ["From", text(request.after.from, "Where it is now")],
    ["To", text(request.after.to, "—")],
    [
      "While it moves",
      "The business is read-only (its people are asked to try again shortly; the Partner API's payments wait in the queue). Its rows are copied, checked by rows per table and ledger sums, and only then does it switch.",
    ],
  ],
  async apply(run, request) {
    const env = run.context.cloudflare.env;
    const to = text(request.after.to, "");
    if (!movableDatabases(env).includes(to)) throw new RuleError(`${to || "That database"} is not a database of this platform.`);
    const place = await businessPlace(env.DB, request.subjectId);
    if (!place) throw new RuleError("This business is no longer on the platform.");
    // Moved already (by this request approved twice at once, or by the command): nothing to do.
    if (place.shard === to && !place.movingTo) return { businessId: place.businessId, to, moved: false, already: true };
    if (place.movingTo) throw new RuleError(`The business is being moved to ${place.movingTo} already.`);
    let report: MoveReport | null = null;
    const move: ScheduledJob = {
      name: MOVE_JOB,
      label: "Move a business",
      what: `${place.businessId}: ${place.shard} → ${to}`,
      run: async () => {
        report = await moveBusiness({ core: env.DB, database: (name) => databaseNamed(env, name) }, place.businessId, to);
      },
    };
    const result = await runJob(env, move, {
      trigger: "platform",
      requestId: request.id,
      now: run.deps.now(),
      detail: `${place.businessId}: ${place.shard} → ${to}`,
    });
    if (result.error instanceof MoveRefused) throw new RuleError(result.error.message);
    if (result.error) throw result.error;
    const done = report as MoveReport | null;
    return {
      businessId: place.businessId,
      from: place.shard,
      to,
      moved: true,
      durationMs: result.durationMs,
      rows: done?.rows ?? {},
      accounts: done?.accounts ?? 0,
    };
  },
};

const replaySpec: PlatformKindSpec = {
  kind: "replay_queue",
  title: (request) => `Replay ${(QUEUES[request.subjectId as QueueName]?.label ?? request.subjectId).toLowerCase()}`,
  facts: (request) => [
    ["Queue", QUEUES[request.subjectId as QueueName]?.label ?? request.subjectId],
    ["What it does", QUEUES[request.subjectId as QueueName]?.what ?? "A queue this version no longer has."],
    ["At most", `${REPLAY_LIMIT} messages, the oldest first`],
    ["Safe to repeat", "Each payment is applied once however often it is sent; a message that fails again is parked again."],
  ],
  async apply(run, request) {
    const env = run.context.cloudflare.env;
    if (request.subjectId === "payments") {
      const databases = movableDatabases(env).map((name) => ({ db: databaseNamed(env, name) }));
      const { replayed } = await replayParkedPayments(databases, env.PAYMENTS, { limit: REPLAY_LIMIT });
      return { queue: "payments", replayed: replayed.length };
    }
    if (request.subjectId === "events") {
      const result = await replayParked(env.DB, env.EVENTS, REPLAY_LIMIT);
      return { queue: "events", ...result };
    }
    throw new RuleError("This version of the platform has no such queue.");
  },
};

export const OPERATION_SPECS = { run_job: runJobSpec, move_business: moveSpec, replay_queue: replaySpec } satisfies Record<string, PlatformKindSpec>;
