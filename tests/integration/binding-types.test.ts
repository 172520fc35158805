// Binding types come from `wrangler types`; the committed file must match wrangler.toml.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { capture } from "../../scripts/lib/run";
import { wranglerEnv } from "../../scripts/lib/wrangler";
import { ROOT } from "../support/portal";

// Written to a folder of its own, never into functions/ (a run stopped halfway left the file there for lint, typecheck
// and git to find). Wrangler writes the Worker's import path relative to where the file goes; read back, it is put as
// it would be beside the real file.
const folder = mkdtempSync(join(tmpdir(), "pp-typegen-"));
const fresh = join(folder, "worker-configuration.d.ts");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const body = (source: string) =>
  source
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .join("\n");

/** The generated file as wrangler would have written it in functions/. */
function asBesideTheWorker(source: string): string {
  const fromFolder = relative(folder, join(ROOT, "functions/worker"));
  return source.replaceAll(`import("${fromFolder}")`, `import("./worker")`);
}

describe("functions/worker-configuration.d.ts", () => {
  it("is what `npm run typegen` makes from wrangler.toml today", async () => {
    await capture("npx", ["wrangler", "types", "--include-runtime=false", fresh], { cwd: ROOT, env: wranglerEnv() });
    const committed = readFileSync(join(ROOT, "functions/worker-configuration.d.ts"), "utf8");
    expect(body(committed), "run `npm run typegen` and commit the result").toBe(body(asBesideTheWorker(readFileSync(fresh, "utf8"))));
  });
});
