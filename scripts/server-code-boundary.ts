// functions/ is the Worker: D1 SQL, KV, secrets, session keys. Route modules import it
// freely because Remix drops loaders and actions (and what only they use) from the
// client build; anything else that reaches the browser bundle is an accident. This
// plugin fails the client build when code from functions/ ships to the browser,
// except from the few modules below that are pure and meant to be shared (decision 014).
import path from "node:path";
import type { Plugin } from "vite";
import sharedWithBrowser from "./shared-with-browser.json" with { type: "json" };

/**
 * Pure modules the UI may use: no bindings, no SQL, no secrets, nothing but data and arithmetic. The one list is
 * scripts/shared-with-browser.json, each module with why it is shared: this build check and the lint rule of
 * eslint.config.js (plain JavaScript, which cannot import this TypeScript module) both read it.
 */
export const SHARED_WITH_BROWSER: readonly string[] = sharedWithBrowser.map((entry) => entry.module);

export interface ClientModule {
  /** Absolute path as Rollup names it (may carry a ?query). */
  id: string;
  /** Bytes of this module's code in the client bundle; 0 when tree-shaking left none. */
  renderedLength: number;
  /** Modules of the client graph that import this one. */
  importers: readonly string[];
}

const SERVER_DIRECTORY = "functions/";

function relative(root: string, id: string): string {
  return path.relative(root, id.split("?")[0]!).split(path.sep).join("/");
}

/** The import chains from the UI (modules outside functions/) down to `id`, one per UI module that leads there. */
function importChains(root: string, id: string, importersOf: ReadonlyMap<string, readonly string[]>): string[][] {
  const from = new Map<string, string>();
  const queue = [id];
  const seen = new Set(queue);
  const chains: string[][] = [];
  while (queue.length > 0) {
    const current = queue.shift()!;
    if (!relative(root, current).startsWith(SERVER_DIRECTORY)) {
      const chain = [current];
      for (let next = from.get(current); next !== undefined; next = from.get(next)) chain.push(next);
      chains.push(chain.map((m) => relative(root, m)));
      continue;
    }
    for (const importer of importersOf.get(current) ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      from.set(importer, current);
      queue.push(importer);
    }
  }
  return chains.length > 0 ? chains : [[relative(root, id)]];
}

/** One line per import chain that brings server code into the client bundle; empty when none does. */
export function serverCodeInClient(root: string, modules: readonly ClientModule[], shared: readonly string[] = SHARED_WITH_BROWSER): string[] {
  const importersOf = new Map(modules.map((m) => [m.id, m.importers]));
  return modules
    .filter((m) => m.renderedLength > 0)
    .filter((m) => {
      const file = relative(root, m.id);
      return file.startsWith(SERVER_DIRECTORY) && !shared.includes(file);
    })
    .flatMap((m) => importChains(root, m.id, importersOf).map((chain) => chain.join(" → ")));
}

export function boundaryMessage(offenders: readonly string[]): string {
  return [
    "Server code in the browser bundle (decision 014: server code stays on the server).",
    ...offenders.map((line) => `  ${line}`),
    "Use it only from a loader or action, import only its types (`import type`), or, if the module is pure and meant to be",
    "shared, add it to SHARED_WITH_BROWSER in scripts/server-code-boundary.ts.",
  ].join("\n");
}

export function serverCodeBoundary(): Plugin {
  let root = process.cwd();
  let client = true;
  return {
    name: "partners-portal:server-code-boundary",
    apply: "build",
    configResolved(config) {
      root = config.root;
      client = !config.build.ssr;
    },
    generateBundle(_options, bundle) {
      if (!client) return;
      const rendered = new Map<string, number>();
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        for (const [id, module] of Object.entries(output.modules)) rendered.set(id, (rendered.get(id) ?? 0) + module.renderedLength);
      }
      // Importers come from the whole client graph, so a chain can pass through modules tree-shaking emptied.
      const graph: ClientModule[] = [...new Set([...this.getModuleIds(), ...rendered.keys()])].map((id) => ({
        id,
        renderedLength: rendered.get(id) ?? 0,
        importers: this.getModuleInfo(id)?.importers ?? [],
      }));
      const offenders = serverCodeInClient(root, graph);
      if (offenders.length > 0) this.error(boundaryMessage(offenders));
    },
  };
}
