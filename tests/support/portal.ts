// The built Worker (dist/worker/worker.js, bundled by `npm run build` exactly as
// `wrangler deploy` bundles it) running in workerd through Miniflare, with real
// D1, KV and Queue bindings and the static client build as assets. Used by the
// integration tests (vitest) and the end-to-end tests (Playwright) alike.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";

export const ROOT = resolve(import.meta.dirname, "../..");
const WORKER_BUNDLE = join(ROOT, "dist/worker/worker.js");
const CLIENT_BUILD = join(ROOT, "build/client");
const BUILD_ID_FILE = join(ROOT, "build/build-id.txt");

// The binding ids of wrangler.toml: local state is keyed by them, so a folder
// prepared with `wrangler ... --persist-to` is the one Miniflare opens.
const D1_ID = "00000000-0000-4000-8000-000000000001";
const KV_ID = "00000000000000000000000000000001";
export const LATEST_BUILD_KEY = "build:latest";

export interface PortalOptions {
  /** A folder prepared by tests/support/state.ts; copied so each portal starts from it. */
  template?: string;
  vars?: Record<string, string>;
}

export interface Portal {
  url: string;
  mf: Miniflare;
  buildId: string;
  fetch(path: string, init?: RequestInit & { host?: string }): Promise<Response>;
  kv(): Promise<KVNamespace>;
  db(): Promise<D1Database>;
  dispose(): Promise<void>;
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
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: WORKER_BUNDLE, contents: readFileSync(WORKER_BUNDLE, "utf8") }],
    compatibilityDate: "2026-04-01",
    bindings: { ENVIRONMENT: "development", ...options.vars },
    d1Databases: { DB: D1_ID },
    kvNamespaces: { KV: KV_ID },
    queueProducers: { EVENTS: "partners-portal-events" },
    d1Persist: join(state, "v3/d1"),
    kvPersist: join(state, "v3/kv"),
    assets: { directory: CLIENT_BUILD, binding: "ASSETS", routerConfig: { has_user_worker: true } },
    // A fixed placeholder instead of fetching Request.cf from the network.
    cf: false,
    host: "127.0.0.1",
    port: 0,
    log: new Log(process.env.PORTAL_LOG === "1" ? LogLevel.DEBUG : LogLevel.WARN),
  });
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
    kv: () => mf.getKVNamespace("KV") as unknown as Promise<KVNamespace>,
    db: () => mf.getD1Database("DB") as unknown as Promise<D1Database>,
    dispose: async () => {
      await mf.dispose();
      rmSync(state, { recursive: true, force: true });
    },
  };
}
