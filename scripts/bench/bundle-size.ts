// npm run bench:bundle: the client JavaScript a browser downloads for each
// route (entry, manifest, the route and its parents, and their imports),
// gzip-compressed, from the last build. Prints one row per route.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const CLIENT = resolve(import.meta.dirname, "../../build/client");

/** The budget per route, gzip: under 150 kB. */
export const ROUTE_JS_BUDGET_BYTES = 150 * 1024;

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface RemixManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface RouteBundle {
  routeId: string;
  path: string;
  files: string[];
  gzipBytes: number;
}

function readManifest(): { manifest: RemixManifest; file: string } {
  const file = readdirSync(join(CLIENT, "assets")).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("No Remix manifest in build/client/assets: run `npm run build` first.");
  const source = readFileSync(join(CLIENT, "assets", file), "utf8");
  const json = source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1);
  return { manifest: JSON.parse(json) as RemixManifest, file: `/assets/${file}` };
}

const gzipCache = new Map<string, number>();
function gzipSize(asset: string): number {
  let size = gzipCache.get(asset);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(CLIENT, asset)), { level: 9 }).length;
    gzipCache.set(asset, size);
  }
  return size;
}

export function routeBundles(): RouteBundle[] {
  const { manifest, file } = readManifest();
  return Object.values(manifest.routes)
    .filter((route) => route.id !== "root")
    .map((route) => {
      const files = new Set<string>([file, manifest.entry.module, ...(manifest.entry.imports ?? [])]);
      const chain: string[] = [];
      for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
        files.add(r.module);
        for (const imported of r.imports ?? []) files.add(imported);
        if (r.path) chain.unshift(r.path);
      }
      const list = [...files].sort();
      return {
        routeId: route.id,
        path: `/${chain.join("/")}`.replace(/\/+/g, "/"),
        files: list,
        gzipBytes: list.reduce((sum, asset) => sum + gzipSize(asset), 0),
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(`${"route".padEnd(34)} ${"files".padStart(5)} ${"JS gzip".padStart(10)}  budget ${kb(ROUTE_JS_BUDGET_BYTES)}`);
  for (const bundle of routeBundles()) {
    const flag = bundle.gzipBytes > ROUTE_JS_BUDGET_BYTES ? "  OVER BUDGET" : "";
    console.log(`${`${bundle.path} (${bundle.routeId})`.padEnd(34)} ${String(bundle.files.length).padStart(5)} ${kb(bundle.gzipBytes).padStart(10)}${flag}`);
  }
}
