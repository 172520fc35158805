// POST /api/events: one analytics event from the browser, onto the EVENTS queue
// (functions/analytics/ingest.ts). POST /api/events/replay: the operator's replay of
// parked events, with the replay secret (functions/analytics/replay.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { authDeps } from "#server/auth/deps";
import { sessionEmail, signedInIdentity } from "#server/auth/identity";
import { methodNotAllowed, notFound } from "#server/analytics/http";
import { acceptEvent } from "#server/analytics/ingest";
import { replayRequest } from "#server/analytics/replay";

// Route matching ignores case (SPEC section 2): /api/events/Replay is the replay too.
const Params = v.object({ op: v.optional(v.pipe(v.string(), v.toLowerCase(), v.value("replay"))) });

export function loader({ request, params }: LoaderFunctionArgs) {
  if (!v.is(Params, params)) return notFound(request);
  return methodNotAllowed();
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const parsed = v.safeParse(Params, params);
  if (!parsed.success) return notFound(request);
  if (request.method !== "POST") return methodNotAllowed();
  const { env, ctx } = context.cloudflare;
  if (parsed.output.op === "replay") {
    return replayRequest(request, { db: env.DB, queue: env.EVENTS, config: context.config.events, requestId: context.requestId });
  }
  // Made at first use: a refused event never reads the session.
  let auth: ReturnType<typeof authDeps> | null = null;
  const deps = () => (auth ??= authDeps(request, context));
  return acceptEvent(request, {
    db: env.DB,
    queue: env.EVENTS,
    waitUntil: (promise) => ctx.waitUntil(promise),
    requestId: context.requestId,
    identity: () => signedInIdentity(request, deps()),
    sessionEmail: () => sessionEmail(request, deps()),
  });
}
