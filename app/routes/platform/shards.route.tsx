// /platform/shards: the platform's databases (decision 021): the core one (DB) and each shard, with its size and the
// businesses the directory places on it; and the moves under way (`moving_to`), each business read-only meanwhile.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePlatform } from "#server/operators/guards";
import { databaseSize, movesUnderWay, shardPlacements } from "#server/operators/shards.db";
import { databaseNamed, shardNames } from "#server/tenancy/shards";
import { DataTable, type Column } from "#app/components/data-table";
import { formatCount, formatDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/page";
import { formatBytes } from "./figures";

export const meta: MetaFunction = () => [{ title: "Shards" }];
export const handle: PageHandle = { layout: "platform" };

/** D1's limit per database; the shards are planned to half of it (decision 021). */
const D1_LIMIT_BYTES = 10_000_000_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps } = await requirePlatform(request, context, "platform:view");
  const env = context.cloudflare.env;
  const names = ["DB", ...shardNames(env)];
  const [sizes, placements, moves] = await Promise.all([
    Promise.all(names.map((name) => databaseSize(databaseNamed(env, name)))),
    shardPlacements(deps.db),
    movesUnderWay(deps.db),
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
  };
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
  { id: "used", header: "Of 10 GB", numeric: true, cell: (d) => (d.usedPercent === null ? "—" : `${d.usedPercent}%`) },
  {
    id: "businesses",
    header: "Businesses",
    numeric: true,
    cell: (d) => (
      <Link to={`/platform?shard=${d.name}`}>
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
      <Link to={`/platform/businesses/${encodeURIComponent(m.businessId)}`} className="cell-title">
        <strong>{m.name}</strong>
        <span className="cell-sub">{m.businessId}</span>
      </Link>
    ),
  },
  { id: "from", header: "From", cell: (m) => m.shard },
  { id: "to", header: "To", cell: (m) => m.movingTo },
  { id: "since", header: "Started", cell: (m) => formatDate(m.since) },
];

export default function PlatformShards() {
  const { databases, moves } = useLoaderData<typeof loader>();
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
    </div>
  );
}
