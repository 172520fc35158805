// The import aliases (#server/*, #app/*) are written once, in tsconfig.json's `paths`: TypeScript, tsx, esbuild
// (wrangler's bundle) and Playwright read them there; Vite and vitest get the same list from here.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export function importAliases(): { find: RegExp; replacement: string }[] {
  const { compilerOptions } = JSON.parse(readFileSync(resolve(ROOT, "tsconfig.json"), "utf8")) as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.entries(compilerOptions.paths).map(([alias, [target]]) => ({
    find: new RegExp(`^${alias.replace(/\*$/, "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`),
    replacement: `${resolve(ROOT, target!.replace(/\*$/, ""))}/`,
  }));
}
