// The one Worker: static assets are served before this runs (wrangler [assets]);
// every other request goes through Remix with a typed load context. The queue
// handler relays analytics events (functions/events/consumer.ts).
import { type AppLoadContext, createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import { CROSS_ORIGIN_MESSAGE, isSameOriginRequest } from "./auth/origin";
import { parseAuthConfig, parseConfig } from "./env";
import { handleEventsBatch } from "./events/consumer";
import { handleWebhooksBatch } from "./webhooks/consumer";
import { dispatchPendingDeliveries } from "./webhooks/dispatch";
import { sweepWebhooks } from "./webhooks/sweep";
import { payoutPortFor, settleAndPay } from "./settlement/daily";
import "./load-context";
import { logError } from "./log";
import { newNonce, newRequestId } from "./request-id";
import { withSecurityHeaders } from "./security-headers";
import { dropOldSubmissions } from "./data/submissions";
import { runOnce } from "./submitted-once";

const handleRemix = createRequestHandler(build);
const WEBHOOKS_QUEUE = "partners-portal-webhooks";

/** Shown only when Remix itself cannot run (bad configuration): no scripts, nothing internal. */
function unavailablePage(requestId: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Internal Server Error</title></head><body><main><h1>Internal Server Error</h1><p>Something went wrong on our side. If it keeps happening, quote this error id to support: <strong>${requestId}</strong></p></main></body></html>`;
  return new Response(html, { status: 500, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * State-changing requests from another site are refused before anything runs.
 * (Remix would throw on a cross-origin form post, which would read as a 500.)
 * A request that authenticates itself (Authorization, e.g. the events replay
 * command) carries no ambient cookie a forger could borrow, so it may pass.
 */
function crossOriginRefusal(request: Request): Response | null {
  if (isSameOriginRequest(request) || request.headers.has("Authorization")) return null;
  if ((request.headers.get("Accept") ?? "").includes("text/html")) {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Forbidden</title></head><body><main><h1>Forbidden</h1><p>${CROSS_ORIGIN_MESSAGE}</p></main></body></html>`;
    return new Response(html, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return Response.json({ message: CROSS_ORIGIN_MESSAGE }, { status: 403, headers: { "Cache-Control": "no-store" } });
}

export default {
  async fetch(request, env, ctx) {
    const requestId = newRequestId();
    const nonce = newNonce();
    const refused = crossOriginRefusal(request);
    if (refused) return withSecurityHeaders(refused, request, nonce, requestId);
    let response: Response;
    let signInOrigins: string[] = [];
    try {
      const config = parseConfig(env as unknown as Record<string, unknown>);
      signInOrigins = config.signInOrigins;
      const context: AppLoadContext = { cloudflare: { env, ctx }, config, requestId, nonce };
      // A form re-sent after a lost connection is answered, not run a second time.
      response = await runOnce(
        request,
        env.DB,
        () => parseAuthConfig(env as unknown as Record<string, unknown>),
        Date.now,
        (sent) => handleRemix(sent, context),
      );
    } catch (error) {
      logError(requestId, request, error);
      response = unavailablePage(requestId);
    }
    // A change may have written webhook deliveries in its batch (the outbox): queue them
    // now that it committed. One indexed read when there are none; the 5-minute sweep catches the rest.
    if (request.method === "POST") ctx.waitUntil(dispatchPendingDeliveries(env, Date.now()).catch((error: unknown) => logError(requestId, request, error)));
    return withSecurityHeaders(response, request, nonce, requestId, signInOrigins);
  },

  // partners-portal-events (relay) and partners-portal-events-dlq (park); partners-portal-webhooks (send).
  async queue(batch, env) {
    if (batch.queue === WEBHOOKS_QUEUE) return handleWebhooksBatch(batch, env);
    await handleEventsBatch(batch, env);
  },

  // The daily settlement run and the 5-minute sweeps (wrangler.toml [triggers] crons).
  scheduled(controller, env, ctx) {
    if (controller.cron === "*/5 * * * *") {
      ctx.waitUntil(sweepWebhooks(env, controller.scheduledTime));
      return;
    }
    ctx.waitUntil(
      settleAndPay(env.DB, payoutPortFor(env), {
        now: controller.scheduledTime,
        meta: { ip: null, userAgent: "cron", requestId: newRequestId() },
        actor: null,
      }).then(() => dispatchPendingDeliveries(env, Date.now()).then(() => undefined)),
    );
    ctx.waitUntil(dropOldSubmissions(env.DB, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
