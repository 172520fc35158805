// /platform/shards: the platform's databases (decision 021): the core one (DB) and each shard, with its size and the
// businesses the directory places on it; the moves under way (`moving_to`), each business read-only meanwhile; and the
// recent moves, as job_runs recorded them. A move is asked for on the business's page and posted here (intent=move):
// a request another Platform Administrator decides, and its approval runs the move (functions/tenancy/shard-move.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Link, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { platformBusiness } from "#server/operators/businesses.db";
import { requirePlatform } from "#server/operators/guards";
import { recentJobRuns } from "#server/operators/jobs.db";
import { MOVE_JOB, movableDatabases } from "#server/operators/operations";
import { databaseSize, movesUnderWay, shardPlacements } from "#server/operators/shards.db";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { databaseNamed, shardNames } from "#server/tenancy/shards";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { formatCount, tableDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/shell/page";
import { formatBytes, formatDuration } from "./figures";
import { askOperation } from "./operations.server";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Shards" }];
export const handle: PageHandle = { layout: "platform" };

/** D1's limit per database; the shards are planned to half of it (decision 021). */
const D1_LIMIT_BYTES = 10_000_000_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps } = await requirePlatform(request, context, "platform:view");
  const env = context.cloudflare.env;
  const names = ["DB", ...shardNames(env)];
  const [sizes, placements, moves, recentMoves] = await Promise.all([
    Promise.all(names.map((name) => databaseSize(databaseNamed(env, name)))),
    shardPlacements(deps.db),
    movesUnderWay(deps.db),
    recentJobRuns(deps.db, { job: MOVE_JOB, limit: 10 }),
  ]);
  const placed = new Map(placements.map((p) => [p.shard, p]));
  return {
    databases: names.map((name, i) => ({
      name,
      role: name === "DB" ? "Core: sign-in, the directory, and businesses placed before shards" : "Shard",
      size: sizes[i] ?? null,
      usedPercent: sizes[i] ? Math.round((sizes[i] / D1_LIMIT_BYTES) * 1000) / 10 : null,
      businesses: placed.get(name)?.businesses ?? 0,
      arriving: placed.get(name)?.arriving ?? 0,
    })),
    moves,
    recentMoves,
  };
}

const Move = v.object({
  intent: v.literal("move"),
  business: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  to: v.pipe(v.string(), v.regex(/^(DB|SHARD_[A-Z0-9_]{1,30})$/, "Choose the database to move it to.")),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(Move, read.fields);
  if (!parsed.success) return refuse({ form: "Choose the database to move the business to." });
  const business = await platformBusiness(maker.deps.db, parsed.output.business);
  if (!business) pageNotFound(request);
  const { to } = parsed.output;
  if (!movableDatabases(context.cloudflare.env).includes(to)) return refuse({ form: `${to} is not a database of this platform.` });
  if (business.shard === to) return refuse({ form: `${business.tradingName ?? business.name} is on ${to} already.` });
  if (business.movingTo) return refuse({ form: `${business.tradingName ?? business.name} is being moved to ${business.movingTo} already.` });
  return askOperation(request, context, maker, "move_business", business.id, { businessName: business.tradingName ?? business.name, from: business.shard, to });
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

const DATABASE_COLUMNS: readonly Column<Loaded["databases"][number]>[] = [
  {
    id: "name",
    header: "Database",
    cell: (d) => (
      <span className="cell-title">
        <strong>{d.name}</strong>
        <span className="cell-sub">{d.role}</span>
      </span>
    ),
  },
  { id: "size", header: "Size", numeric: true, cell: (d) => formatBytes(d.size) },
  { id: "used", header: "Of 10 GB", numeric: true, cell: (d) => (d.usedPercent === null ? "—" : d.usedPercent < 0.1 ? "under 0.1%" : `${d.usedPercent}%`) },
  {
    id: "businesses",
    header: "Businesses",
    numeric: true,
    cell: (d) => (
      <Link to={platformPaths.platform({ shard: d.name })}>
        {formatCount(d.businesses)}
        {d.arriving > 0 ? ` (+${formatCount(d.arriving)} arriving)` : ""}
      </Link>
    ),
  },
];

const MOVE_COLUMNS: readonly Column<Loaded["moves"][number]>[] = [
  {
    id: "business",
    header: "Business",
    cell: (m) => (
      <Link to={platformPaths.platformBusiness(m.businessId)} className="cell-title">
        <strong>{m.name}</strong>
        <span className="cell-sub">{m.businessId}</span>
      </Link>
    ),
  },
  { id: "from", header: "From", cell: (m) => m.shard },
  { id: "to", header: "To", cell: (m) => m.movingTo },
  { id: "since", header: "Started", cell: (m) => tableDate(m.since) },
];

const RECENT_MOVE_COLUMNS: readonly Column<Loaded["recentMoves"][number]>[] = [
  { id: "started", header: "Started", cell: (r) => tableDate(r.startedAt) },
  {
    id: "outcome",
    header: "Outcome",
    cell: (r) =>
      r.outcome === "ok" ? (
        <span className="status status--good">Moved</span>
      ) : r.outcome === "failed" ? (
        <span className="status status--bad">Not moved</span>
      ) : (
        <span className="status status--wait">Running or stopped</span>
      ),
  },
  { id: "duration", header: "Duration", numeric: true, cell: (r) => formatDuration(r.durationMs) },
  { id: "request", header: "Request", cell: (r) => (r.requestId ? <Link to={platformPaths.platformRequest(r.requestId)}>The request</Link> : "—") },
  { id: "detail", header: "Detail", cell: (r) => r.detail ?? "" },
];

export default function PlatformShards() {
  const { databases, moves, recentMoves } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Shards</h1>
        <p className="page__lead">
          The platform&apos;s databases, how large each is (as D1 reports it) and how many businesses live on each. A business is moved whole, its rows copied
          and checked before it switches.
        </p>
      </header>
      <section className="card" aria-labelledby="databases-title">
        <h2 id="databases-title">Databases</h2>
        <DataTable caption="Databases" columns={DATABASE_COLUMNS} rows={databases} rowKey={(d) => d.name} empty={<p>No database is bound.</p>} />
      </section>
      <section className="card" aria-labelledby="moves-title">
        <h2 id="moves-title">Moves under way</h2>
        {moves.length === 0 ? (
          <p className="card__lead">No business is being moved.</p>
        ) : (
          <>
            <p className="card__lead">Each business is read-only until its copy is checked and the directory switches to the new database.</p>
            <DataTable caption="Moves under way" columns={MOVE_COLUMNS} rows={moves} rowKey={(m) => m.businessId} empty={null} />
          </>
        )}
      </section>
      <section className="card" aria-labelledby="recent-moves-title">
        <h2 id="recent-moves-title">Recent moves</h2>
        <p className="card__lead">A move is asked for on the business&apos;s page, and runs when another Platform Administrator approves it.</p>
        <DataTable
          caption="Recent moves"
          columns={RECENT_MOVE_COLUMNS}
          rows={recentMoves}
          rowKey={(r) => String(r.id)}
          empty={<p>No move was made from the platform yet.</p>}
        />
      </section>
    </div>
  );
}
