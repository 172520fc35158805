// The decision records are how a newcomer learns why the portal is as it is: each says when it was taken and whether it
// still holds, and docs/decisions/README.md indexes them all. Expectations come from the files present, so a new record
// fails here until it has its Date and Status lines and its row in the index.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const folder = resolve(import.meta.dirname, "../../docs/decisions");
const recordFiles = readdirSync(folder)
  .filter((name) => /^\d{3}-[a-z0-9-]+\.md$/.test(name))
  .sort();
const records = recordFiles.map((file) => {
  const lines = readFileSync(join(folder, file), "utf8").split("\n");
  const head = lines.slice(0, 8);
  return {
    file,
    number: file.slice(0, 3),
    heading: lines[0] ?? "",
    date: head.find((line) => line.startsWith("Date: "))?.slice("Date: ".length),
    status: head.find((line) => line.startsWith("Status: "))?.slice("Status: ".length),
  };
});
const index = readFileSync(join(folder, "README.md"), "utf8");
const rows = [...index.matchAll(/^\| \[(\d{3})\]\(([^)]+)\) \| (.+?) \| (\d{4}-\d{2}-\d{2}) \| (.+?) \| (.+?) \|$/gm)].map(
  ([, number, link, title, date, status, summary]) => ({ number: number!, link: link!, title: title!, date: date!, status: status!, summary: summary! }),
);

describe("the decision records", () => {
  it("are numbered once each, and every file in docs/decisions/ but the index is a record", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.number)).size).toBe(records.length);
    expect(readdirSync(folder).filter((name) => name !== "README.md" && !recordFiles.includes(name))).toEqual([]);
  });

  it("each open with their number and title, then a Date and a Status line", () => {
    for (const record of records) {
      expect(record.heading, record.file).toMatch(new RegExp(`^# ${record.number}: \\S`));
      expect(record.date, `${record.file}: "Date: YYYY-MM-DD" near the top`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(`${record.date}T00:00:00Z`)), record.file).toBe(false);
      expect(record.status, `${record.file}: "Status: accepted" or "Status: superseded by NNN" near the top`).toMatch(/^(accepted|superseded by \d{3})\b/i);
    }
  });

  it("name only records that exist when they say one amends, extends or supersedes another, and both sides say so", () => {
    const numbers = new Set(records.map((r) => r.number));
    const statusOf = new Map(records.map((r) => [r.number, r.status ?? ""]));
    for (const record of records) {
      const status = record.status ?? "";
      for (const [, verb, other] of status.matchAll(/\b(amended by|extended by|superseded by|amends|extends|supersedes) (\d{3})/gi)) {
        expect(numbers.has(other!), `${record.file} names ${other}`).toBe(true);
        const back = { amends: "amended by", extends: "extended by", supersedes: "superseded by" }[verb!.toLowerCase()];
        const forth = { "amended by": "amends", "extended by": "extends", "superseded by": "supersedes" }[verb!.toLowerCase()];
        const answer = back ?? forth!;
        expect(statusOf.get(other!), `${other}'s status should say "${answer} ${record.number}" (${record.file} says "${verb} ${other}")`).toMatch(
          new RegExp(`\\b${answer} (?:[^;()]*?\\b)?${record.number}\\b`, "i"),
        );
      }
    }
  });
});

describe("docs/decisions/README.md, the index", () => {
  it("has one row per record, in order, linking to its file", () => {
    expect(rows.map((row) => row.link)).toEqual(recordFiles);
    expect(rows.map((row) => row.number)).toEqual(records.map((r) => r.number));
  });

  it("lists no file that is missing", () => {
    const linked = [...index.matchAll(/\]\(([^)#]+\.md)\)/g)].map(([, link]) => resolve(folder, link!));
    const present = new Set([...readdirSync(folder).map((name) => join(folder, name)), resolve(folder, "../measurements.md")]);
    expect(linked.filter((file) => !present.has(file))).toEqual([]);
  });

  it("gives each record's title and date as the record does, its status's first words, and a line on what it decided", () => {
    for (const row of rows) {
      const record = records.find((r) => r.number === row.number)!;
      expect(record.heading, row.link).toBe(`# ${row.number}: ${row.title}`);
      expect(row.date, row.link).toBe(record.date);
      const word = /^(accepted|superseded by \d{3})/i.exec(record.status ?? "")?.[1] ?? "";
      expect(row.status.toLowerCase().startsWith(word.toLowerCase()), `${row.link}: "${row.status}" against "${record.status}"`).toBe(true);
      expect(row.summary.length, row.link).toBeGreaterThan(20);
    }
  });
});
