// The built Worker (dist/worker/worker.js, bundled by `npm run build` exactly as
// `wrangler deploy` bundles it) running in workerd through Miniflare, with real
// D1, KV and Queue bindings and the static client build as assets. Used by the
// integration tests (vitest) and the end-to-end tests (Playwright) alike.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";

export const ROOT = resolve(import.meta.dirname, "../..");
const WORKER_BUNDLE = join(ROOT, "dist/worker/worker.js");
const CLIENT_BUILD = join(ROOT, "build/client");
const BUILD_ID_FILE = join(ROOT, "build/build-id.txt");

// The binding ids of wrangler.toml: local state is keyed by them, so a folder
// prepared with `wrangler ... --persist-to` is the one Miniflare opens.
const D1_ID = "00000000-0000-4000-8000-000000000001";
const KV_ID = "00000000000000000000000000000001";
export const LATEST_BUILD_KEY = "build:latest";

/** The analytics queues of wrangler.toml. */
export const EVENTS_QUEUE = "partners-portal-events";
export const EVENTS_DLQ = "partners-portal-events-dlq";

/** One [[queues.consumers]] entry of wrangler.toml, in Miniflare's words. */
export interface QueueConsumerSettings {
  maxBatchSize?: number;
  /** Seconds (fractions allowed here) a partial batch waits before it is delivered. */
  maxBatchTimeout?: number;
  maxRetries?: number;
  deadLetterQueue?: string;
  retryDelay?: number;
}

/** The two analytics consumers as wrangler.toml declares them, with test-sized retries and batching. */
export function eventsConsumers(options: { maxRetries: number; maxBatchTimeout?: number }): Record<string, QueueConsumerSettings> {
  const maxBatchTimeout = options.maxBatchTimeout ?? 0.1;
  return {
    [EVENTS_QUEUE]: { maxBatchSize: 10, maxBatchTimeout, maxRetries: options.maxRetries, deadLetterQueue: EVENTS_DLQ },
    [EVENTS_DLQ]: { maxBatchSize: 10, maxBatchTimeout, maxRetries: 10 },
  };
}

export interface PortalOptions {
  /** A folder prepared by tests/support/state.ts; copied so each portal starts from it. */
  template?: string;
  vars?: Record<string, string>;
  /**
   * Queues the portal Worker consumes, by queue name (e.g. `eventsConsumers(...)`).
   * None by default: messages sent to a queue nobody consumes are dropped.
   */
  queueConsumers?: Record<string, QueueConsumerSettings>;
  /** A second Worker consumes this queue instead and keeps every message body, for `queued()`. */
  spyOnQueue?: string;
  /** A fixed port (e.g. when an OpenID provider must know the redirect URI first); default: any free one. */
  port?: number;
}

export interface Portal {
  url: string;
  mf: Miniflare;
  buildId: string;
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  kv(): Promise<KVNamespace>;
  db(): Promise<D1Database>;
  /** The EVENTS producer: send to the queue directly, as a redelivery would. */
  eventsQueue(): Promise<Queue>;
  /** Bodies the spy Worker took off `spyOnQueue`, in the order it took them. */
  queued(): Promise<unknown[]>;
  dispose(): Promise<void>;
}

const SPY_WORKER = "queue-spy";
const SPY_SCRIPT = `export default {
  async queue(batch, env) {
    for (const message of batch.messages) {
      await env.SPY.put(String(Date.now()).padStart(15, "0") + "-" + message.id, JSON.stringify(message.body ?? null));
      message.ack();
    }
  },
  fetch() { return new Response(null, { status: 404 }); },
};`;

export function requireBuild(): void {
  if (!existsSync(WORKER_BUNDLE) || !existsSync(CLIENT_BUILD)) {
    throw new Error("No build found: run `npm run build` first (npm test does it for you).");
  }
}

export async function startPortal(options: PortalOptions = {}): Promise<Portal> {
  requireBuild();
  const state = mkdtempSync(join(tmpdir(), "pp-portal-"));
  if (options.template) cpSync(options.template, state, { recursive: true });
  const portalWorker: WorkerOptions = {
    modules: [{ type: "ESModule", path: WORKER_BUNDLE, contents: readFileSync(WORKER_BUNDLE, "utf8") }],
    compatibilityDate: "2026-04-01",
    bindings: { ENVIRONMENT: "development", ...options.vars },
    d1Databases: { DB: D1_ID },
    kvNamespaces: { KV: KV_ID },
    queueProducers: { EVENTS: EVENTS_QUEUE },
    ...(options.queueConsumers ? { queueConsumers: options.queueConsumers } : {}),
    assets: { directory: CLIENT_BUILD, binding: "ASSETS", routerConfig: { has_user_worker: true } },
  };
  const shared = {
    d1Persist: join(state, "v3/d1"),
    kvPersist: join(state, "v3/kv"),
    // A fixed placeholder instead of fetching Request.cf from the network.
    cf: false,
    host: "127.0.0.1",
    port: options.port ?? 0,
    log: new Log(process.env.PORTAL_LOG === "1" ? LogLevel.DEBUG : LogLevel.WARN),
  };
  const spy = options.spyOnQueue;
  const mf = new Miniflare(
    spy
      ? {
          ...shared,
          workers: [
            { name: "portal", ...portalWorker },
            {
              name: SPY_WORKER,
              modules: true,
              script: SPY_SCRIPT,
              compatibilityDate: "2026-04-01",
              kvNamespaces: { SPY: "queue-spy" },
              queueConsumers: { [spy]: { maxBatchSize: 100, maxBatchTimeout: 0.05 } },
            },
          ],
        }
      : { ...shared, ...portalWorker },
  );
  const url = (await mf.ready).toString().replace(/\/$/, "");
  const buildId = readFileSync(BUILD_ID_FILE, "utf8").trim();
  return {
    url,
    mf,
    buildId,
    // dispatchFetch lets a test choose the Host (https://portal.example.com, http://localhost).
    fetch: (path, init = {}) => {
      const { host, ...rest } = init;
      const target = new URL(path, host ?? url).toString();
      return mf.dispatchFetch(target, { redirect: "manual", ...rest } as never) as unknown as Promise<Response>;
    },
    kv: () => mf.getKVNamespace("KV"),
    db: () => mf.getD1Database("DB"),
    eventsQueue: () => mf.getQueueProducer("EVENTS"),
    queued: async () => {
      if (!spy) throw new Error("Start the portal with spyOnQueue to read what was queued.");
      const kv = (await mf.getKVNamespace("SPY", SPY_WORKER)) as unknown as KVNamespace;
      const bodies: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await kv.list({ cursor });
        for (const key of page.keys) bodies.push(JSON.parse((await kv.get(key.name)) ?? "null"));
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return bodies;
    },
    dispose: async () => {
      await mf.dispose();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
