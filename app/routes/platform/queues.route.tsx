// /platform/queues: what the queues could not deliver. The Partner API's payment messages the consumer parked
// (decision 028), by database, business, source and error; and the analytics events the dead-letter queue parked.
// Counts, times and errors only: a message's body (a payment as a processor sent it) is never shown here.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePlatform } from "#server/operators/guards";
import { businessNames } from "#server/operators/businesses.db";
import { deadLetteredEvents, parkedGroups, PARKED_GROUPS_LIMIT } from "#server/operators/queues.db";
import { databaseNamed, shardNames } from "#server/tenancy/shards";
import { DataTable, type Column } from "#app/components/data-table";
import { Details } from "#app/components/details";
import { formatCount, formatDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/page";

export const meta: MetaFunction = () => [{ title: "Queues" }];
export const handle: PageHandle = { layout: "platform" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps } = await requirePlatform(request, context, "platform:view");
  const env = context.cloudflare.env;
  // The core database parks what names a business no database knows; the shards park their own businesses'.
  const databases = ["DB", ...shardNames(env)];
  const [groups, events] = await Promise.all([
    Promise.all(databases.map(async (database) => (await parkedGroups(databaseNamed(env, database))).map((group) => ({ ...group, database })))),
    deadLetteredEvents(deps.db),
  ]);
  const parked = groups.flat().sort((a, b) => b.count - a.count || a.oldestAt - b.oldestAt);
  const names = await businessNames(
    deps.db,
    parked.map((group) => group.businessId),
  );
  return {
    parked: parked.map((group) => ({ ...group, businessName: names.get(group.businessId) ?? null })),
    parkedTotal: parked.reduce((sum, group) => sum + group.count, 0),
    capped: groups.some((database) => database.length >= PARKED_GROUPS_LIMIT),
    events,
  };
}

type Group = ReturnType<typeof useLoaderData<typeof loader>>["parked"][number];

const PARKED_COLUMNS: readonly Column<Group>[] = [
  {
    id: "business",
    header: "Business",
    cell: (g) =>
      g.businessName ? (
        <Link to={`/platform/businesses/${encodeURIComponent(g.businessId)}`} className="cell-title">
          <strong>{g.businessName}</strong>
          <span className="cell-sub">{g.businessId}</span>
        </Link>
      ) : (
        <span className="cell-title">
          <strong>Unknown business</strong>
          <span className="cell-sub">{g.businessId}</span>
        </span>
      ),
  },
  { id: "database", header: "Database", cell: (g) => g.database },
  { id: "source", header: "Parked by", cell: (g) => (g.source === "dead_letter" ? "Dead-letter queue" : "Consumer") },
  { id: "error", header: "Error", cell: (g) => g.error },
  { id: "count", header: "Messages", numeric: true, cell: (g) => formatCount(g.count) },
  { id: "oldest", header: "Oldest parked", cell: (g) => formatDate(g.oldestAt) },
  { id: "newest", header: "Newest parked", cell: (g) => formatDate(g.newestAt) },
];

export default function PlatformQueues() {
  const { parked, parkedTotal, capped, events } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Queues</h1>
        <p className="page__lead">What the queues could not deliver, kept until it is replayed. Times are Africa/Accra.</p>
      </header>
      <section className="card" aria-labelledby="parked-title">
        <h2 id="parked-title">Parked Partner API payments</h2>
        <p className="card__lead">
          {parkedTotal === 0
            ? "No payment message is parked: every message the Partner API accepted was applied."
            : `${formatCount(parkedTotal)} ${parkedTotal === 1 ? "message" : "messages"} the consumer could not apply, by business and error. Nothing of them was applied; the business sees each on its Developers tab.`}
          {capped ? " Only the largest groups of each database are listed." : ""}
        </p>
        {parked.length > 0 ? (
          <DataTable
            caption="Parked payment messages"
            columns={PARKED_COLUMNS}
            rows={parked}
            rowKey={(g) => `${g.database}/${g.businessId}/${g.source}/${g.error}`}
            empty={null}
          />
        ) : null}
      </section>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Dead-lettered analytics events</h2>
        <Details
          rows={[
            ["Parked events", formatCount(events.count)],
            ["Oldest parked", events.oldestAt ? formatDate(events.oldestAt) : "—"],
            ...events.errors.map((e) => [e.error || "No error recorded", `${formatCount(e.count)} events`] as const),
          ]}
        />
      </section>
    </div>
  );
}
