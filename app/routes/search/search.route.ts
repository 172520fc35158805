// GET /search?q=: the top bar's search box asks here as the person types (app/components/search/). JSON, for this
// person's business and only the kinds their role may view (./search.server.ts); never cached.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { requireTenant } from "#server/guards";
import { searchParam } from "#app/lib/lists/list-params";
import { searchEverything } from "./search.server";

const Query = v.object({ q: searchParam });

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Each kind's permission is checked where it is read: a role that may view none of them finds nothing.
  const { tenant } = await requireTenant(request, context, null);
  const parsed = v.safeParse(Query, { q: new URL(request.url).searchParams.get("q") ?? undefined });
  const answer = await searchEverything(tenant, parsed.success ? (parsed.output.q ?? "") : "");
  return Response.json(answer, { headers: { "Cache-Control": "private, no-store" } });
}
