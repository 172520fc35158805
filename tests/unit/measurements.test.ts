// docs/measurements.md is written by the measuring scripts (`--write`), not by hand: a write replaces its own section
// and nothing else, and every section says when and on what commit its figures were taken, so a newcomer can tell a
// figure from last week's from one of last month.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MEASUREMENTS_FILE, replaceSection, sectionMarkers, stampLine } from "../../scripts/lib/measurements";

const sectionName = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
// Text around and inside the sections: any line, Ghana's letters and emoji among them, but no marker of its own.
const prose = fc.string({ unit: fc.constantFrom("a", " ", "\n", "Ɔ", "Ɛ", "Ŋ", "🙂", "#", "`", "-", "1") });

describe("a measurements section written by a script", () => {
  it("replaces only its own section, keeps everything around it, and writing twice is writing once", () => {
    fc.assert(
      fc.property(sectionName, sectionName, prose, prose, prose, prose, prose, (name, other, before, between, after, old, body) => {
        fc.pre(name !== other);
        const document = `${before}\n${replaceSection("", name, old)}\n${between}\n${replaceSection("", other, "theirs")}\n${after}`;
        const once = replaceSection(document, name, body);
        expect(replaceSection(once, name, body)).toBe(once);
        const { start, end } = sectionMarkers(name);
        const inside = once.slice(once.indexOf(start) + start.length, once.indexOf(end));
        expect(inside.trim()).toBe(body.trim());
        // What lay outside the section is untouched: the document without the section is the same before and after.
        const outside = (text: string) => text.slice(0, text.indexOf(start)) + text.slice(text.indexOf(end));
        expect(outside(once)).toBe(outside(document));
      }),
    );
  });

  it("appends a section not there yet under a heading of its name", () => {
    fc.assert(
      fc.property(sectionName, prose, prose, (name, document, body) => {
        const written = replaceSection(document, name, body);
        expect(written.startsWith(document.trimEnd())).toBe(true);
        expect(written).toContain(`## ${name}\n\n${sectionMarkers(name).start}`);
      }),
    );
  });

  it("refuses a section whose end marker is missing rather than swallowing the rest of the file", () => {
    expect(() => replaceSection(`${sectionMarkers("bundle").start}\nthe rest`, "bundle", "new")).toThrow(/has no/);
  });

  it("stamps the day, the time and the commit measured", () => {
    expect(stampLine("npm run bench:bundle -- --write", new Date("2026-12-02T01:02:03Z"), "abc1234")).toBe(
      "Measured 2026-12-02 (01:02 UTC) on abc1234 by `npm run bench:bundle -- --write`.",
    );
  });
});

describe("docs/measurements.md", () => {
  const document = readFileSync(MEASUREMENTS_FILE, "utf8");
  const sections = [...document.matchAll(/<!-- measured: ([a-z0-9-]+) -->([\s\S]*?)<!-- end measured: \1 -->/g)];

  it("has sections, every marker closed", () => {
    expect(sections.length).toBeGreaterThan(0);
    expect(document.match(/<!-- measured: [a-z0-9-]+ -->/g)?.length).toBe(sections.length);
    expect(document.match(/<!-- end measured: [a-z0-9-]+ -->/g)?.length).toBe(sections.length);
  });

  it("dates every section and names the commit it measured", () => {
    for (const [, name, body] of sections) {
      expect(body!.trim(), name).toMatch(/^(Measured \d{4}-\d{2}-\d{2} \(\d{2}:\d{2} UTC\) on [0-9a-f]{7,}|Recorded \d{4}-\d{2}-\d{2} in [0-9a-f]{7,})/);
    }
  });

  it("is what the README and decisions 003 and 043 link to for their figures", () => {
    for (const file of ["README.md", "docs/decisions/003-how-tests-are-split.md", "docs/decisions/043-weak-connection.md"]) {
      expect(readFileSync(resolve(import.meta.dirname, "../..", file), "utf8"), file).toMatch(/measurements\.md/);
    }
  });
});
