import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { readLatestBuildId } from "#server/plumbing/build-info";

// `t` only defeats caches in between; it must look like a timestamp if present.
const Query = v.object({ t: v.optional(v.pipe(v.string(), v.regex(/^\d{1,16}$/, "t must be a timestamp in milliseconds"))) });

const noStore = { "Cache-Control": "no-store, max-age=0" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = v.safeParse(Query, { t: new URL(request.url).searchParams.get("t") ?? undefined });
  if (!query.success) {
    return Response.json({ message: query.issues.map((issue) => issue.message).join("; ") }, { status: 400, headers: noStore });
  }
  const buildId = await readLatestBuildId(context.cloudflare.env.KV);
  return Response.json({ buildId }, { headers: noStore });
}
