// How the browser loads a page's code (its route module), in place of Remix's own loadRouteModule
// (@remix-run/react/dist/esm/routeModules.js), which the client build swaps for this module
// (scripts/route-module-loading.ts, decision 038).
//
// Remix reloads the document whenever a route module fails to import: right after a deploy, when the old build's
// files are gone, the reload fetches the new build. With no connection the same reload shows the browser's own
// "No internet" page, and it wipes what was typed in the page's forms. Here a module that fails to import is
// asked for once more with a plain request: if nothing answers, the connection is gone, and the load fails the way a
// fetch with no answer fails; nothing is reloaded, and the page shows the portal's "No connection" (app/root.tsx).
// If the server answers, it is Remix's case, and Remix's reload stays.

/** What Remix's manifest says of a route, as far as loading its code goes. */
interface RouteCode {
  id: string;
  module: string;
}

/** How many times each route's code failed to import. */
const failedTries = new Map<string, number>();

/** Routes whose code the last try could not reach. */
const unreachable = new Set<string>();

/**
 * Whether some route's code could not be reached on its last try. The root's title reads it: a page whose code is
 * missing has no title of its own, and shows "No connection" (SPEC section 2: an error page of that kind).
 */
export function someRouteCodeUnreachable(): boolean {
  return unreachable.size > 0;
}

/** What fetch throws when no answer came, so every reader of network failures takes this for one. */
function noAnswer(cause: unknown): TypeError {
  return new TypeError("Failed to fetch", { cause });
}

/** Whether anything answers for `url` (any status). False when the browser knows it is offline. */
export async function answers(url: string): Promise<boolean> {
  if (!navigator.onLine) return false;
  try {
    await fetch(url, { method: "HEAD", cache: "no-store" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Remix's loadRouteModule, same contract: the module, cached in `routeModulesCache` by route id. Remix calls it for a
 * navigation's code (route.lazy) and for a prefetch's stylesheets (PrefetchPageLinks).
 */
export async function loadRouteModule<Module>(route: RouteCode, routeModulesCache: Record<string, Module>): Promise<Module> {
  if (route.id in routeModulesCache) return routeModulesCache[route.id]!;
  const load = async () => {
    // A browser may keep a failed import's failure for its URL (Chromium did until version 15x): once one failed,
    // each later try asks under a URL of its own, so it is a real request.
    const tries = failedTries.get(route.id) ?? 0;
    try {
      const routeModule = (await import(/* @vite-ignore */ tries ? `${route.module}?try=${tries}` : route.module)) as Module;
      routeModulesCache[route.id] = routeModule;
      unreachable.delete(route.id);
      return routeModule;
    } catch (error) {
      failedTries.set(route.id, tries + 1);
      throw error;
    }
  };
  try {
    return await load();
  } catch (error) {
    if (!(await answers(route.module))) {
      unreachable.add(route.id);
      throw noAnswer(error);
    }
    // The server answers now: the import may have failed just before the connection came back (the browser says it
    // is online a moment before its requests go through). One more try before the reload that wipes the page's forms.
    try {
      return await load();
    } catch {
      // Still not loadable with a server that answers: the build moved on, Remix's case.
    }
    // Remix's words, so a report reads the same as before.
    console.error(`Error loading route module \`${route.module}\`, reloading page...`);
    console.error(error);
    window.location.reload();
    // The document is going away: nothing after this should run.
    return new Promise<Module>(() => {});
  }
}
