// The server is grouped by domain (docs/architecture.md): a few entry files at the root of functions/, one folder per
// domain, none grown into a second junk drawer. SQL stays in each domain's *.db.ts files (sql-home.test.ts).
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const functions = path.resolve(__dirname, "../../functions");

const entries = readdirSync(functions, { withFileTypes: true });
const rootFiles = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);

describe("the rooms of functions/", () => {
  it("keeps at most 8 files at the root", () => {
    expect(rootFiles.length, rootFiles.join(", ")).toBeLessThanOrEqual(8);
    expect(rootFiles).toContain("worker.ts");
  });

  it("keeps every domain folder at 20 files or fewer, with no nested folder", () => {
    for (const folder of folders) {
      const inside = readdirSync(path.join(functions, folder), { withFileTypes: true });
      expect(
        inside.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
        folder,
      ).toEqual([]);
      expect(inside.length, `${folder}/ has ${inside.length} files`).toBeLessThanOrEqual(20);
    }
  });

  it("has no catch-all folder for SQL: each domain keeps its own data modules", () => {
    expect(folders).not.toContain("data");
    const withData = folders.filter((folder) => readdirSync(path.join(functions, folder)).some((name) => name.endsWith(".db.ts")));
    expect(withData.length).toBeGreaterThanOrEqual(12);
  });
});
