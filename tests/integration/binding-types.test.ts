// Binding types come from `wrangler types`; the committed file must match wrangler.toml.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { capture } from "../../scripts/lib/run";
import { wranglerEnv } from "../../scripts/lib/wrangler";
import { ROOT } from "../support/portal";

// Written beside the real file: wrangler's import paths are relative to it.
const fresh = join(ROOT, "functions/.typegen-check.d.ts");
afterAll(() => rmSync(fresh, { force: true }));

const body = (source: string) =>
  source
    .split("\n")
    .filter((line) => !line.startsWith("//"))
    .join("\n");

describe("functions/worker-configuration.d.ts", () => {
  it("is what `npm run typegen` makes from wrangler.toml today", async () => {
    await capture("npx", ["wrangler", "types", "--include-runtime=false", fresh], { cwd: ROOT, env: wranglerEnv() });
    const committed = readFileSync(join(ROOT, "functions/worker-configuration.d.ts"), "utf8");
    expect(body(committed), "run `npm run typegen` and commit the result").toBe(body(readFileSync(fresh, "utf8")));
  });
});
