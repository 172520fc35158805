// The server is grouped by domain (docs/architecture.md): a few entry files at the root of functions/, one folder per
// domain, none grown into a second junk drawer. SQL stays in each domain's *.db.ts files (sql-home.test.ts).
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../scripts/import-cycles";

const functions = path.resolve(__dirname, "../../functions");

// A module's unit test sits beside it (ledger/ledger.test.ts next to ledger/ledger.ts, decision 003): it is no module
// of the Worker, so the limits count modules and leave the tests out.
const isTest = (name: string) => /\.test\.tsx?$/.test(name);

const entries = readdirSync(functions, { withFileTypes: true });
const rootFiles = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
const rootModules = rootFiles.filter((name) => !isTest(name));
const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);

describe("the rooms of functions/", () => {
  it("keeps at most 8 files at the root, its tests not counted", () => {
    expect(rootModules.length, rootModules.join(", ")).toBeLessThanOrEqual(8);
    expect(rootModules).toContain("worker.ts");
  });

  it("keeps every domain folder at 20 modules or fewer (its tests not counted), with no nested folder", () => {
    for (const folder of folders) {
      const inside = readdirSync(path.join(functions, folder), { withFileTypes: true });
      expect(
        inside.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
        folder,
      ).toEqual([]);
      const modules = inside.filter((entry) => !isTest(entry.name));
      expect(modules.length, `${folder}/ has ${modules.length} modules`).toBeLessThanOrEqual(20);
    }

    // A file is left out of the count only as the test of a module beside it: x.test.ts or x.<aspect>.test.ts next
    // to x.ts (or x.tsx, a module that renders, as an email does). A name that fits no module would let a folder hide modules from the count as "tests".
    expect(isTest("ledger.test.ts") && isTest("session.return-path.test.ts")).toBe(true);
    expect(isTest("ledger.ts") || isTest("ledger.db.ts") || isTest("test-helpers.ts")).toBe(false);
    const orphans: string[] = [];
    let tests = 0;
    for (const dir of ["", ...folders]) {
      const names = readdirSync(path.join(functions, dir));
      for (const name of names.filter(isTest)) {
        tests += 1;
        const stem = name.replace(/\.test\.tsx?$/, "");
        const module = [stem, stem.replace(/\.[\w-]+$/, "")].some((base) => names.includes(`${base}.ts`) || names.includes(`${base}.tsx`));
        if (!module) orphans.push(path.posix.join(dir, name));
      }
    }
    expect(orphans).toEqual([]);
    expect(tests).toBeGreaterThan(0);
  });

  it("has no catch-all folder for SQL: each domain keeps its own data modules", () => {
    expect(folders).not.toContain("data");
    const withData = folders.filter((folder) => readdirSync(path.join(functions, folder)).some((name) => name.endsWith(".db.ts")));
    expect(withData.length).toBeGreaterThanOrEqual(12);
  });
});

// The UI is grouped the same way (docs/architecture.md): a feature's screen code lives beside its routes
// (app/routes/<feature>/), and what several features share sits in app/lib and app/components, each grouped into rooms
// of its own (forms, lists, the shell, analytics) before it becomes a junk drawer. No folder of app/ holds more than 20
// modules (its tests, beside their modules, not counted; styles are no modules).
const app = path.resolve(__dirname, "../../app");
const isModule = (name: string) => /\.tsx?$/.test(name) && !isTest(name);

function foldersOf(dir: string): string[] {
  const inside = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return [dir, ...inside.flatMap((entry) => foldersOf(path.join(dir, entry.name)))];
}

describe("the rooms of app/", () => {
  it("keeps every folder at 20 modules or fewer, its tests not counted", () => {
    const folders = foldersOf(app);
    expect(folders.map((folder) => path.relative(app, folder))).toEqual(expect.arrayContaining(["lib", "components", "routes/merchants"]));
    const crowded = folders
      .map((folder) => ({ folder: path.relative(app, folder) || "app", modules: readdirSync(folder).filter(isModule).length }))
      .filter(({ modules }) => modules > 20);
    expect(crowded).toEqual([]);
  });

  it("keeps a feature's screen code with its routes: nothing in app/lib or app/components serves one feature's routes alone", () => {
    const graph = importGraph(["app", "functions"]);
    const importers = new Map<string, Set<string>>();
    for (const [module, targets] of graph) for (const target of targets) importers.set(target, (importers.get(target) ?? new Set()).add(module));
    const shared = [...graph.keys()].filter((module) => /^app\/(lib|components)\//.test(module) && !isTest(path.basename(module)));
    // The feature folder of each module that reaches a shared module, directly or through other shared modules.
    const featuresOf = (module: string, seen = new Set<string>()): Set<string> => {
      const features = new Set<string>();
      for (const importer of importers.get(module) ?? []) {
        if (seen.has(importer)) continue;
        seen.add(importer);
        const feature = /^app\/routes\/([^/]+)\//.exec(importer)?.[1];
        if (feature) features.add(feature);
        else if (/^app\/(lib|components)\//.test(importer)) for (const inner of featuresOf(importer, seen)) features.add(inner);
        else features.add(importer);
      }
      return features;
    };
    const oneFeature = shared.filter((module) => {
      const features = featuresOf(module);
      return features.size === 1 && /^[\w-]+$/.test([...features][0]!);
    });
    expect(oneFeature).toEqual([]);
  }, 60_000);
});

// The plumbing (functions/plumbing/: cookies, logs, CSV, rate limits, a form run once) serves every domain and knows
// none: an arrow from it up into a domain ties what every room uses to one room's rules. The card-number scanner
// (functions/card-numbers/) is plumbing too, a leaf that imports nothing but itself: the one logger masks with it. So
// are the two root modules the plumbing reads, the parsed config (env.ts) and the one form reader (forms.ts). A domain
// the plumbing needs (the session of a form sent twice) is handed to it by its caller (worker.ts). `import type` counts.
const PLUMBING = [/^functions\/plumbing\//, /^functions\/card-numbers\//, /^functions\/env\.ts$/, /^functions\/forms\.ts$/];
const isPlumbing = (module: string) => PLUMBING.some((room) => room.test(module));

/** Each arrow from a plumbing module (its tests left out) to a module of ours outside the plumbing. */
function arrowsOutOfPlumbing(graph: Map<string, string[]>): string[] {
  return [...graph]
    .filter(([module]) => isPlumbing(module) && !isTest(path.basename(module)))
    .flatMap(([module, targets]) => targets.filter((target) => !isPlumbing(target)).map((target) => `${module} -> ${target}`));
}

describe("the plumbing", () => {
  it("imports nothing from a domain", () => {
    const graph = importGraph(["functions"]);
    expect(graph.has("functions/plumbing/log.ts")).toBe(true);
    expect(arrowsOutOfPlumbing(graph)).toEqual([]);
  }, 60_000);

  it("finds an arrow up into a domain, a type's included, and not one between plumbing rooms or from a test", () => {
    const graph = new Map([
      ["functions/plumbing/log.ts", ["functions/card-numbers/card-numbers.ts"]],
      ["functions/plumbing/submitted-once.ts", ["functions/auth/session.ts", "functions/forms.ts", "functions/plumbing/submissions.db.ts"]],
      ["functions/plumbing/csv.ts", ["functions/lists/page.ts"]],
      ["functions/plumbing/csv.test.ts", ["functions/lists/page.ts"]],
      ["functions/card-numbers/card-numbers.ts", ["functions/partner-api/schemas.ts"]],
      ["functions/auth/session.ts", ["functions/plumbing/cookies.ts"]],
    ]);
    expect(arrowsOutOfPlumbing(graph)).toEqual([
      "functions/plumbing/submitted-once.ts -> functions/auth/session.ts",
      "functions/plumbing/csv.ts -> functions/lists/page.ts",
      "functions/card-numbers/card-numbers.ts -> functions/partner-api/schemas.ts",
    ]);
  });
});
