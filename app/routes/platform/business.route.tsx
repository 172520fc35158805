// /platform/businesses/:businessId: one business as the platform sees it (decision 039), read only. Its place in the
// directory and its counts and sums from its own database: people, merchants, terminals, payments, the merchants'
// money, disputes, parked messages and webhooks. Never a payer's number, card or name, nor a payment's detail.
// Each part is a section of business-sections.tsx; what acts on the business (its lifecycle) comes as sections of its own.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Link, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requirePlatform } from "#server/operators/guards";
import { businessViewedAuditStatement, platformBusiness } from "#server/operators/businesses.db";
import { businessSummary, failureRate } from "#server/operators/figures.db";
import { movableDatabases } from "#server/operators/operations";
import { waitingFor } from "#server/operators/requests.db";
import { platformCan } from "#server/operators/roles";
import { pageNotFound } from "#server/plumbing/http";
import { databaseNamed } from "#server/tenancy/shards";
import { StatusPill } from "#app/components/status-pill";
import type { PageHandle } from "#app/lib/shell/page";
import { AboutSection, DatabaseSection, MoneySection, PaymentsSection, PeopleAndPlacesSection, ProblemsSection } from "./business-sections";

export const meta: MetaFunction = () => [{ title: "Business" }];
export const handle: PageHandle = { layout: "platform" };
export { readOnlyPlatformAction as action } from "#server/operators/guards";

const BusinessId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/));

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, staff } = await requirePlatform(request, context, "platform:view");
  const id = v.safeParse(BusinessId, params.businessId);
  const business = id.success ? await platformBusiness(deps.db, id.output) : null;
  if (!business) pageNotFound(request);
  const now = deps.now();
  // Read where the directory places it: until a move switches, its rows are still on the database it leaves.
  const env = context.cloudflare.env;
  const [summary, waiting] = await Promise.all([
    businessSummary({ businessId: business.id, db: databaseNamed(env, business.shard) }, now),
    waitingFor(deps.db, business.id),
  ]);
  // Reading a business's figures is audited on the platform's chain, once per view (BUSINESS_VIEW_WINDOW_MS), and
  // before they are shown: no figures leave without their entry.
  await businessViewedAuditStatement(deps.db, { userId: staff.userId, meta: deps.meta }, business, now).run();
  return {
    business,
    summary,
    parkedLagMs: summary.parked.oldestAt === null ? null : Math.max(0, now - summary.parked.oldestAt),
    webhookFailureRate: failureRate(summary.webhooks),
    move: {
      mayAsk: platformCan(staff.role, "platform:request"),
      targets: movableDatabases(env).filter((name) => name !== business.shard),
      waiting: waiting.find((r) => r.kind === "move_business")?.id ?? null,
    },
    // Suspending, reactivating and closing are asked on the business's standing page.
    mayAskStanding: platformCan(staff.role, "platform:request"),
  };
}

export default function PlatformBusiness() {
  const loaded = useLoaderData<typeof loader>();
  const { business } = loaded;
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to={platformPaths.platform()}>Platform</Link>
        </p>
        <h1>{business.tradingName ?? business.name}</h1>
        <p className="page__lead">
          <StatusPill entity="business" status={business.lifecycle} /> <span className="code">{business.id}</span>{" "}
          <Link to={platformPaths.platformBusinessLifecycle(business.id)}>{loaded.mayAskStanding ? "Suspend, reactivate or close" : "Its standing"}</Link>
        </p>
      </header>
      <AboutSection {...loaded} />
      <PaymentsSection {...loaded} />
      <MoneySection {...loaded} />
      <PeopleAndPlacesSection {...loaded} />
      <ProblemsSection {...loaded} />
      <DatabaseSection {...loaded} />
    </div>
  );
}
