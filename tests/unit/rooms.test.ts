// The server is grouped by domain (docs/architecture.md): a few entry files at the root of functions/, one folder per
// domain, none grown into a second junk drawer. SQL stays in each domain's *.db.ts files (sql-home.test.ts).
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
    // to x.ts. A name that fits no module would let a folder hide modules from the count as "tests".
    expect(isTest("ledger.test.ts") && isTest("session.return-path.test.ts")).toBe(true);
    expect(isTest("ledger.ts") || isTest("ledger.db.ts") || isTest("test-helpers.ts")).toBe(false);
    const orphans: string[] = [];
    let tests = 0;
    for (const dir of ["", ...folders]) {
      const names = readdirSync(path.join(functions, dir));
      for (const name of names.filter(isTest)) {
        tests += 1;
        const stem = name.replace(/\.test\.tsx?$/, "");
        const module = [stem, stem.replace(/\.[\w-]+$/, "")].some((base) => names.includes(`${base}.ts`));
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
