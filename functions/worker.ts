// The one Worker: static assets are served before this runs (wrangler [assets]);
// every other request goes through Remix with a typed load context. The queue
// handler relays analytics events (functions/analytics/consumer.ts).
import { type AppLoadContext, createRequestHandler } from "@remix-run/cloudflare";
import * as build from "remix-server-build";
import { CROSS_ORIGIN_MESSAGE, isSameOriginRequest } from "./auth/origin";
import { answersSession } from "./auth/session";
import { submittingSession } from "./auth/sign-in";
import { ConfigError, configOf, type FullConfig } from "./env";
import { handleEventsBatch } from "./analytics/consumer";
import { handleWebhooksBatch } from "./webhooks/consumer";
import { dispatchPendingDeliveries } from "./webhooks/dispatch";
import { notifyBusiness, sendSettingsOf } from "./notifications/run";
import { handleNotificationsBatch, NOTIFICATIONS_QUEUE } from "./notifications/queue";
import { isUnsubscribePath } from "./notifications/links";
import "./load-context";
import { logError, logEvent } from "./plumbing/log";
import { misconfiguredAnswer, noteMisconfigured } from "./plumbing/misconfigured";
import { newNonce, newRequestId } from "./plumbing/request-id";
import { withSecurityHeaders } from "./plumbing/security-headers";
import { discardBody, withoutIgnoredBody } from "./plumbing/http";
import { runOnce } from "./plumbing/submitted-once";
import { handlePaymentsBatch, handlePaymentsDeadLetters, PAYMENTS_DLQ, PAYMENTS_QUEUE } from "./payments/consumer";
import { INGEST_OPS_PREFIX, ingestOpsRequest } from "./payments/ingest-replay";
import { handlePartnerApi } from "./partner-api/router";
import { finishProblem, problemResponse } from "./partner-api/problems";
import { handleRailCallback, isCallbackPath } from "./rails/callbacks";
import { withSetCookie } from "./plumbing/cookies";
import { businessDb, databaseNamed, RequestDatabases, shardNames } from "./tenancy/shards";
import { CRON_LINES, jobNamed, runJob, type JobName } from "./operators/jobs";
import { RequestTiming, timedEnv } from "./plumbing/timing";
import { coalescedEnv } from "./plumbing/d1-coalesce";
import { sealChain, sealDatabase } from "./audit/audit-chain";

const handleRemix = createRequestHandler(build);
/** The UI's 403 document (app/entry.server.tsx): the server keeps no copy of the page's words. */
const forbidden = (build.entry.module as unknown as { forbiddenDocument: (message: string, nonce: string) => string }).forbiddenDocument;
const WEBHOOKS_QUEUE = "partners-portal-webhooks";

/**
 * Runs a line's jobs in order, each recorded in job_runs (functions/operators/jobs.ts); one that fails is logged and
 * the next still runs, and the line fails at the end.
 */
async function runLine(cron: string, jobs: readonly JobName[], env: Env, now: number): Promise<void> {
  let failed: Error | null = null;
  for (const name of jobs) {
    const job = jobNamed(name);
    if (!job) continue;
    const { error } = await runJob(env, job, { trigger: "schedule", now });
    if (error) {
      failed ??= error;
      logEvent("error", "cron.line_failed", { cron, job: name });
    }
  }
  if (failed) throw failed;
}

/** Shown only when Remix itself cannot run (not a bad setting: that is misconfiguredAnswer): no scripts, nothing internal. */
function unavailablePage(requestId: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Internal Server Error</title></head><body><main><h1>Internal Server Error</h1><p>Something went wrong on our side. If it keeps happening, quote this error id to support: <strong>${requestId}</strong></p></main></body></html>`;
  return new Response(html, { status: 500, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * A browser said the request comes from another site. Authorization does not excuse that: a page elsewhere can add the
 * header, and Remix's own check then threw a 500. A command (the events replay) sends neither.
 */
function fromAnotherSite(request: Request): boolean {
  const origin = request.headers.get("Origin");
  const site = request.headers.get("Sec-Fetch-Site");
  return (origin !== null && origin !== new URL(request.url).origin) || (site !== null && site !== "same-origin" && site !== "none");
}

/**
 * State-changing requests from another site are refused before anything runs.
 * (Remix would throw on a cross-origin form post, which would read as a 500.)
 * A request that authenticates itself (Authorization, e.g. the events replay
 * command) carries no ambient cookie a forger could borrow, so it may pass.
 */
function crossOriginRefusal(request: Request): Response | null {
  if (isSameOriginRequest(request) || (request.headers.has("Authorization") && !fromAnotherSite(request))) return null;
  if ((request.headers.get("Accept") ?? "").includes("text/html")) {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Forbidden</title></head><body><main><h1>Forbidden</h1><p>${CROSS_ORIGIN_MESSAGE}</p></main></body></html>`;
    return new Response(html, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return Response.json({ message: CROSS_ORIGIN_MESSAGE }, { status: 403, headers: { "Cache-Control": "no-store" } });
}

const handler = {
  async fetch(request, env, ctx) {
    const requestId = newRequestId();
    const nonce = newNonce();
    // The payout and refund rails' callbacks: signed by the rail, not by a Partner API key (functions/rails/callbacks.ts).
    if (isCallbackPath(new URL(request.url).pathname)) {
      let response: Response;
      try {
        response = await handleRailCallback(request, env);
      } catch (error) {
        logError(requestId, request, error);
        // A 5xx makes the rail send it again; the id was forgotten, so that copy is taken.
        response = Response.json({ message: `Something went wrong on our side; nothing was applied. Quote ${requestId} to support.` }, { status: 500 });
      }
      return withSecurityHeaders(response, request, nonce, requestId);
    }
    // The Partner API authenticates each request with its own key: no session, no same-origin rule.
    if (new URL(request.url).pathname.toLowerCase().startsWith("/api/v1/")) {
      let response: Response;
      try {
        const { api } = configOf(env);
        response = await handlePartnerApi(request, {
          core: env.DB,
          database: (name) => databaseNamed(env, name),
          queue: env.PAYMENTS,
          now: Date.now,
          waitUntil: (promise) => ctx.waitUntil(promise),
          rateLimitPerMinute: api.rateLimitPerMinute,
          dispatchWebhooks: (business) => dispatchPendingDeliveries(env, Date.now(), business),
          evidence: env.EVIDENCE,
          requestId,
        });
      } catch (error) {
        if (error instanceof ConfigError) {
          response = problemResponse("misconfigured", noteMisconfigured(error, env, requestId, "Nothing was queued."), undefined, { "Retry-After": "300" });
        } else {
          // Never the body: it may be what a processor should not have sent.
          logError(requestId, request, error);
          response = problemResponse("internal_error", `Something went wrong on our side; nothing was queued. Quote ${requestId} to support.`);
        }
        response = await finishProblem(response, new URL(request.url).origin, requestId);
      }
      return withSecurityHeaders(response, request, nonce, requestId);
    }
    // Operators' listing and replay of parked Partner API messages (npm run ingest:replay): a secret, no session.
    if (new URL(request.url).pathname.startsWith(INGEST_OPS_PREFIX)) {
      let response: Response;
      try {
        response = await ingestOpsRequest(request, {
          databases: ["DB", ...shardNames(env)].map((name) => ({ name, db: databaseNamed(env, name) })),
          queue: env.PAYMENTS,
          replaySecret: configOf(env).events.replaySecret,
          requestId,
        });
      } catch (error) {
        if (error instanceof ConfigError) response = misconfiguredAnswer(error, request, env, requestId);
        else {
          logError(requestId, request, error);
          response = Response.json({ message: `Something went wrong on our side. Quote ${requestId} to support.` }, { status: 500 });
        }
      }
      return withSecurityHeaders(response, request, nonce, requestId);
    }
    // An email's one-click unsubscribe (RFC 8058) is posted by the mail client, from no page: its token is signed.
    const refused = isUnsubscribePath(new URL(request.url).pathname) ? null : crossOriginRefusal(request);
    if (refused) return withSecurityHeaders(refused, request, nonce, requestId);
    let response: Response;
    let signInOrigins: string[] = [];
    let databases: RequestDatabases | null = null;
    let timing: RequestTiming | null = null;
    let notifying: FullConfig | null = null;
    try {
      const config = configOf(env);
      notifying = config;
      signInOrigins = config.app.signInOrigins;
      timing = config.app.serverTiming ? new RequestTiming() : null;
      // D1 as loaders see it: reads started together go as one round trip (d1-coalesce.ts), timed when asked;
      // a business's database through a D1 session (read replicas, the bookmark cookie: functions/tenancy/shards.ts).
      const requestEnv = coalescedEnv(timedEnv(env, timing));
      databases = new RequestDatabases(requestEnv, request);
      const context: AppLoadContext = {
        cloudflare: { env: requestEnv, ctx },
        config,
        requestId,
        nonce,
        databases,
        timing,
        forbiddenDocument: (message) => forbidden(message, nonce),
      };
      // A form re-sent after a lost connection is answered, not run a second time.
      const sessionOf = (sent: Request) => submittingSession(sent, env.DB, config.auth, Date.now);
      response = await runOnce(request, env.DB, sessionOf, Date.now, (sent) => handleRemix(sent, context));
    } catch (error) {
      // A broken setting names itself (a 503, logged once); anything else Remix could not even start on is the 500 page.
      if (error instanceof ConfigError) response = misconfiguredAnswer(error, request, env, requestId);
      else {
        logError(requestId, request, error);
        response = unavailablePage(requestId);
      }
    }
    // A change may have written webhook deliveries in its batch (the outbox): queue them
    // now that it committed. One indexed read when there are none; the 5-minute sweep catches the rest.
    const business = databases?.business ?? null;
    if (request.method === "POST" && business) {
      ctx.waitUntil(dispatchPendingDeliveries(env, Date.now(), business).catch((error: unknown) => logError(requestId, request, error)));
      // The same for notices (decision 053): whoever this change makes wait, or was waiting for it, is told now.
      if (notifying)
        ctx.waitUntil(notifyBusiness(env, business, notifying, { scope: "change" }).catch((error: unknown) => logError(requestId, request, error)));
    }
    // The audit entries this request wrote get their place in the chain (decision 025): its business's, and the core
    // database's sign-in events. One indexed read each when there are none; the 5-minute cron seals what is missed.
    if (request.method !== "GET" && request.method !== "HEAD") {
      const sealing = Promise.all([business ? sealChain(business.db, business.businessId) : 0, sealDatabase(env.DB)]);
      ctx.waitUntil(sealing.catch((error: unknown) => logError(requestId, request, error)));
    }
    // Read-your-writes: the next request's reads start at least where this one's ended (functions/tenancy/shards.ts).
    const bookmark = databases?.bookmarkCookie() ?? null;
    if (bookmark) response = withSetCookie(response, bookmark);
    if (timing) {
      timing.loadersDone();
      response.headers.set("Server-Timing", timing.header());
    }
    const secured = withSecurityHeaders(response, request, nonce, requestId, signInOrigins);
    // Whatever a signed-in session is answered (documents, .data, exports, redirects) stays out of every cache. Set
    // after runOnce, which keeps no no-store answer; the Partner API (its public document) and assets never come here.
    // An answer that already says no-store (the sign-in callback, a CSV export) is as private already.
    if (answersSession(request, secured) && !/\bno-store\b/i.test(secured.headers.get("Cache-Control") ?? "")) {
      secured.headers.set("Cache-Control", "private, no-store");
    }
    return secured;
  },

  // partners-portal-events (relay) and partners-portal-events-dlq (park); partners-portal-webhooks (send);
  // partners-portal-payments (write) and partners-portal-payments-dlq (park).
  async queue(batch, env) {
    if (batch.queue === PAYMENTS_QUEUE) {
      // The payment.* webhooks written with the payments go out now, not at the next sweep.
      await handlePaymentsBatch(batch, {
        findBusiness: (businessId) => businessDb(env, businessId),
        core: env.DB,
        now: Date.now,
        afterWrite: (business) => dispatchPendingDeliveries(env, Date.now(), business).then(() => undefined),
        // The poison test hook (decision 028) exists only outside production.
        // Read raw: the consumer writes payments even when an unrelated setting is broken.
        testHooks: (env.ENVIRONMENT as string) !== "production",
      });
      return;
    }
    if (batch.queue === PAYMENTS_DLQ)
      return handlePaymentsDeadLetters(batch, { findBusiness: (businessId) => businessDb(env, businessId), core: env.DB, now: Date.now });
    // A bad configuration throws here: the whole batch is retried (wrangler.toml retry_delay).
    if (batch.queue === WEBHOOKS_QUEUE) return handleWebhooksBatch(batch, env, configOf(env));
    if (batch.queue === NOTIFICATIONS_QUEUE) return handleNotificationsBatch(batch, env, sendSettingsOf(env, configOf(env)));
    await handleEventsBatch(batch, env);
  },

  // Clearing and the webhook sweeps every 5 minutes, the daily settlement run (wrangler.toml [triggers] crons; CRON_LINES of
  // functions/operators/jobs.ts).
  scheduled(controller, env, ctx) {
    const lines = CRON_LINES[controller.cron];
    if (!lines) {
      logEvent("error", "cron.unknown", { cron: controller.cron });
      return;
    }
    for (const jobs of lines) ctx.waitUntil(runLine(controller.cron, jobs, env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;

export default {
  ...handler,
  // Every request, the API's and the rails' too: a GET's or HEAD's body is dropped at the door, and whatever body
  // the answer did not read is drained before it goes (functions/plumbing/http.ts).
  async fetch(received, env, ctx) {
    const request = withoutIgnoredBody(received);
    try {
      return await handler.fetch(request, env, ctx);
    } finally {
      await discardBody(received);
    }
  },
} satisfies ExportedHandler<Env>;
