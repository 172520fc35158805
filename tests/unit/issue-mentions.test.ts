// Code and tests say why they are there, not which issue asked for them: a newcomer cannot read the issue tracker
// from the code, but can read the decision record (docs/decisions/) a comment points to. So no file of the code or
// its tests names an issue by number; a comment that needs a reason names the decision instead.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const SCANNED = ["functions", "app", "scripts", "tests/integration", "tests/unit", "tests/support", "tests/e2e"];
// Left out: migrations, applied as they were written and never edited.
const LEFT_OUT = new Set(["migrations"]);
const ISSUE_NUMBER = /\b[Ii]ssue \d+\b/;

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return LEFT_OUT.has(entry.name) ? [] : filesUnder(relative);
    return entry.isFile() ? [relative] : [];
  });
}

describe("issue numbers in code and tests", () => {
  it("are named nowhere under functions/, app/, scripts/ and tests/", () => {
    const files = SCANNED.flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      readFileSync(path.join(root, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("are recognised however a comment or a test name writes them", () => {
    // Written with the number put in, so that this file does not name one itself.
    const n = 28;
    for (const text of [`// (issue ${n}): which rail`, `"before Issue ${n}: Date.parse"`, `/** Issue ${n}'s class */`])
      expect(ISSUE_NUMBER.test(text), text).toBe(true);
    for (const text of ["// (decision 041): which rail", "valibot issues", "reissue 5 cards", "the issue's example"])
      expect(ISSUE_NUMBER.test(text), text).toBe(false);
  });
});
