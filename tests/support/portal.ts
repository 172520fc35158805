// The built Worker (dist/worker/worker.js, bundled by `npm run build` exactly as
// `wrangler deploy` bundles it) running in workerd through Miniflare, with real
// D1, KV and Queue bindings and the static client build as assets. Used by the
// integration tests (vitest) and the end-to-end tests (Playwright) alike.
//
// Tests reach D1, KV and the Queue only through the node-bindings Worker
// (bindings.ts), never through Miniflare's synchronous binding proxies, whose
// race under CPU load failed whole test files; that is also why `mf` is not
// part of the Portal.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";
import { bindingsWorker, callBindings, routedTestD1, testD1, testKv, testQueue, testR2, type BindingsFetch, type TestKv, type TestQueue } from "./bindings";
import { shardIds } from "../../scripts/lib/wrangler";
import { useBusinessDatabases } from "./tenants";

export const ROOT = resolve(import.meta.dirname, "../..");
const WORKER_BUNDLE = join(ROOT, "dist/worker/worker.js");
const CLIENT_BUILD = join(ROOT, "build/client");
const BUILD_ID_FILE = join(ROOT, "build/build-id.txt");

// The binding ids of wrangler.toml: local state is keyed by them, so a folder
// prepared with `wrangler ... --persist-to` is the one Miniflare opens.
const D1_ID = "00000000-0000-4000-8000-000000000001";
const KV_ID = "00000000000000000000000000000001";
export const LATEST_BUILD_KEY = "build:latest";
/** The cold archive's R2 bucket of wrangler.toml. */
const ARCHIVE_BUCKET = "partners-portal-archive";
/** Disputes' evidence bucket of wrangler.toml. */
const EVIDENCE_BUCKET = "partners-portal-evidence";

/** The analytics queues of wrangler.toml. */
export const EVENTS_QUEUE = "partners-portal-events";
export const EVENTS_DLQ = "partners-portal-events-dlq";
/** The Partner API's queue of wrangler.toml. */
export const PAYMENTS_QUEUE = "partners-portal-payments";
/** Its dead-letter queue, whose consumer parks what reaches it (decision 028). */
export const PAYMENTS_DLQ = "partners-portal-payments-dlq";
/** The webhooks queue of wrangler.toml (functions/webhooks/consumer.ts). */
export const WEBHOOKS_QUEUE = "partners-portal-webhooks";
export const NOTIFICATIONS_QUEUE = "partners-portal-notifications";

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

/** The Partner API's consumer and its dead-letter queue's as wrangler.toml declares them, with test-sized batching. */
export function paymentsConsumers(options: { maxRetries?: number; maxBatchTimeout?: number; retryDelay?: number } = {}): Record<string, QueueConsumerSettings> {
  const maxBatchTimeout = options.maxBatchTimeout ?? 0.1;
  return {
    [PAYMENTS_QUEUE]: {
      maxBatchSize: 10,
      maxBatchTimeout,
      maxRetries: options.maxRetries ?? 20,
      deadLetterQueue: PAYMENTS_DLQ,
      ...(options.retryDelay !== undefined ? { retryDelay: options.retryDelay } : {}),
    },
    [PAYMENTS_DLQ]: { maxBatchSize: 10, maxBatchTimeout, maxRetries: 10 },
  };
}

/** The webhooks consumer as wrangler.toml declares it, with test-sized batching (retries come from WEBHOOKS_RETRY_* vars). */
export function webhooksConsumers(options: { maxRetries?: number; maxBatchTimeout?: number } = {}): Record<string, QueueConsumerSettings> {
  return { [WEBHOOKS_QUEUE]: { maxBatchSize: 10, maxBatchTimeout: options.maxBatchTimeout ?? 0.1, maxRetries: options.maxRetries ?? 100 } };
}

/** The notifications consumer as wrangler.toml declares it, with test-sized batching. */
export function notificationsConsumers(): Record<string, QueueConsumerSettings> {
  return { [NOTIFICATIONS_QUEUE]: { maxBatchSize: 10, maxBatchTimeout: 0.1, maxRetries: 10 } };
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
  /**
   * Every line the portal logs, for a test that reads them: Miniflare's log from DEBUG up (its access line per
   * request included, as `wrangler dev` prints it) and the Worker's console (workerd's stdout and stderr).
   */
  logTo?: (line: string) => void;
  /** The Cloudflare Email Service binding EMAIL ([[send_email]]), as Miniflare runs it locally (it keeps each email). */
  sendEmail?: boolean;
}

/** Miniflare's log, line by line into `sink`, without terminal colours. */
class CapturedLog extends Log {
  constructor(private readonly sink: (line: string) => void) {
    super(LogLevel.DEBUG);
  }
  protected override log(message: string): void {
    // eslint-disable-next-line no-control-regex
    this.sink(message.replace(/\x1b\[[0-9;]*m/g, ""));
  }
}

export interface Portal {
  url: string;
  /** The state folder (D1, KV) this portal runs on: PP_STATE_DIR for a script that reads it (npm run simulate). */
  stateDir: string;
  buildId: string;
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  kv(): Promise<TestKv>;
  /**
   * The databases as tests reach them: a statement goes to the database of the business whose id it binds, or to
   * the core one when it names only the core's tables (tests/support/bindings.ts routedTestD1).
   */
  db(): Promise<D1Database>;
  /** The core database (sign-in, the directory). */
  core(): D1Database;
  /** One database by its binding (DB, SHARD_A, SHARD_B). */
  database(binding: string): D1Database;
  /** Every shard database (SHARD_A, SHARD_B). */
  shards(): D1Database[];
  /** The database that holds a business now (the directory, as last read: startPortal and refreshPlaces read it). */
  businessDb(businessId: string): D1Database;
  /** Reads the directory again (after a business moved). */
  refreshPlaces(): Promise<void>;
  /**
   * A business a test makes itself: placed in the directory on `shard` before its rows are written (they then go
   * there), and, once written, its row, people and memberships copied to the core database as sign-in reads them.
   */
  placeBusiness(businessId: string, shard: string): Promise<void>;
  copyBusinessToCore(businessId: string): Promise<void>;
  /** The EVENTS producer: send to the queue directly, as a redelivery would. */
  eventsQueue(): Promise<TestQueue>;
  /** The PAYMENTS producer: what the Partner API queues, sent again as a redelivery would be. */
  paymentsQueue(): Promise<TestQueue>;
  /** Bodies the spy Worker took off `spyOnQueue`, in the order it took them. */
  queued(): Promise<unknown[]>;
  /** The ARCHIVE bucket (R2), as the Worker sees it. */
  archive(): Promise<ReturnType<typeof testR2>>;
  /** The EVIDENCE bucket (R2): disputes' evidence files. */
  evidence(): Promise<ReturnType<typeof testR2>>;
  /** Runs the Worker's scheduled handler (a Cron Trigger) now; resolves to its outcome ("ok" when it succeeded). */
  scheduled(cron: string): Promise<string>;
  dispose(): Promise<void>;
}

const PORTAL_WORKER = "portal";
const SCHEDULED_ORIGIN = "http://portal-scheduled.invalid";
const SPY_WORKER = "queue-spy";
const SPY_KV = "queue-spy";
const COMPATIBILITY_DATE = "2026-04-01";
const SPY_SCRIPT = `export default {
  async queue(batch, env) {
    for (const message of batch.messages) {
      await env.SPY.put(String(Date.now()).padStart(15, "0") + "-" + message.id, JSON.stringify(message.body ?? null));
      message.ack();
    }
  },
  fetch() { return new Response(null, { status: 404 }); },
};`;

/** workerd's stdout and stderr (the Worker's console.log and console.error), line by line into `sink`. */
function runtimeLinesTo(sink: (line: string) => void) {
  return (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
    for (const stream of [stdout, stderr]) {
      let pending = "";
      stream.on("data", (chunk: Buffer | string) => {
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) sink(line);
      });
      stream.on("end", () => {
        if (pending) sink(pending);
      });
    }
  };
}

/** Statuses whose answers have no body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The answer with its body already read. Miniflare re-wraps undici's response around the same stream, and undici
 * cancels that stream when its own (now unreachable) response is garbage collected: a test that queried the database
 * before reading the body then met "Body has already been read" whenever a collection fell in between.
 */
export async function readAtOnce(answer: Promise<Response>): Promise<Response> {
  const response = await answer;
  if (response.body === null) return response;
  const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

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
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: { ENVIRONMENT: "development", SERVER_TIMING: "on", ...options.vars },
    d1Databases: { DB: D1_ID, ...shardIds() },
    kvNamespaces: { KV: KV_ID },
    r2Buckets: { ARCHIVE: ARCHIVE_BUCKET, EVIDENCE: EVIDENCE_BUCKET },
    queueProducers: { EVENTS: EVENTS_QUEUE, PAYMENTS: PAYMENTS_QUEUE, WEBHOOKS: WEBHOOKS_QUEUE, NOTIFICATIONS: NOTIFICATIONS_QUEUE },
    // The notifications consumer runs as wrangler.toml declares it (a change's emails go through it), unless spied on.
    queueConsumers: { ...(options.spyOnQueue === NOTIFICATIONS_QUEUE ? {} : notificationsConsumers()), ...options.queueConsumers },
    ...(options.sendEmail ? { email: { send_email: [{ name: "EMAIL" }] } } : {}),
    assets: { directory: CLIENT_BUILD, binding: "ASSETS", routerConfig: { has_user_worker: true } },
  };
  const shared = {
    d1Persist: join(state, "v3/d1"),
    kvPersist: join(state, "v3/kv"),
    r2Persist: join(state, "v3/r2"),
    // A fixed placeholder instead of fetching Request.cf from the network.
    cf: false,
    host: "127.0.0.1",
    port: options.port ?? 0,
    log: options.logTo ? new CapturedLog(options.logTo) : new Log(process.env.PORTAL_LOG === "1" ? LogLevel.DEBUG : LogLevel.WARN),
    ...(options.logTo ? { handleRuntimeStdio: runtimeLinesTo(options.logTo) } : {}),
    // Miniflare's /cdn-cgi/handler/scheduled, for scheduled() below.
    unsafeTriggerHandlers: true,
  };
  const spy = options.spyOnQueue;
  const workers: WorkerOptions[] = [
    // The first Worker gets every request no route claims.
    // Requests to SCHEDULED_ORIGIN reach the portal Worker itself, not its static assets'
    // router, which has no scheduled handler (scheduled() below).
    { name: PORTAL_WORKER, ...portalWorker, routes: [`${new URL(SCHEDULED_ORIGIN).host}/*`] },
    bindingsWorker({
      d1Id: D1_ID,
      shardIds: shardIds(),
      kvId: KV_ID,
      queue: EVENTS_QUEUE,
      paymentsQueue: PAYMENTS_QUEUE,
      spyKvId: spy ? SPY_KV : undefined,
      archiveBucket: ARCHIVE_BUCKET,
      evidenceBucket: EVIDENCE_BUCKET,
      compatibilityDate: COMPATIBILITY_DATE,
    }),
  ];
  if (spy) {
    workers.push({
      name: SPY_WORKER,
      modules: true,
      script: SPY_SCRIPT,
      compatibilityDate: COMPATIBILITY_DATE,
      kvNamespaces: { SPY: SPY_KV },
      queueConsumers: { [spy]: { maxBatchSize: 100, maxBatchTimeout: 0.05 } },
    });
  }
  const mf = new Miniflare({ ...shared, workers });
  const url = (await mf.ready).toString().replace(/\/$/, "");
  const buildId = readFileSync(BUILD_ID_FILE, "utf8").trim();
  const send: BindingsFetch = (target, init) => mf.dispatchFetch(target, init as never) as unknown as Promise<Response>;
  const db = routedTestD1(send, Object.keys(shardIds()).sort());
  const places = new Map<string, string>();
  const refreshPlaces = async () => {
    const rows = (await testD1(send, "DB").prepare("SELECT business_id, shard FROM business_shards").all<{ business_id: string; shard: string }>()).results;
    places.clear();
    for (const row of rows) places.set(row.business_id, row.shard);
  };
  const businessDb = (businessId: string) => {
    const shard = places.get(businessId);
    if (!shard) throw new Error(`The directory places no business ${businessId}`);
    return testD1(send, shard);
  };
  await refreshPlaces();
  useBusinessDatabases(businessDb);
  return {
    url,
    stateDir: state,
    buildId,
    // dispatchFetch lets a test choose the Host (https://portal.example.com, http://localhost).
    fetch: (path, init = {}) => {
      const { host, ...rest } = init;
      const target = new URL(path, host ?? url).toString();
      return readAtOnce(mf.dispatchFetch(target, { redirect: "manual", ...rest } as never) as unknown as Promise<Response>);
    },
    kv: async () => testKv(send),
    archive: async () => testR2(send),
    evidence: async () => testR2(send, "EVIDENCE"),
    db: async () => db,
    core: () => testD1(send, "DB"),
    database: (binding) => testD1(send, binding),
    businessDb,
    refreshPlaces,
    shards: () =>
      Object.keys(shardIds())
        .sort()
        .map((binding) => testD1(send, binding)),
    placeBusiness: async (businessId, shard) => {
      await testD1(send, "DB")
        .prepare("INSERT INTO business_shards (business_id, shard, updated_at) VALUES (?, ?, ?)")
        .bind(businessId, shard, new Date().toISOString())
        .run();
      await refreshPlaces();
    },
    copyBusinessToCore: async (businessId) => {
      const from = businessDb(businessId);
      const core = testD1(send, "DB");
      const copy = async (table: string, sql: string) => {
        const { results } = await from.prepare(sql).bind(businessId).all<Record<string, unknown>>();
        for (const row of results) {
          const columns = Object.keys(row);
          await core
            .prepare(`INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
            .bind(...columns.map((column) => row[column]))
            .run();
        }
      };
      await copy("businesses", "SELECT * FROM businesses WHERE id = ?");
      await copy("users", "SELECT u.* FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.business_id = ?");
      await copy("memberships", "SELECT * FROM memberships WHERE business_id = ?");
    },
    eventsQueue: async () => testQueue(send),
    paymentsQueue: async () => testQueue(send, "PAYMENTS"),
    queued: async () => {
      if (!spy) throw new Error("Start the portal with spyOnQueue to read what was queued.");
      return (await callBindings(send, "spy.bodies")) as unknown[];
    },
    scheduled: async (cron) => {
      const query = new URLSearchParams({ cron, time: String(Date.now()) });
      return (await mf.dispatchFetch(`${SCHEDULED_ORIGIN}/cdn-cgi/handler/scheduled?${query}`)).text();
    },
    dispose: async () => {
      await mf.dispose();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
