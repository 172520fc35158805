// The page's code is asked for once the browser has painted the page, not beside the document (decision 043).
//
// Remix's <Scripts> puts a `<link rel="modulepreload">` in the document for every file of the first load and a module
// script whose static imports fetch them at once, so those downloads (about 100 kB gzip) run beside the document and
// the first paint, and with the code cached the page can even hydrate before its first frame; Lighthouse's simulation
// charges every script that finished before the paint to the LCP. Here the same files are imported side by side (the
// preload list kept, so there is still no waterfall) once the browser says it has painted. In a tab opened in the
// background (no frames) the code loads at once.

// The rewrite runs on the server (./paint-first-scripts.server.tsx); the browser takes only ROUTE_MODULES_LOADED.

/** The promise app/entry.client.tsx waits for: the page's route modules, in window.__remixRouteModules. */
export const ROUTE_MODULES_LOADED = "__ppRouteModulesLoaded";

const ROUTE_IMPORT = /^import \* as (route\d+) from ("[^"\n]+");$/gm;
const ENTRY_IMPORT = /^import\(("[^"\n]+")\);$/m;

/**
 * Remix's bootstrap (`import * as route0 from "…"; … window.__remixRouteModules = {…}; import("entry");`) rewritten to
 * wait for the first contentful paint, then import the route modules and every file of `preloads` side by side, and the entry with them
 * (it waits for the route modules itself). Null when the script is not of the shape Remix 2.17 writes: the caller then
 * keeps Remix's own script.
 */
export function paintFirstBootstrap(script: string, preloads: readonly string[]): string | null {
  const routes = [...script.matchAll(ROUTE_IMPORT)];
  const entry = ENTRY_IMPORT.exec(script);
  if (routes.length === 0 || !entry) return null;
  const rest = script.replace(ROUTE_IMPORT, "").replace(ENTRY_IMPORT, "").trim().replace(/^;\s*/, "");
  // Anything else imported (an HMR runtime, the manifest module when lazy route discovery is off) is a shape not known here.
  if (/^\s*import[\s("*{]/m.test(rest)) return null;
  const entryUrl = JSON.parse(entry[1]!) as string;
  const routeUrls = routes.map((route) => JSON.parse(route[2]!) as string);
  const files = [...new Set([...routeUrls, ...preloads])].filter((url) => url !== entryUrl);
  return [
    // The browser's own word that it painted content (a paint entry, delivered after that frame), not a timer, so a
    // page whose clock is held (tests) still loads. A hidden tab paints nothing, and a browser without paint entries
    // says nothing: their code loads at once; 500 ms caps a first paint that takes longer.
    `await new Promise((go) => {`,
    `  if (document.visibilityState === "hidden" || !PerformanceObserver.supportedEntryTypes?.includes("paint")) return go();`,
    `  new PerformanceObserver((list, seen) => { if (list.getEntriesByName("first-contentful-paint").length) { seen.disconnect(); go(); } }).observe({ type: "paint", buffered: true });`,
    `  setTimeout(go, 500);`,
    `});`,
    // The route modules first, so their names line up with Promise.all's answers.
    `window.${ROUTE_MODULES_LOADED} = Promise.all([${files.map((url) => `import(${JSON.stringify(url)})`).join(", ")}]).then(([${routes.map((route) => route[1]).join(", ")}]) => {`,
    rest,
    `});`,
    `import(${entry[1]});`,
  ].join("\n");
}
