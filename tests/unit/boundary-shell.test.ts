// The client build edits Remix's errorBoundaries.js so that no page's first load carries Remix's <Scripts>
// (scripts/boundary-shell.ts, decision 043): the edit is written against one file, and what makes it safe is checked
// here against what is installed.
import { createRequire } from "node:module";
import path from "node:path";
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EDITED_FILE_SHA256, withoutScripts } from "../../scripts/boundary-shell";
import { sha256Of } from "../../scripts/route-module-loading";

const require = createRequire(import.meta.url);
const ESM = path.join(path.dirname(require.resolve("@remix-run/react/package.json")), "dist/esm");
const edited = path.join(ESM, "errorBoundaries.js");

describe("errorBoundaries.js without <Scripts>", () => {
  it("is written for the file installed", () => {
    expect(sha256Of(edited)).toBe(EDITED_FILE_SHA256);
  });

  it("leaves no mention of <Scripts>, and refuses a file it does not know", () => {
    const code = withoutScripts(readFileSync(edited, "utf8"));
    expect(code).not.toMatch(/\bScripts\b/);
    expect(code).toContain("function BoundaryShell(");
    expect(() => withoutScripts("export {}")).toThrow(/as expected/);
  });

  it("is safe: only Remix's default HydrateFallback asks the shell for scripts, and the root has its own", () => {
    const askers = readdirSync(ESM).filter(
      (file) => file.endsWith(".js") && file !== "errorBoundaries.js" && /renderScripts/.test(readFileSync(path.join(ESM, file), "utf8")),
    );
    expect(askers).toEqual(["fallback.js"]);
    expect(readFileSync(path.resolve(import.meta.dirname, "../../app/root.tsx"), "utf8")).toMatch(/^export function HydrateFallback\(/m);
  });
});
