// Every path the README and the docs name in backticks exists, so a newcomer who follows one finds the file: a moved or
// deleted module fails here instead of leaving its old name in the docs (functions/api/, a scripts/deploy-plan.ts or a
// DESIGN.md that were never there once did).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Paths named on purpose that are not in the repository: the product documents beside it, and what a build, a run
 * or a developer makes. Only these may be named without existing.
 */
const OUTSIDE_THE_REPO = [/^\.\.\/shared\//, /^build\//, /^dist\//, /^test-results\//, /^\.wrangler\//, /^node_modules\//, /^\.dev\.vars$/];

/**
 * Paths a decision record names as they were before a later decision moved them: history, told in the records alone.
 * Each is checked to be gone (once it is back, it leaves this list) and named nowhere but in docs/decisions/.
 */
const MOVED_BY_A_DECISION: Readonly<Record<string, string>> = {
  "functions/data/": "035: each domain's SQL in its own *.db.ts files",
  "app/lib/route-table.ts": "036: each route owns its title and layout",
};

/** What a backticked path may start with: the repository's own top-level files and folders, as git tracks them. */
const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
const topLevel = new Set(tracked.map((file) => file.split("/")[0]!));

/** A path, or a glob (`tests/integration/analytics-*.test.ts`) that must match at least one file. */
function exists(path: string): boolean {
  if (!path.includes("*")) return existsSync(join(ROOT, path));
  const pattern = new RegExp(
    `^${path
      .replace(/[.+^()[\]\\]/g, "\\$&")
      .split("**/")
      .map((part) => part.replace(/\*/g, "[^/]*"))
      .join("(?:.*/)?")}(?:/.*)?$`,
  );
  return tracked.some((file) => pattern.test(file));
}

function markdownFiles(): string[] {
  const found = ["README.md"];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

/** The backticked words of a markdown text that name a path of the repository, as written. */
export function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  const names: string[] = [];
  for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) {
    // A path as written, without a query (`app.css?inline`), a line number or a trailing colon.
    const path = code!
      .trim()
      .replace(/[?#].*$/, "")
      .replace(/:\d+$/, "")
      .replace(/[:,.]$/, "");
    if (/\s|[<>{}…$|]/.test(path)) continue; // commands and placeholders name no one file
    const first = path.split("/")[0]!;
    if (path.startsWith("../")) names.push(path);
    else if (topLevel.has(first) && (path.includes("/") || /\.\w+$/.test(path))) names.push(path);
  }
  return names;
}

describe("paths named in the README and docs/", () => {
  it("finds the paths it is meant to check, and leaves commands and placeholders alone", () => {
    expect(namedPaths("see `functions/worker.ts`, `app/styles/app.css?inline`, `wrangler.toml` and `../shared/SPEC.md`")).toEqual([
      "functions/worker.ts",
      "app/styles/app.css",
      "wrangler.toml",
      "../shared/SPEC.md",
    ]);
    expect(namedPaths("`tests/integration/analytics-*.test.ts`")).toEqual(["tests/integration/analytics-*.test.ts"]);
    expect(exists("tests/integration/analytics-*.test.ts") && exists("tests/**/*.test.ts") && !exists("tests/integration/events-*.test.ts")).toBe(true);
    expect(
      namedPaths("`npm run build`, `{functions,app}/**/*.test.ts`, `routes/<feature>/`, `/transactions`, `x.test.ts`\n```\nfunctions/gone.ts\n```"),
    ).toEqual([]);
  });

  it("exist, unless they are deliberately outside the repository", () => {
    const missing: string[] = [];
    for (const file of markdownFiles()) {
      for (const path of namedPaths(readFileSync(join(ROOT, file), "utf8"))) {
        if (OUTSIDE_THE_REPO.some((allowed) => allowed.test(path))) continue;
        if (path in MOVED_BY_A_DECISION && file.startsWith("docs/decisions/")) continue;
        if (!exists(path)) missing.push(`${file}: \`${path}\``);
      }
    }
    expect(missing).toEqual([]);
  });

  it("link only to files that exist", () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const prose = readFileSync(join(ROOT, file), "utf8").replace(/^```[\s\S]*?^```/gm, "");
      for (const [, link] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(link!)) continue;
        if (!existsSync(resolve(ROOT, dirname(file), link!.split("#")[0]!))) broken.push(`${file}: (${link})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps only paths that are really gone on the list of those moved by a decision", () => {
    expect(Object.keys(MOVED_BY_A_DECISION).filter((path) => existsSync(join(ROOT, path)))).toEqual([]);
  });

  it("includes every markdown file of docs/", () => {
    expect(markdownFiles().map((file) => relative(ROOT, join(ROOT, file)))).toEqual(
      expect.arrayContaining(["README.md", "docs/decisions/README.md", "docs/measurements.md"]),
    );
  });
});
