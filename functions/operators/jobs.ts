// The scheduled jobs, by name: what each runs, when the Cron Triggers run it (functions/worker.ts CRON_JOBS), and the
// record of every run (job_runs) that the platform's Jobs screen reads. A job is run the same way by its cron and by
// the platform's "run now"; only the trigger recorded differs. Recording is best effort: a database that refuses the
// record is logged, and the job runs (and ends) all the same.
import { logEvent } from "../plumbing/log";
import { runArchive } from "../archive/job";
import { sealDatabase } from "../audit/audit-chain";
import { configOf, railsConfigOf, type FullConfig } from "../env";
import { clearDuePayments } from "../ledger/clearing";
import { dropOldIdempotencyKeys } from "../partner-api/api-idempotency.db";
import { newRequestId } from "../plumbing/request-id";
import { dropOldSubmissions } from "../plumbing/submissions.db";
import { processRefunds } from "../refunds/send";
import { payoutPortFor as payoutRailPortFor, railProblems, refundPortFor } from "../rails/ports";
import { pollRails as pollRailsOf } from "../rails/apply";
import { payoutPortFor, settleAndPay } from "../settlement/daily";
import { processPayouts } from "../settlement/payouts";
import { databaseNamed, everyBusinessDb, shardNames } from "../tenancy/shards";
import { dispatchPendingDeliveries } from "../webhooks/dispatch";
import { sweepWebhooks } from "../webhooks/sweep";
import { dropOldEvents } from "../webhooks/events.db";
import { digestEveryBusiness, notifyEveryBusiness } from "../notifications/run";
import { recordJobFinish, recordJobStart, type JobOutcome, type JobTrigger } from "./jobs.db";

/**
 * A job gets the env and, when it needs them, the settings parsed once from it (configOf: the same object every
 * request reads). Asked for, not handed ready: a job that reads no setting (clearing, sealing the audit chain) runs
 * even while an unrelated setting is broken.
 */
export type JobRunner = (env: Env, now: number, settings: () => FullConfig) => Promise<unknown>;

export interface ScheduledJob {
  /** Its name in job_runs and in a "run now" request (lower case, hyphens). */
  name: string;
  label: string;
  /** What it does, for the Jobs screen. */
  what: string;
  run: JobRunner;
}

const clear: JobRunner = async (env, now) => clearDuePayments(await everyBusinessDb(env), now);
const settle: JobRunner = async (env, now) =>
  settleAndPay(await everyBusinessDb(env, { activeOnly: true }), payoutPortFor(env, railsConfigOf(env)), {
    now,
    meta: { ip: null, userAgent: "cron", requestId: newRequestId() },
    actor: null,
  });
const dropSubmissions: JobRunner = (env, now) => dropOldSubmissions(env.DB, now);
// Idempotency keys are each business's, so every database that holds businesses is swept.
const dropIdempotencyKeys: JobRunner = async (env, now) => {
  for (const name of shardNames(env).concat("DB")) await dropOldIdempotencyKeys(databaseNamed(env, name), now);
};
const webhookSweep: JobRunner = (env, now) => sweepWebhooks(env, now);
// The events feed keeps 30 days (functions/webhooks/events.db.ts): older events no delivery refers to are dropped.
const dropEvents: JobRunner = async (env, now) => {
  for (const business of await everyBusinessDb(env)) await dropOldEvents(business, now);
};
// Audit entries not sealed after their request (decision 025): every database, every chain with unsealed entries.
const sealAudit: JobRunner = async (env) => {
  for (const name of shardNames(env).concat("DB")) await sealDatabase(databaseNamed(env, name));
};
const archive: JobRunner = async (env, now, settings) =>
  runArchive({
    businesses: await everyBusinessDb(env),
    bucket: env.ARCHIVE,
    now,
    retentionMonths: settings().archive.retentionMonths,
  });
// The settlement run's settlement.paid / settlement.failed events, sent now rather than at the next sweep.
const sendWebhooks: JobRunner = (env) => dispatchPendingDeliveries(env, Date.now());
// Approved refunds are sent right after their approval (app/routes/approvals/money-request.route.tsx); this retries what failed or was missed.
const sendRefunds: JobRunner = async (env, now) => {
  const port = refundPortFor(env, railsConfigOf(env));
  if (!port) return;
  for (const business of await everyBusinessDb(env)) {
    const run = await processRefunds(business, port, { now });
    if (run.succeeded.length + run.failed.length > 0) await dispatchPendingDeliveries(env, Date.now(), business);
  }
};
// Approved transfers to a settlement account are paid out right after their approval (decision 052); this sends what
// failed (after its wait: TRANSFER_PAYOUT_RETRY_DELAYS_MS) or was missed. A rail left unconfigured fails the job.
const sendTransferPayouts: JobRunner = async (env, now) => {
  const rails = railsConfigOf(env);
  const port = payoutRailPortFor(env, rails);
  if (!port) throw new Error(railProblems(rails).payout ?? "No payout rail is configured.");
  for (const business of await everyBusinessDb(env)) {
    const run = await processPayouts(business, port, { transfersOnly: true, now });
    if (run.paid.length + run.failed.length > 0) await dispatchPendingDeliveries(env, Date.now(), business);
  }
};

// Payouts and refunds sent to a rail and unanswered for RAIL_POLL_AFTER_MINUTES: asked about (functions/rails/apply.ts).
// A rail left unconfigured fails the job with the message naming the variable, so the Jobs screen says why.
const pollRails: JobRunner = async (env, now) => {
  const rails = railsConfigOf(env);
  const problems = railProblems(rails);
  const result = await pollRailsOf(
    await everyBusinessDb(env),
    { payout: payoutRailPortFor(env, rails), refund: refundPortFor(env, rails) },
    {
      now,
      afterMs: rails.pollAfterMs,
    },
  );
  if (result.answered > 0) await dispatchPendingDeliveries(env, Date.now());
  const problem = [problems.payout, problems.refund].filter(Boolean).join("; ");
  if (problem) throw new Error(problem);
};

// Notices of what waits and what was decided, and their emails (decision 053): after each change too; this catches
// what a change's own run missed and tries again what a provider refused.
const notify: JobRunner = async (env, now, settings) => notifyEveryBusiness(env, await everyBusinessDb(env, { activeOnly: true }), settings(), now);

// The 07:00 digest (decision 053): what waits, what the hourly cap held back, silent terminals; then it is sent.
const digest: JobRunner = async (env, now, settings) => digestEveryBusiness(env, await everyBusinessDb(env, { activeOnly: true }), settings(), now);

/** Every scheduled job, in the order the Jobs screen lists them. */
export const JOBS = [
  { name: "clearing", label: "Clearing", what: "Makes payments due for clearing available to their merchants.", run: clear },
  { name: "settlement", label: "Settlement and payouts", what: "Settles each active business's cleared money and pays it out.", run: settle },
  { name: "settlement-webhooks", label: "Settlement webhooks", what: "Sends the settlement run's webhooks at once.", run: sendWebhooks },
  { name: "archive", label: "Archive", what: "Moves months older than the retention to the cold archive (R2).", run: archive },
  { name: "audit-sealing", label: "Audit sealing", what: "Seals audit entries not yet in their chain, on every database.", run: sealAudit },
  { name: "webhook-sweep", label: "Webhook sweep", what: "Queues webhook deliveries that are due or were missed.", run: webhookSweep },
  { name: "refunds", label: "Refunds", what: "Sends approved refunds that failed or were missed.", run: sendRefunds },
  {
    name: "transfer-payouts",
    label: "Transfer payouts",
    what: "Pays out approved transfers to settlement accounts that failed or were missed.",
    run: sendTransferPayouts,
  },
  { name: "notifications", label: "Notifications", what: "Tells people what waits for them and what was decided, in the portal and by email.", run: notify },
  {
    name: "digest",
    label: "Daily digest",
    what: "Emails each person who asked for it what waits for them, with what the hourly cap held back and silent terminals.",
    run: digest,
  },
  { name: "rail-poll", label: "Payout and refund answers", what: "Asks the payout and refund rails about what they have not answered.", run: pollRails },
  { name: "drop-submissions", label: "Old form submissions", what: "Drops the record of forms sent long ago.", run: dropSubmissions },
  { name: "drop-idempotency-keys", label: "Old idempotency keys", what: "Drops Partner API idempotency keys past their time.", run: dropIdempotencyKeys },
  { name: "drop-old-events", label: "Old events", what: "Drops events older than the events feed's 30 days that no delivery refers to.", run: dropEvents },
] as const satisfies readonly ScheduledJob[];

export type JobName = (typeof JOBS)[number]["name"];
export const JOB_NAMES = JOBS.map((job) => job.name) as readonly JobName[];

export function jobNamed(name: string): ScheduledJob | null {
  return JOBS.find((job) => job.name === name) ?? null;
}

/**
 * What each Cron Trigger of wrangler.toml [triggers] runs: lines run side by side, the jobs of a line one after the
 * other. The daily run clears first so that yesterday's last clearings are there to settle. Add work to a cron here.
 */
export const CRON_LINES: Readonly<Record<string, readonly (readonly JobName[])[]>> = {
  "*/5 * * * *": [["clearing"], ["webhook-sweep"], ["refunds", "transfer-payouts", "rail-poll"], ["audit-sealing"], ["notifications"]],
  "0 6 * * *": [
    ["clearing", "settlement", "settlement-webhooks"],
    ["drop-submissions", "drop-idempotency-keys", "drop-old-events"],
    // Months older than the retention go to R2 (functions/archive/job.ts); balances and rollups stay, so it may run beside the settlement.
    ["archive"],
  ],
  // Accra wakes: the digest of what waits, and the SMS held through the quiet hours go out (the 5-minute run).
  "0 7 * * *": [["digest"]],
};

/**
 * A cron as the Jobs screen says it, read from the cron itself so that no second list of the crons is kept: "every N
 * minutes" and "daily at HH:MM" (Accra is UTC+0, as Cron Triggers are). Any other cron is shown as written.
 */
export function cronInWords(cron: string): string {
  const every = /^\*\/([1-9]\d?) \* \* \* \*$/.exec(cron);
  if (every) return every[1] === "1" ? "Every minute" : `Every ${every[1]} minutes`;
  const daily = /^([1-5]?\d) (1?\d|2[0-3]) \* \* \*$/.exec(cron);
  if (daily) return `Daily at ${daily[2]!.padStart(2, "0")}:${daily[1]!.padStart(2, "0")}`;
  return cron;
}

/** When a job runs, in words for the Jobs screen ("Every 5 minutes", "Daily at 06:00"), one per cron that runs it. */
export function schedulesOf(name: string): string[] {
  return Object.entries(CRON_LINES)
    .filter(([, lines]) => lines.some((line) => (line as readonly string[]).includes(name)))
    .map(([cron]) => cronInWords(cron));
}

export interface JobRunOptions {
  trigger: JobTrigger;
  /** The platform request that asked for the run ("run now"). */
  requestId?: string | null;
  now: number;
  /** What the run's record says when it ends well (a failure records its error). */
  detail?: string;
  /** The clock for the duration (tests). */
  clock?: () => number;
}

export interface JobResult {
  outcome: JobOutcome;
  durationMs: number;
  error: Error | null;
}

/** Runs one job and records the run; never throws: the outcome says how it went (a failure is logged too). */
export async function runJob(env: Env, job: ScheduledJob, options: JobRunOptions): Promise<JobResult> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  let runId: number | null = null;
  try {
    runId = await recordJobStart(env.DB, { job: job.name, trigger: options.trigger, requestId: options.requestId ?? null, startedAt: started });
  } catch (error) {
    logEvent("error", "job.record_failed", { job: job.name, message: messageOf(error) });
  }
  let failure: Error | null = null;
  try {
    await job.run(env, options.now, () => configOf(env));
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    logEvent("error", "cron.failed", { job: job.name, trigger: options.trigger, message: failure.message });
  }
  const finished = clock();
  const result: JobResult = { outcome: failure ? "failed" : "ok", durationMs: Math.max(0, finished - started), error: failure };
  if (runId !== null) {
    try {
      await recordJobFinish(env.DB, runId, job.name, {
        outcome: result.outcome,
        finishedAt: finished,
        durationMs: result.durationMs,
        detail: failure?.message ?? options.detail ?? null,
      });
    } catch (error) {
      logEvent("error", "job.record_failed", { job: job.name, message: messageOf(error) });
    }
  }
  return result;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
