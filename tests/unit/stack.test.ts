// The product owner's stack, pinned: a change that drops a v3 flag, a binding or
// React 18 fails here rather than in production.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(resolve(root, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

describe("stack", () => {
  it.each(["v3_fetcherPersist", "v3_relativeSplatPath", "v3_throwAbortReason", "v3_singleFetch", "v3_lazyRouteDiscovery", "v3_routeConfig"])(
    "Remix future flag %s is on",
    (flag) => {
      expect(read("vite.config.ts")).toMatch(new RegExp(`${flag}: true`));
    },
  );

  it("types the Worker with the runtime types of a date at or after wrangler.toml's compatibility date", () => {
    // Dated entrypoints of @cloudflare/workers-types stop at 2023-07-01; `latest` is the runtime as of the package's own
    // date, which must not be older than the compatibility date the Worker runs with.
    const compatibilityDate = /^compatibility_date = "(\d{4})-(\d{2})-(\d{2})"$/m.exec(read("wrangler.toml"))!.slice(1).join("");
    const installed = (JSON.parse(read("node_modules/@cloudflare/workers-types/package.json")) as { version: string }).version;
    const typesDate = /^4\.(\d{8})\./.exec(installed)![1]!;
    expect(Number(typesDate)).toBeGreaterThanOrEqual(Number(compatibilityDate));
    for (const config of ["tsconfig.json", "tsconfig.worker.json"]) expect(read(config)).toContain('"@cloudflare/workers-types/latest"');
  });

  it("runs Remix v2 with React 18", () => {
    expect(pkg.dependencies["@remix-run/cloudflare"]).toMatch(/^2\./);
    expect(pkg.dependencies["@remix-run/react"]).toMatch(/^2\./);
    expect(pkg.dependencies.react).toMatch(/^18\./);
    expect(pkg.dependencies["react-dom"]).toMatch(/^18\./);
  });

  it("is one Worker with assets, D1 as DB, KV as KV and a Queue producer EVENTS", () => {
    const toml = read("wrangler.toml");
    expect(toml).toMatch(/^main = "functions\/worker.ts"$/m);
    expect(toml).toMatch(/\[assets\]\s+directory = "\.\/build\/client"/);
    expect(toml).toMatch(/\[\[d1_databases\]\]\s+binding = "DB"/);
    expect(toml).toMatch(/\[\[kv_namespaces\]\]\s+binding = "KV"/);
    expect(toml).toMatch(/\[\[queues\.producers\]\]\s+binding = "EVENTS"/);
  });

  it("compiles TypeScript strictly", () => {
    expect(JSON.parse(read("tsconfig.json")).compilerOptions.strict).toBe(true);
  });
});
