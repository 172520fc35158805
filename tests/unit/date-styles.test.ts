// A date on a screen is written by app/lib/format.ts alone, through the style of the place it stands in (a table
// cell, a detail field, a sentence) or as a day: a page that writes one itself, with its own format, a browser's
// locale or dayjs, shows a fourth style beside the three, and reads differently in each browser.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATE_FORMATS, DATE_STYLES, axisDay, calendarDay, calendarMonth, detailDate, fieldDay, proseDate, tableDate } from "#app/lib/format";

const root = path.resolve(__dirname, "../..");
const THE_MODULE = "app/lib/format.ts";

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(relative);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** Ways of writing a date that bypass the styles, each with why it is refused. */
const REFUSED: readonly [RegExp, string][] = [
  [/\bformatDate\s*\(/, "formatDate with a format of its own: use the place's style (tableDate, detailDate, proseDate) or calendarDay"],
  [/\bDATE_FORMATS\b/, "a SPEC format picked by hand: use the place's style"],
  [/\bdayjs\b/, "dayjs (it left the browser, decision 043)"],
  [/\.toLocale(Date|Time)?String\s*\(/, "the browser's locale"],
  [/\bIntl\s*\.\s*(DateTimeFormat|RelativeTimeFormat)\b/, "the browser's locale"],
  [/\.to(UTC|GMT|Date|Time)String\s*\(/, "JavaScript's own date text"],
];
/** In what a screen renders (.tsx), reading a date's parts to write them is a format of its own too. */
const REFUSED_IN_RENDER: readonly [RegExp, string][] = [[/\.get(UTC)?(FullYear|Month|Date|Day|Hours|Minutes)\s*\(/, "a date taken apart by hand"]];

function offenders(file: string, text: string): string[] {
  const rules = file.endsWith(".tsx") ? [...REFUSED, ...REFUSED_IN_RENDER] : REFUSED;
  return text
    .split("\n")
    .flatMap((line, i) =>
      /^\s*(\/\/|\*|\/\*)/.test(line) ? [] : rules.filter(([pattern]) => pattern.test(line)).map(([, why]) => `${file}:${i + 1}: ${why}: ${line.trim()}`),
    );
}

describe("dates on screens", () => {
  it("are written under app/ only by app/lib/format.ts", () => {
    const files = filesUnder("app").filter((file) => file !== THE_MODULE);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => offenders(file, readFileSync(path.join(root, file), "utf8")))).toEqual([]);
  });

  it("catch a screen that writes one its own way", () => {
    for (const line of [
      `cell: (t) => formatDate(t.createdAt, "stamp"),`,
      `<dd>{new Date(at).toLocaleDateString("en-GB")}</dd>`,
      `const text = new Intl.DateTimeFormat("en-GH").format(at);`,
      `import dayjs from "dayjs";`,
      `{DATE_FORMATS.day}`,
    ])
      expect(offenders("app/routes/x.route.tsx", line), line).not.toEqual([]);
    expect(offenders("app/routes/x.route.tsx", "<span>{`${d.getUTCDate()}/${d.getUTCMonth() + 1}`}</span>")).not.toEqual([]);
    // Reading a day's parts to check it is no display: allowed outside what a screen renders.
    expect(offenders("app/lib/forms/validation.ts", "return date.getUTCMonth() === month - 1;")).toEqual([]);
    for (const line of ["cell: (t) => tableDate(t.createdAt),", "// formatDate(x) in a comment", "formatCount(m.payments)"])
      expect(offenders("app/routes/x.route.tsx", line), line).toEqual([]);
  });
});

describe("the styles of each kind of place (SPEC section 9's formats)", () => {
  const at = "2026-11-21T16:05:00Z";

  it("are three, each one of the SPEC's formats", () => {
    expect(Object.keys(DATE_STYLES)).toEqual(["table", "detail", "prose"]);
    for (const format of Object.values(DATE_STYLES)) expect(Object.keys(DATE_FORMATS)).toContain(format);
    expect(new Set(Object.values(DATE_STYLES)).size).toBe(3);
  });

  it("write an instant as its place does", () => {
    expect(tableDate(at)).toBe("21/11/2026, 4:05 PM");
    expect(detailDate(at)).toBe("21 Nov, 2026 ▪ 4:05 PM");
    expect(proseDate(at)).toBe("21 Nov 2026, 4:05 PM");
  });

  it("write a day without a time the same way everywhere, a month and an axis too", () => {
    expect(calendarDay("2026-11-21")).toBe("21 Nov 2026");
    expect(calendarDay(Date.parse("2026-11-21T00:00:00Z"))).toBe("21 Nov 2026");
    expect(calendarMonth("2026-11")).toBe("Nov 2026");
    expect(axisDay("2026-11-21")).toBe("Nov 21");
    expect(fieldDay("2026-11-21")).toBe("21/11/2026");
  });

  it("say N/A for nothing", () => {
    for (const write of [tableDate, detailDate, proseDate, calendarDay]) expect(write(null)).toBe("N/A");
  });
});
