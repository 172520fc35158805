// docs/measurements.md holds every figure that changes from run to run (bundle sizes, Lighthouse, the weak link, test
// counts and times). It is written by the scripts that measure, never by hand: a bench or `npm test` given `--write`
// replaces its own section, stamped with the day and the commit it measured, so the README and the decisions link to
// figures that say when they were true instead of holding figures that drift.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

export const MEASUREMENTS_FILE = resolve(import.meta.dirname, "../../docs/measurements.md");

/** The markers around a generated section; what lies between them is replaced whole on each write. */
export function sectionMarkers(name: string): { start: string; end: string } {
  return { start: `<!-- measured: ${name} -->`, end: `<!-- end measured: ${name} -->` };
}

/**
 * `document` with the section `name` holding `body`. A section not there yet is appended under a heading of its
 * name; everything outside the markers (headings, the words that say what a figure means) is left as written.
 */
export function replaceSection(document: string, name: string, body: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`A measurements section is named in lower-case words: ${JSON.stringify(name)}`);
  const { start, end } = sectionMarkers(name);
  const block = `${start}\n\n${body.trim()}\n\n${end}`;
  const from = document.indexOf(start);
  if (from === -1) return `${document.trimEnd()}\n\n## ${name}\n\n${block}\n`;
  const to = document.indexOf(end, from);
  if (to === -1) throw new Error(`docs/measurements.md: "${start}" has no "${end}"`);
  return document.slice(0, from) + block + document.slice(to + end.length);
}

/** The commit being measured, with "+ changes" when the work tree differs from it. */
export function measuredCommit(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return "an unknown commit";
  }
}

/** The line that opens every generated section: when, on what, by which command. */
export function stampLine(command: string, when = new Date(), commit = measuredCommit()): string {
  return `Measured ${when.toISOString().slice(0, 10)} (${when.toISOString().slice(11, 16)} UTC) on ${commit} by \`${command}\`.`;
}

/** Replaces section `name` of docs/measurements.md with the stamp and `lines` (the script's own output, as printed). */
export function writeMeasurement(name: string, command: string, lines: readonly string[], file = MEASUREMENTS_FILE): void {
  const document = existsSync(file) ? readFileSync(file, "utf8") : "# Measurements\n";
  const body = `${stampLine(command)}\n\n\`\`\`text\n${lines.join("\n").trimEnd()}\n\`\`\``;
  writeFileSync(file, replaceSection(document, name, body));
  console.log(`\nWritten to docs/measurements.md, section "${name}".`);
}

/**
 * What a measuring script prints, kept as well so that with `write` (its `--write` flag) it goes into
 * docs/measurements.md at the end. Progress lines go to console.log directly and are not kept.
 */
export function measurementLog(name: string, command: string, write: boolean) {
  const lines: string[] = [];
  return {
    line(text = ""): void {
      console.log(text);
      lines.push(...text.split("\n"));
    },
    finish(): void {
      if (write) writeMeasurement(name, command, lines);
    },
  };
}
