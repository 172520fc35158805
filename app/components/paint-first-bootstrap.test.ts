import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { ROUTE_MODULES_LOADED, paintFirstBootstrap } from "./paint-first-bootstrap";

// Remix 2.17's bootstrap as <Scripts> writes it with lazy route discovery on (components.js, routeModulesScript).
const REMIX = `;
import * as route0 from "/assets/root-A.js";
import * as route1 from "/assets/_index-B.js";
window.__remixManifest = {
  "entry": { "module": "/assets/entry.client-E.js", "imports": ["/assets/react-remix-R.js"] },
  "routes": { "root": { "imports": ["/assets/shell-S.js"] } }
};
window.__remixRouteModules = {"root":route0,"routes/_index":route1};

import("/assets/entry.client-E.js");`;

const PRELOADS = [
  "/assets/entry.client-E.js",
  "/assets/react-remix-R.js",
  "/assets/shell-S.js",
  "/assets/root-A.js",
  "/assets/_index-B.js",
  "/assets/shell-S.js",
];

interface Run {
  loaded: string[];
  window: Record<string, unknown>;
  paint: (entry?: string) => void;
  done: Promise<void>;
}

/** Runs a bootstrap with `import()` recorded, a document of the given visibility, and a paint the test triggers. */
function run(script: string, visibility: "visible" | "hidden" = "visible", supported = ["paint", "largest-contentful-paint"]): Run {
  const loaded: string[] = [];
  const window: Record<string, unknown> = {};
  let observer: ((list: { getEntriesByName: (name: string) => unknown[] }, seen: { disconnect: () => void }) => void) | undefined;
  class PerformanceObserver {
    static supportedEntryTypes = supported;
    constructor(callback: typeof observer) {
      observer = callback;
    }
    observe() {}
  }
  // The bootstrap as the browser runs it (a module script: top-level await), with import() recorded instead of fetched.
  const body = script.replace(/\bimport\(/g, "load(");
  const done = new Script(`(async () => {\n${body}\n})()`).runInNewContext({
    load: async (url: string) => {
      loaded.push(url);
      return { url };
    },
    window,
    document: { visibilityState: visibility },
    PerformanceObserver,
    setTimeout: () => 0, // the 500 ms cap never fires here
  }) as Promise<void>;
  return {
    loaded,
    window,
    paint: (entry = "first-contentful-paint") => observer?.({ getEntriesByName: (name) => (name === entry ? [{}] : []) }, { disconnect() {} }),
    done,
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the bootstrap that waits for the first paint", () => {
  const bootstrap = paintFirstBootstrap(REMIX, PRELOADS)!;

  it("has no static import, so nothing is fetched as the script is met", () => {
    expect(bootstrap).not.toBeNull();
    expect(bootstrap).not.toMatch(/^\s*import\s/m);
  });

  it("loads nothing until the browser reports a contentful paint, then every file side by side and the entry", async () => {
    const page = run(bootstrap);
    await flush();
    expect(page.loaded).toEqual([]);
    page.paint();
    await page.done;
    // Each file once; the entry with them, not after.
    expect([...page.loaded].sort()).toEqual([...new Set(PRELOADS)].sort());
    await (page.window[ROUTE_MODULES_LOADED] as Promise<void>);
    expect(page.window.__remixRouteModules).toEqual({ root: { url: "/assets/root-A.js" }, "routes/_index": { url: "/assets/_index-B.js" } });
    expect(page.window.__remixManifest).toMatchObject({ entry: { module: "/assets/entry.client-E.js" } });
  });

  it("a paint that is not contentful does not start it", async () => {
    const page = run(bootstrap);
    page.paint("first-paint");
    await flush();
    expect(page.loaded).toEqual([]);
    page.paint();
    await page.done;
    expect(page.loaded).not.toEqual([]);
  });

  it("loads at once in a tab opened in the background, and in a browser without paint entries", async () => {
    for (const page of [run(bootstrap, "hidden"), run(bootstrap, "visible", ["navigation"])]) {
      await page.done;
      expect(page.loaded).toContain("/assets/entry.client-E.js");
      await (page.window[ROUTE_MODULES_LOADED] as Promise<void>);
      expect(page.window.__remixRouteModules).toHaveProperty("root");
    }
  });

  it("leaves a shape it does not know to Remix (null): an HMR runtime, the manifest module, no entry", () => {
    expect(paintFirstBootstrap(`import "/@vite/client";${REMIX}`, PRELOADS)).toBeNull();
    expect(paintFirstBootstrap(REMIX.replace(";\n", 'import "/assets/manifest-M.js";\n'), PRELOADS)).toBeNull();
    expect(paintFirstBootstrap(REMIX.replace(/import\("[^"]+"\);/, ""), PRELOADS)).toBeNull();
    expect(paintFirstBootstrap(" ", PRELOADS)).toBeNull();
  });
});
