// What Remix makes of a URL, read from the app's own sources: app/routes.ts matched as Remix matches it (any case, a
// trailing slash tolerated, a literal segment before a param), then each matched module's `meta` and `handle`, the
// way the root document reads them. Titles and layouts are tested here, at their source, not copied into a table.
import { matchRoutes } from "@remix-run/react";
import type { MetaDescriptor, MetaFunction } from "@remix-run/cloudflare";
import routeConfig from "#app/routes";
import * as root from "#app/root";
import { layoutOf, type Layout } from "#app/lib/shell/page";

type RouteObject = Parameters<typeof matchRoutes>[0][number];

interface ConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigEntry[];
}

interface RouteModule {
  default?: unknown;
  meta?: MetaFunction;
  handle?: unknown;
}

const files = new Map<string, string>();

function toRouteObjects(entries: readonly ConfigEntry[]): RouteObject[] {
  return entries.map((entry): RouteObject => {
    const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
    files.set(id, entry.file);
    return entry.index ? { id, index: true } : { id, path: entry.path, children: toRouteObjects(entry.children ?? []) };
  });
}

// Remix puts every route of the config under the root route.
const ROUTES: RouteObject[] = [{ id: "root", path: "", children: toRouteObjects(routeConfig) }];

/** Every route of app/routes.ts by id, with its module file (relative to app/). */
export const ROUTE_FILES: ReadonlyMap<string, string> = files;

export async function routeModule(id: string): Promise<RouteModule> {
  if (id === "root") return root;
  const file = files.get(id);
  if (!file) throw new Error(`no route ${id} in app/routes.ts`);
  const url = new URL(`../../app/${file}`, import.meta.url).href;
  return (await import(/* @vite-ignore */ url)) as RouteModule;
}

export interface PageAt {
  /** The id of the deepest matched route: "routes/not-found" when no screen claims the path. */
  routeId: string;
  params: Record<string, string | undefined>;
  title: string | undefined;
  layout: Layout;
}

/** The route a pathname reaches, its document title when its loader answers, and the layout the root picks. */
export async function pageAt(pathname: string): Promise<PageAt> {
  const matches = matchRoutes(ROUTES, pathname);
  if (!matches) throw new Error(`nothing matched ${pathname}`);
  const modules = await Promise.all(matches.map((match) => routeModule(match.route.id!)));
  const leaf = matches[matches.length - 1]!;
  const location = { pathname, search: "", hash: "", state: null, key: "default" };
  const metaMatches = matches.map((match, i) => ({
    id: match.route.id!,
    pathname: match.pathname,
    params: match.params,
    data: undefined,
    handle: modules[i]!.handle,
    meta: [] as MetaDescriptor[],
    error: undefined,
  }));
  // A route without `meta` shows its parent's, as Remix does.
  let meta: MetaDescriptor[] = [];
  for (const module of modules) {
    if (module.meta) meta = module.meta({ data: undefined, params: leaf.params, location, matches: metaMatches, error: undefined }) ?? [];
  }
  const title = meta.find((descriptor): descriptor is { title: string } => "title" in descriptor)?.title;
  return { routeId: leaf.route.id!, params: leaf.params, title, layout: layoutOf(metaMatches) };
}
