// /platform/queues: what the queues could not deliver. The Partner API's payment messages the consumer parked
// (decision 028), by database, business, source and error; and the analytics events the dead-letter queue parked.
// And the notifications' emails and texts given up (decision 053), with the provider's error and never the address.
// Counts, times and errors only: a message's body (a payment as a processor sent it) is never shown here. A Platform
// Administrator asks to replay a queue's oldest parked messages: a request another administrator decides.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requirePlatform } from "#server/operators/guards";
import { businessNames } from "#server/operators/businesses.db";
import { deadLetteredEvents, deadNotificationEmails, parkedGroups, PARKED_GROUPS_LIMIT } from "#server/operators/queues.db";
import { QUEUES, REPLAY_LIMIT, type QueueName } from "#server/operators/operations";
import { listPlatformRequests } from "#server/operators/requests.db";
import { platformCan } from "#server/operators/roles";
import { refuse } from "#server/plumbing/http";
import { databaseNamed, shardNames } from "#server/tenancy/shards";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { Details } from "#app/components/details";
import { detailDate, formatCount, tableDate } from "#app/lib/format";
import type { PageHandle } from "#app/lib/shell/page";
import { askOperation } from "./operations.server";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Queues" }];
export const handle: PageHandle = { layout: "platform" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const env = context.cloudflare.env;
  // The core database parks what names a business no database knows; the shards park their own businesses'.
  const databases = ["DB", ...shardNames(env)];
  const [groups, events, waiting, deadEmails] = await Promise.all([
    Promise.all(databases.map(async (database) => (await parkedGroups(databaseNamed(env, database))).map((group) => ({ ...group, database })))),
    deadLetteredEvents(deps.db),
    listPlatformRequests(deps.db, "waiting"),
    Promise.all(databases.map((database) => deadNotificationEmails(databaseNamed(env, database)))),
  ]);
  const emails = deadEmails.flat().sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const parked = groups.flat().sort((a, b) => b.count - a.count || a.oldestAt - b.oldestAt);
  const names = await businessNames(deps.db, [...parked.map((group) => group.businessId), ...emails.map((email) => email.businessId)]);
  return {
    parked: parked.map((group) => ({ ...group, businessName: names.get(group.businessId) ?? null })),
    parkedTotal: parked.reduce((sum, group) => sum + group.count, 0),
    capped: groups.some((database) => database.length >= PARKED_GROUPS_LIMIT),
    events,
    mayAsk: platformCan(staff.role, "platform:request"),
    waiting: Object.fromEntries(waiting.filter((r) => r.kind === "replay_queue").map((r) => [r.subjectId, r.id])) as Partial<Record<QueueName, string>>,
    replayLimit: REPLAY_LIMIT,
    deadEmails: emails.map((email) => ({ ...email, businessName: names.get(email.businessId) ?? email.businessId })),
  };
}

const Replay = v.object({ intent: v.literal("replay"), queue: v.picklist(Object.keys(QUEUES) as QueueName[]) });

export async function action({ request, context }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(Replay, read.fields);
  if (!parsed.success) return refuse({ form: "Choose a queue to replay." });
  return askOperation(request, context, maker, "replay_queue", parsed.output.queue, { label: QUEUES[parsed.output.queue].label, limit: REPLAY_LIMIT });
}

/** Replay for those who may ask, when there is something to replay; the waiting request instead of a second one. */
function ReplayButton({ queue, label, waiting, count, limit }: { queue: QueueName; label: string; waiting: string | undefined; count: number; limit: number }) {
  if (waiting) {
    return (
      <p>
        <Link to={platformPaths.platformRequest(waiting)}>A replay waits for a decision</Link>
      </p>
    );
  }
  if (count === 0) return null;
  return (
    <Form method="post" className="form">
      <input type="hidden" name="intent" value="replay" />
      <button type="submit" name="queue" value={queue} className="button">
        {`Ask to replay (the oldest ${limit})`}
        <span className="visually-hidden">: {label.toLowerCase()}</span>
      </button>
    </Form>
  );
}

type Group = ReturnType<typeof useLoaderData<typeof loader>>["parked"][number];

const PARKED_COLUMNS: readonly Column<Group>[] = [
  {
    id: "business",
    header: "Business",
    cell: (g) =>
      g.businessName ? (
        <Link to={platformPaths.platformBusiness(g.businessId)} className="cell-title">
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
  { id: "oldest", header: "Oldest parked", cell: (g) => tableDate(g.oldestAt) },
  { id: "newest", header: "Newest parked", cell: (g) => tableDate(g.newestAt) },
];

type DeadEmail = ReturnType<typeof useLoaderData<typeof loader>>["deadEmails"][number];

const DEAD_EMAIL_COLUMNS: readonly Column<DeadEmail>[] = [
  { id: "business", header: "Business", cell: (e) => e.businessName },
  { id: "notice", header: "Notification", cell: (e) => e.title },
  { id: "channel", header: "Channel", cell: (e) => (e.channel === "sms" ? "SMS" : "Email") },
  { id: "error", header: "Last error", cell: (e) => e.lastError ?? "No error recorded" },
  { id: "attempts", header: "Attempts", numeric: true, cell: (e) => formatCount(e.attempts) },
  { id: "made", header: "Made", cell: (e) => tableDate(e.createdAt) },
];

export default function PlatformQueues() {
  const { parked, parkedTotal, capped, events, mayAsk, waiting, replayLimit, deadEmails } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <div className="page">
      <header className="page__header">
        <h1>Queues</h1>
        <p className="page__lead">What the queues could not deliver, kept until it is replayed. Times are Africa/Accra.</p>
      </header>
      {answer?.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {answer.errors.form}
        </p>
      ) : null}
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
        {mayAsk ? (
          <ReplayButton queue="payments" label="Parked Partner API payments" waiting={waiting.payments} count={parkedTotal} limit={replayLimit} />
        ) : null}
      </section>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Dead-lettered analytics events</h2>
        <Details
          rows={[
            ["Parked events", formatCount(events.count)],
            ["Oldest parked", events.oldestAt ? detailDate(events.oldestAt) : "—"],
            ...events.errors.map((e) => [e.error || "No error recorded", `${formatCount(e.count)} events`] as const),
          ]}
        />
        {mayAsk ? (
          <ReplayButton queue="events" label="Dead-lettered analytics events" waiting={waiting.events} count={events.count} limit={replayLimit} />
        ) : null}
      </section>
      <section className="card" aria-labelledby="emails-title">
        <h2 id="emails-title">Notifications given up</h2>
        <p className="card__lead">
          {deadEmails.length === 0
            ? "No notification email or text was given up: every one was sent or is still being tried."
            : "Emails and texts the provider refused for good (the address or number) or for a whole day. The notices are in each person's inbox all the same."}
        </p>
        {deadEmails.length > 0 ? (
          <DataTable caption="Notifications given up" columns={DEAD_EMAIL_COLUMNS} rows={deadEmails} rowKey={(e) => e.id} empty={null} />
        ) : null}
      </section>
    </div>
  );
}
