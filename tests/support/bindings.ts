// How Node code (the tests, and the seed writing a local D1) reaches D1, KV and
// the Queue: through a small Worker that exists only for it ("node-bindings",
// started next to the portal in the same Miniflare, on the same storage), one
// ordinary HTTP request per operation.
//
// Why not Miniflare's own `getD1Database()` / `getKVNamespace()`: those return
// proxies whose property reads and first calls are *synchronous* requests
// (SynchronousFetcher, fetch-sync.ts). The Node thread posts a request to a
// helper thread and blocks in Atomics.wait until the helper stores 1 and calls
// Atomics.notify. Nothing ties a wake-up to the request it answers: when the
// main thread reaches Atomics.wait late (the value is already 1, so it does not
// block) while the helper is descheduled between its store and its notify, that
// late notify wakes the main thread's *next* synchronous request before its answer
// exists. `receiveMessageOnPort` then finds nothing, `assert(message?.id === id)`
// fails (fetch-sync.ts:147, "false == true"), and from then on every answer is one
// request behind, so every later proxy call in the process fails the same way.
// Only a loaded machine stretches those two windows far enough; a D1 query through
// the proxy makes about four synchronous requests, so tests made thousands.
// Requests here are asynchronous (Miniflare's dispatchFetch), so none of that applies.
// preempt.cjs stretches the windows on purpose to show it.
import type { WorkerOptions } from "miniflare";

export const BINDINGS_WORKER = "node-bindings";
/** Requests to this host go to the node-bindings Worker (a Miniflare route); every other host reaches the portal. */
const BINDINGS_ORIGIN = "http://node-bindings.invalid";

/** Sends one operation to the node-bindings Worker (Miniflare#dispatchFetch). */
export type BindingsFetch = (url: string, init: RequestInit) => Promise<Response>;

// The wire format, in both directions: JSON, with the values JSON cannot carry
// (undefined, bigint, non-finite numbers and -0, bytes, dates) tagged, so what
// reaches D1 is what the test passed (D1 refuses undefined and dates exactly as in
// production) and blobs come back as bytes. The Worker below has the same two
// functions in JavaScript; tests/integration/node-bindings.test.ts sends every tag.
const TAG = "$ppWire";

function wireReplacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw === undefined) return { [TAG]: "undefined" };
  if (typeof raw === "bigint") return { [TAG]: "bigint", v: raw.toString() };
  if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0))) return { [TAG]: "number", v: Object.is(raw, -0) ? "-0" : String(raw) };
  if (raw instanceof Date) return { [TAG]: "date", v: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
  if (raw instanceof ArrayBuffer) return { [TAG]: "bytes", buffer: true, v: Buffer.from(raw).toString("base64") };
  if (ArrayBuffer.isView(raw)) return { [TAG]: "bytes", buffer: false, v: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64") };
  return value;
}

function wireReviver(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || !(TAG in value)) return value;
  const tagged = value as { [TAG]: string; v?: string | null; buffer?: boolean };
  switch (tagged[TAG]) {
    case "undefined":
      return undefined;
    case "bigint":
      return BigInt(tagged.v!);
    case "number":
      return tagged.v === "-0" ? -0 : Number(tagged.v);
    case "date":
      return new Date(tagged.v ?? Number.NaN);
    case "bytes": {
      const bytes = new Uint8Array(Buffer.from(tagged.v!, "base64"));
      return tagged.buffer ? bytes.buffer : bytes;
    }
    default:
      throw new Error(`Unknown wire tag ${tagged[TAG]}`);
  }
}

// A reviver that returns undefined deletes an object's key; arrays keep the slot
// (as undefined), which is all bind parameters need.
export const toWire = (value: unknown): string => JSON.stringify(value, wireReplacer);
export const fromWire = (text: string): unknown => JSON.parse(text, wireReviver);

const WORKER_SCRIPT = /* js */ `
const TAG = ${JSON.stringify(TAG)};

function toBase64(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function wireReplacer(key, value) {
  const raw = this[key];
  if (raw === undefined) return { [TAG]: "undefined" };
  if (typeof raw === "bigint") return { [TAG]: "bigint", v: raw.toString() };
  if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0))) return { [TAG]: "number", v: Object.is(raw, -0) ? "-0" : String(raw) };
  if (raw instanceof Date) return { [TAG]: "date", v: Number.isNaN(raw.getTime()) ? null : raw.toISOString() };
  if (raw instanceof ArrayBuffer) return { [TAG]: "bytes", buffer: true, v: toBase64(new Uint8Array(raw)) };
  if (ArrayBuffer.isView(raw)) return { [TAG]: "bytes", buffer: false, v: toBase64(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)) };
  return value;
}

function wireReviver(_key, value) {
  if (typeof value !== "object" || value === null || !(TAG in value)) return value;
  switch (value[TAG]) {
    case "undefined": return undefined;
    case "bigint": return BigInt(value.v);
    case "number": return value.v === "-0" ? -0 : Number(value.v);
    case "date": return new Date(value.v ?? Number.NaN);
    case "bytes": {
      const bytes = Uint8Array.from(atob(value.v), (c) => c.charCodeAt(0));
      return value.buffer ? bytes.buffer : bytes;
    }
    default: throw new Error("Unknown wire tag " + value[TAG]);
  }
}

const database = (env, binding) => {
  const db = env[binding ?? "DB"];
  if (!db) throw new Error("No D1 database bound as " + binding);
  return db;
};
const statement = (env, s, binding) => database(env, binding).prepare(s.sql).bind(...s.params);

const operations = {
  async "d1.query"(env, { statement: s, method, column, options, binding }) {
    const prepared = statement(env, s, binding);
    if (method === "first") return column === undefined ? prepared.first() : prepared.first(column);
    if (method === "raw") return options === undefined ? prepared.raw() : prepared.raw(options);
    if (method === "all" || method === "run") return prepared[method]();
    throw new Error("Unknown D1 method " + method);
  },
  "d1.batch": (env, { statements, binding }) => database(env, binding).batch(statements.map((s) => statement(env, s, binding))),
  "d1.exec": (env, { sql, binding }) => database(env, binding).exec(sql),
  "kv.get": (env, { key }) => env.KV.get(key),
  "kv.put": (env, { key, value, options }) => env.KV.put(key, value, options),
  "kv.delete": (env, { key }) => env.KV.delete(key),
  async "r2.get"(env, { key, bucket }) {
    const object = await env[bucket ?? "ARCHIVE"].get(key);
    return object ? { bytes: new Uint8Array(await object.arrayBuffer()), customMetadata: object.customMetadata ?? {} } : null;
  },
  "r2.put": async (env, { key, value, options, bucket }) => void (await env[bucket ?? "ARCHIVE"].put(key, value, options)),
  "r2.delete": (env, { keys, bucket }) => env[bucket ?? "ARCHIVE"].delete(keys),
  async "r2.list"(env, { prefix, bucket }) {
    return (await env[bucket ?? "ARCHIVE"].list({ prefix })).objects.map((o) => o.key);
  },
  "queue.send": (env, { body, options, binding }) => env[binding ?? "EVENTS"].send(body, options),
  "queue.sendBatch": (env, { messages, binding }) => env[binding ?? "EVENTS"].sendBatch(messages),
  async "spy.bodies"(env) {
    if (!env.SPY) throw new Error("Start the portal with spyOnQueue to read what was queued.");
    const bodies = [];
    let cursor;
    do {
      const page = await env.SPY.list({ cursor });
      for (const key of page.keys) bodies.push(JSON.parse((await env.SPY.get(key.name)) ?? "null"));
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return bodies;
  },
};

export default {
  async fetch(request, env) {
    const operation = operations[new URL(request.url).pathname.slice(1)];
    if (!operation) return new Response("Unknown operation", { status: 404 });
    const input = JSON.parse(await request.text(), wireReviver);
    try {
      return new Response(JSON.stringify({ value: await operation(env, input) }, wireReplacer));
    } catch (error) {
      const cause = error?.cause instanceof Error ? error.cause.message : undefined;
      return new Response(JSON.stringify({ error: { name: error?.name ?? "Error", message: error?.message ?? String(error), cause } }));
    }
  },
};
`;

export interface BindingsWorkerOptions {
  /** Database id of the DB binding. */
  d1Id: string;
  /** Database ids of the shard bindings (SHARD_A, SHARD_B: wrangler.toml). */
  shardIds?: Record<string, string>;
  /** Namespace id of the KV binding. */
  kvId?: string;
  /** Queue of the EVENTS producer. */
  queue?: string;
  /** Queue of the PAYMENTS producer (the Partner API's). */
  paymentsQueue?: string;
  /** The spy Worker's KV namespace, when a portal spies on a queue. */
  spyKvId?: string;
  /** Bucket name of the ARCHIVE binding (the cold archive's R2). */
  archiveBucket?: string;
  /** Bucket name of the EVIDENCE binding (disputes' evidence files, R2). */
  evidenceBucket?: string;
  compatibilityDate: string;
}

/** The node-bindings Worker, bound to the same D1 (and KV and queue) as the portal. */
export function bindingsWorker(options: BindingsWorkerOptions): WorkerOptions {
  const kv = { ...(options.kvId ? { KV: options.kvId } : {}), ...(options.spyKvId ? { SPY: options.spyKvId } : {}) };
  return {
    name: BINDINGS_WORKER,
    modules: true,
    script: WORKER_SCRIPT,
    compatibilityDate: options.compatibilityDate,
    routes: [`${new URL(BINDINGS_ORIGIN).host}/*`],
    d1Databases: { DB: options.d1Id, ...options.shardIds },
    kvNamespaces: kv,
    queueProducers: { ...(options.queue ? { EVENTS: options.queue } : {}), ...(options.paymentsQueue ? { PAYMENTS: options.paymentsQueue } : {}) },
    r2Buckets: {
      ...(options.archiveBucket ? { ARCHIVE: options.archiveBucket } : {}),
      ...(options.evidenceBucket ? { EVIDENCE: options.evidenceBucket } : {}),
    },
  };
}

/** Calls one operation of the node-bindings Worker; its errors are thrown here with D1's own messages. */
export async function callBindings(send: BindingsFetch, operation: string, input: unknown = {}): Promise<unknown> {
  const response = await send(`${BINDINGS_ORIGIN}/${operation}`, { method: "POST", body: toWire(input) });
  const text = await response.text();
  if (!response.ok) throw new Error(`node-bindings ${operation}: ${response.status} ${text}`);
  const answer = fromWire(text) as { value?: unknown; error?: { name: string; message: string; cause?: string } };
  if (answer.error) {
    const error = new Error(answer.error.message, answer.error.cause ? { cause: new Error(answer.error.cause) } : undefined);
    error.name = answer.error.name;
    throw error;
  }
  return answer.value;
}

interface WireStatement {
  sql: string;
  params: unknown[];
}

/** A prepared statement: `bind` gives a new one, as D1's does; running it is one request. */
export class TestD1Statement {
  constructor(
    private readonly send: BindingsFetch,
    readonly wire: WireStatement,
    /** The binding it runs on; null: chosen when it runs (a routed database below). */
    private readonly binding: string | null,
    private readonly route: Router | null = null,
  ) {}

  bind(...params: unknown[]): TestD1Statement {
    return new TestD1Statement(this.send, { sql: this.wire.sql, params }, this.binding, this.route);
  }

  private async query(method: string, extra: Record<string, unknown> = {}): Promise<unknown> {
    const binding = this.binding ?? (await this.route!.choose([this.wire], method !== "run" && /^\s*(select|with)\b/i.test(this.wire.sql)));
    if (binding === ANY_SHARD) return callBindings(this.send, "d1.query", { statement: this.wire, method, binding: this.route!.shards[0], ...extra });
    if (binding !== EVERY_SHARD) return callBindings(this.send, "d1.query", { statement: this.wire, method, binding, ...extra });
    // A statement that names no business runs on every shard, and the answers read as one database's (routedTestD1).
    const answers = await Promise.all(
      this.route!.where([this.wire]).map((shard) => callBindings(this.send, "d1.query", { statement: this.wire, method, binding: shard, ...extra })),
    );
    if (method === "run") return combineRuns(answers);
    const holding = answers.filter(hasRows);
    if (holding.length === 0) return combineReads(answers, method, this.wire.sql);
    return holding.length === 1 ? holding[0] : combineReads(holding, method, this.wire.sql);
  }

  first(column?: string): Promise<unknown> {
    return this.query("first", { column });
  }

  all(): Promise<unknown> {
    return this.query("all");
  }

  run(): Promise<unknown> {
    return this.query("run");
  }

  raw(options?: { columnNames?: boolean }): Promise<unknown> {
    return this.query("raw", { options });
  }
}

class TestD1Database {
  constructor(
    private readonly send: BindingsFetch,
    private readonly binding: string | null,
    private readonly route: Router | null = null,
  ) {}

  prepare(sql: string): TestD1Statement {
    return new TestD1Statement(this.send, { sql, params: [] }, this.binding, this.route);
  }

  async batch(statements: TestD1Statement[]): Promise<unknown> {
    const wires = statements.map((s) => s.wire);
    const binding = this.binding ?? (await this.route!.choose(wires, false));
    if (binding === ANY_SHARD) return callBindings(this.send, "d1.batch", { statements: wires, binding: this.route!.shards[0] });
    if (binding !== EVERY_SHARD) return callBindings(this.send, "d1.batch", { statements: wires, binding });
    const answers = (await Promise.all(
      this.route!.where(wires).map((shard) => callBindings(this.send, "d1.batch", { statements: wires, binding: shard })),
    )) as unknown[][];
    return wires.map((_, i) => combineRuns(answers.map((answer) => answer[i])));
  }

  async exec(sql: string): Promise<unknown> {
    const binding = this.binding ?? (await this.route!.choose([{ sql, params: [] }], false));
    return callBindings(this.send, "d1.exec", { sql, binding });
  }

  withSession(): never {
    throw new Error("D1 sessions are not available to tests.");
  }

  dump(): never {
    throw new Error("D1 dump is not available to tests.");
  }
}

/** One of the portal's D1 databases (the real one, through the node-bindings Worker), typed as the Worker sees it. */
export function testD1(send: BindingsFetch, binding = "DB"): D1Database {
  return new TestD1Database(send, binding) as unknown as D1Database;
}

/** Tables only the core database holds rows of (decision 021). */
const CORE_ONLY =
  /^(sessions|otp_challenges|fresh_checks|otp_counters|dev_outbox|dev_email_outbox|analytics_\w+|rate_windows|submissions|business_shards|api_key_directory|platform_staff|platform_requests|platform_keys|job_runs|sqlite_\w+)$/i;
/** Tables both hold: the core's copy (sign-in) unless a business is named, then that business's database. */
const EITHER = /^(users|user_phones|memberships|businesses|batch_guards|json_each)$/i;
const ANY_TABLE = /\b(?:from|join|into|update|table)\s+"?([a-z_][a-z0-9_]*)/gi;

/**
 * What the tests call "the database": statements go to the database that holds the business whose id they bind (the
 * core database's directory says which), or to the core database when they name only its tables. Anything else is
 * refused, naming the statement: say which business (`portal().businessDb(id)`) or use `portal().core()`.
 * It is how tests reach rows, never how the portal reaches them (functions/tenancy/shards.ts does that).
 */
export function routedTestD1(send: BindingsFetch, shardBindings: readonly string[]): D1Database {
  const core = new TestD1Database(send, "DB");
  const choose = async (statements: readonly WireStatement[], read: boolean): Promise<string> => {
    const places = (await core.prepare("SELECT business_id, shard FROM business_shards").all()) as { results: { business_id: string; shard: string }[] };
    const shardOf = new Map(places.results.map((row) => [row.business_id, row.shard]));
    const wants = statements.map((statement) => {
      const tables = [...statement.sql.matchAll(ANY_TABLE)].map((m) => m[1]!);
      const named = [
        ...statement.params.filter((param): param is string => typeof param === "string"),
        ...[...shardOf.keys()].filter((id) => statement.sql.includes(`'${id}'`)),
      ];
      const shards = new Set(named.flatMap((name) => (shardOf.has(name) ? [shardOf.get(name)!] : [])));
      if (tables.length > 0 && tables.every((table) => CORE_ONLY.test(table) || EITHER.test(table)) && tables.some((table) => CORE_ONLY.test(table)))
        return "DB";
      if (shards.size === 1) return [...shards][0]!;
      if (shards.size > 1) return "several";
      return tables.every((table) => EITHER.test(table) || CORE_ONLY.test(table)) ? "either" : "unknown";
    });
    const definite = new Set(wants.filter((want) => want !== "either"));
    if (definite.size === 0) return "DB";
    if (definite.size === 1 && !definite.has("unknown") && !definite.has("several")) return [...definite][0]!;
    // A batch is one transaction on one database: statements naming no business follow the one that names it.
    const named = [...definite].filter((want) => want !== "unknown");
    if (named.length === 1 && named[0] !== "several") return named[0]!;
    // One read naming several businesses (a test comparing two): each database answers for its own, one after another.
    if (read && statements.length === 1 && definite.has("several")) return EVERY_SHARD;
    // The schema is every database's: its plans and columns are read on any shard.
    if (statements.every((statement) => /^\s*explain\b|pragma_table_info|sqlite_master|sqlite_schema/i.test(statement.sql))) return ANY_SHARD;
    if (definite.size === 1 && definite.has("unknown")) return EVERY_SHARD;
    void read;
    throw new Error(
      `Which database? These statements bind no known business, or several: ${statements.map((s) => s.sql.replace(/\s+/g, " ").slice(0, 120)).join(" | ")}`,
    );
  };
  // The audit log is the core's too (the sign-in trail); every other table that names no business is the shards'.
  const where = (statements: readonly WireStatement[]) =>
    statements.some((statement) => /\baudit_log\b/i.test(statement.sql)) ? ["DB", ...shardBindings] : [...shardBindings];
  return new TestD1Database(send, null, { choose, shards: shardBindings, where }) as unknown as D1Database;
}

const EVERY_SHARD = "?every";
const ANY_SHARD = "?any";

interface Router {
  /** The binding for these statements; EVERY_SHARD: they name no business, so every shard runs them; ANY_SHARD: they read the schema. */
  choose(statements: readonly WireStatement[], read: boolean): Promise<string>;
  shards: readonly string[];
  /** Where statements that name no business run: every shard, and the core too for the audit log (the sign-in trail is the core's). */
  where: (statements: readonly WireStatement[]) => readonly string[];
}

/** Several shards' answers to one statement as one database's: rows one after another, counts and sums added up, texts joined. */
function combineReads(answers: unknown[], method: string, sql: string): unknown {
  // Counts and sums over the whole portal: one row, added up (an aggregate without GROUP BY answers one row on each database).
  const aggregate = /\b(count|sum|total)\s*\(/i.test(sql) && !/\bgroup\s+by\b/i.test(sql);
  const numbersOnly = (answer: unknown) =>
    (answer as { results: Record<string, unknown>[] }).results.every((row) => Object.values(row).every((value) => value === null || typeof value === "number"));
  if (method === "all" && aggregate && answers.every((answer) => (answer as { results: unknown[] }).results.length === 1 && numbersOnly(answer))) {
    return {
      ...(answers[0] as object),
      results: [answers.map((answer) => (answer as { results: unknown[] }).results[0]).reduce((sum, row) => merge(sum, row))],
    };
  }
  if (method === "all") return { ...(answers[0] as object), results: answers.flatMap((answer) => (answer as { results: unknown[] }).results) };
  if (method === "raw") return answers.flatMap((answer) => answer as unknown[]);
  return answers.reduce((sum, answer) => merge(sum, answer));
}

function merge(a: unknown, b: unknown): unknown {
  if (a === null || a === undefined) return b;
  if (b === null || b === undefined) return a;
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (typeof a === "object" && typeof b === "object") {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [key, value] of Object.entries(b as Record<string, unknown>)) out[key] = merge(out[key], value);
    return out;
  }
  return `${JSON.stringify(a)},${JSON.stringify(b)}`.replace(/"/g, "");
}

function combineRuns(answers: unknown[]): unknown {
  const first = answers[0] as { results?: unknown[]; meta?: { changes?: number } };
  const changes = answers.reduce<number>((n, answer) => n + ((answer as { meta?: { changes?: number } }).meta?.changes ?? 0), 0);
  return { ...first, results: answers.flatMap((answer) => (answer as { results?: unknown[] }).results ?? []), meta: { ...first.meta, changes } };
}

/** Whether a shard's answer holds what was asked: rows (an aggregate over nothing, all zeros and nulls, holds nothing). */
function hasRows(answer: unknown): boolean {
  const rows =
    answer === null || answer === undefined
      ? []
      : typeof answer !== "object"
        ? [answer]
        : Array.isArray(answer)
          ? answer
          : "results" in answer
            ? (answer as { results: unknown[] }).results
            : [answer];
  return rows.some((row) =>
    typeof row === "object" && row !== null ? Object.values(row).some((value) => value !== null && value !== 0) : row !== null && row !== 0,
  );
}

/** The KV operations tests use; values are text. */
export interface TestKv {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: KVNamespacePutOptions): Promise<void>;
  delete(key: string): Promise<void>;
}

export function testKv(send: BindingsFetch): TestKv {
  return {
    get: async (key) => (await callBindings(send, "kv.get", { key })) as string | null,
    put: async (key, value, options) => void (await callBindings(send, "kv.put", { key, value, options })),
    delete: async (key) => void (await callBindings(send, "kv.delete", { key })),
  };
}

/** The EVENTS producer, as a redelivery would use it. */
export interface TestQueue {
  send(body: unknown, options?: QueueSendOptions): Promise<void>;
  /** One sendBatch call: the messages reach the consumer together, in this order (up to its max_batch_size). */
  sendBatch(messages: MessageSendRequest[]): Promise<void>;
}

/** A queue producer of the portal (EVENTS, or PAYMENTS for the Partner API's), through the node-bindings Worker. */
export function testQueue(send: BindingsFetch, binding: "EVENTS" | "PAYMENTS" = "EVENTS"): TestQueue {
  return {
    send: async (body, options) => void (await callBindings(send, "queue.send", { body, options, binding })),
    sendBatch: async (messages) => void (await callBindings(send, "queue.sendBatch", { messages, binding })),
  };
}

/**
 * The portal's ARCHIVE (or EVIDENCE) bucket (R2) through the node-bindings Worker: what the archive code calls (get, put, delete)
 * and a list for tests, typed as the Worker sees it. Objects come back whole.
 */
export function testR2(send: BindingsFetch, binding: "ARCHIVE" | "EVIDENCE" = "ARCHIVE"): R2Bucket & { keys(prefix?: string): Promise<string[]> } {
  const bucket = {
    async get(key: string) {
      const found = (await callBindings(send, "r2.get", { key, bucket: binding })) as { bytes: Uint8Array; customMetadata: Record<string, string> } | null;
      if (!found) return null;
      const bytes = found.bytes;
      return {
        key,
        size: bytes.byteLength,
        customMetadata: found.customMetadata,
        get body() {
          return new Response(bytes as Uint8Array<ArrayBuffer>).body!;
        },
        arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
        text: async () => new TextDecoder().decode(bytes),
        json: async () => JSON.parse(new TextDecoder().decode(bytes)) as unknown,
      };
    },
    put: async (key: string, value: string | Uint8Array, options?: R2PutOptions) =>
      void (await callBindings(send, "r2.put", { key, value, options, bucket: binding })),
    delete: async (keys: string | string[]) => void (await callBindings(send, "r2.delete", { keys, bucket: binding })),
    keys: async (prefix?: string) => (await callBindings(send, "r2.list", { prefix, bucket: binding })) as string[],
  };
  return bucket as unknown as R2Bucket & { keys(prefix?: string): Promise<string[]> };
}
