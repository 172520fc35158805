// /platform/jobs: the scheduled jobs (functions/operators/jobs.ts), each with its schedule and its last run: when,
// how it ended and how long it took; below, the recent runs, of every job or of one (?job=). A Platform Administrator
// asks to run a job now: a request another administrator decides (functions/operators/operations.ts runs it).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requirePlatform } from "#server/operators/guards";
import { JOB_NAMES, JOBS, schedulesOf } from "#server/operators/jobs";
import { lastJobRuns, recentJobRuns } from "#server/operators/jobs.db";
import { listPlatformRequests } from "#server/operators/requests.db";
import { platformCan } from "#server/operators/roles";
import { refuse } from "#server/plumbing/http";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { ListForm } from "#app/components/lists/list-form";
import { tableDate } from "#app/lib/format";
import { listParams } from "#app/lib/lists/list-params";
import type { PageHandle } from "#app/lib/shell/page";
import { formatDuration } from "./figures";
import { askOperation } from "./operations.server";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Jobs" }];
export const handle: PageHandle = { layout: "platform" };

const RECENT_RUNS = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const { filters } = listParams(new URL(request.url), { job: v.optional(v.picklist(JOB_NAMES)) });
  const [last, recent, waiting] = await Promise.all([
    lastJobRuns(deps.db, JOB_NAMES),
    recentJobRuns(deps.db, { job: filters.job, limit: RECENT_RUNS }),
    listPlatformRequests(deps.db, "waiting"),
  ]);
  const asked = new Map(waiting.filter((r) => r.kind === "run_job").map((r) => [r.subjectId, r.id]));
  const labels = Object.fromEntries(JOBS.map((job) => [job.name, job.label]));
  return {
    jobs: JOBS.map((job) => ({
      name: job.name,
      label: job.label,
      what: job.what,
      schedule: schedulesOf(job.name).join("; ") || "Not scheduled",
      last: last.get(job.name)?.last ?? null,
      lastOk: last.get(job.name)?.lastOk ?? null,
      waitingRequest: asked.get(job.name) ?? null,
    })),
    mayAsk: platformCan(staff.role, "platform:request"),
    recent: recent.map((run) => ({ ...run, label: labels[run.job] ?? run.job })),
    job: filters.job ?? null,
  };
}

const RunNow = v.object({ intent: v.literal("run"), job: v.picklist(JOB_NAMES) });

export async function action({ request, context }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(RunNow, read.fields);
  if (!parsed.success) return refuse({ form: "Choose a job to run." });
  const job = JOBS.find((j) => j.name === parsed.output.job)!;
  return askOperation(request, context, maker, "run_job", job.name, { label: job.label });
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Job = Loaded["jobs"][number];
type Run = Loaded["recent"][number];

function Outcome({ run }: { run: { outcome: "ok" | "failed" | null; finishedAt: string | null } | null }) {
  if (!run) return <span className="status">Never run</span>;
  if (run.outcome === "ok") return <span className="status status--good">Succeeded</span>;
  if (run.outcome === "failed") return <span className="status status--bad">Failed</span>;
  return <span className="status status--wait">Running or stopped</span>;
}

const JOB_COLUMNS: readonly Column<Job>[] = [
  {
    id: "job",
    header: "Job",
    cell: (job) => (
      <Link to={`?job=${job.name}`} className="cell-title">
        <strong>{job.label}</strong>
        <span className="cell-sub">{job.what}</span>
      </Link>
    ),
  },
  { id: "schedule", header: "Schedule", cell: (job) => job.schedule },
  { id: "last", header: "Last run", cell: (job) => (job.last ? tableDate(job.last.startedAt) : "—") },
  { id: "outcome", header: "Outcome", cell: (job) => <Outcome run={job.last} /> },
  { id: "duration", header: "Duration", numeric: true, cell: (job) => formatDuration(job.last?.durationMs ?? null) },
  { id: "ok", header: "Last success", cell: (job) => (job.lastOk ? tableDate(job.lastOk.startedAt) : "—") },
];

/** "Run now" for those who may ask; the request already waiting instead of a second one. */
const RUN_COLUMN: Column<Job> = {
  id: "run",
  header: "Run now",
  action: true,
  cell: (job) =>
    job.waitingRequest ? (
      <Link to={platformPaths.platformRequest(job.waitingRequest)}>Waiting for a decision</Link>
    ) : (
      <Form method="post">
        <input type="hidden" name="intent" value="run" />
        {/* The job's name is read after the visible words, so the button's name begins with what it shows (WCAG 2.5.3). */}
        <button type="submit" name="job" value={job.name} className="button">
          Run now<span className="visually-hidden">: {job.label}</span>
        </button>
      </Form>
    ),
};

const RUN_COLUMNS: readonly Column<Run>[] = [
  { id: "job", header: "Job", cell: (run) => run.label },
  { id: "started", header: "Started", cell: (run) => tableDate(run.startedAt) },
  { id: "trigger", header: "Trigger", cell: (run) => (run.trigger === "schedule" ? "Schedule" : "Run now") },
  { id: "outcome", header: "Outcome", cell: (run) => <Outcome run={run} /> },
  { id: "duration", header: "Duration", numeric: true, cell: (run) => formatDuration(run.durationMs) },
  { id: "detail", header: "Detail", cell: (run) => run.detail ?? "" },
];

export default function PlatformJobs() {
  const { jobs, recent, job, mayAsk } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Jobs</h1>
        <p className="page__lead">
          The scheduled jobs, when each last ran, how it ended and how long it took. Times are Africa/Accra.
          {mayAsk ? " Run now asks for one run at once: another Platform Administrator approves it, and it runs then." : ""}
        </p>
      </header>
      {answer?.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {answer.errors.form}
        </p>
      ) : null}
      <section className="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Scheduled jobs</h2>
        <DataTable
          caption="Scheduled jobs"
          columns={mayAsk ? [...JOB_COLUMNS, RUN_COLUMN] : JOB_COLUMNS}
          rows={jobs}
          rowKey={(j) => j.name}
          empty={<p>No job is scheduled.</p>}
        />
      </section>
      <section className="card" aria-labelledby="runs-title">
        <div className="card__header">
          <h2 id="runs-title">Recent runs</h2>
          <ListForm sets={["job"]} submitOnSelect className="list-toolbar__form">
            <label className="list-toolbar__filter">
              <span>Job</span>
              <select name="job" defaultValue={job ?? ""}>
                <option value="">Every job</option>
                {jobs.map((j) => (
                  <option key={j.name} value={j.name}>
                    {j.label}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button">
              Apply
            </button>
          </ListForm>
        </div>
        <DataTable caption="Recent runs" columns={RUN_COLUMNS} rows={recent} rowKey={(r) => String(r.id)} empty={<p>No run is recorded yet.</p>} />
      </section>
    </div>
  );
}
