// No import cycles in app/ and functions/ (scripts/import-cycles.ts), `import type` included.
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../../scripts/import-cycles";

describe("import cycles", () => {
  it("finds every group of modules that import each other, and only those", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts", "x.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
      ["e.ts", ["a.ts"]],
      ["x.ts", []],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
  });

  it("resolves the #server and #app aliases, and app/ and functions/ have no cycle", () => {
    const graph = importGraph();
    expect(graph.get("app/lib/shell/root-data.ts")).toContain("app/root.server.ts");
    expect(graph.get("app/root.server.ts")).toContain("functions/plumbing/flash.ts");
    expect(importCycles(graph)).toEqual([]);
  }, 60_000);
});
