// The client build swaps Remix's loadRouteModule for app/components/route-code.ts (decision 038): the swap is written
// against one file, and an upgrade that changes it is caught here before the build stops on it.
import { createRequire } from "node:module";
import path from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPLACED_FILE_SHA256, sha256Of } from "../../scripts/route-module-loading";

const require = createRequire(import.meta.url);
const replaced = path.join(path.dirname(require.resolve("@remix-run/react/package.json")), "dist/esm/routeModules.js");

describe("the swap of Remix's loadRouteModule", () => {
  it("is for the file installed", () => {
    expect(sha256Of(replaced)).toBe(REPLACED_FILE_SHA256);
  });

  it("replaces the module whose failed import reloads the document", () => {
    expect(readFileSync(replaced, "utf8")).toMatch(/catch \(error\) \{[\s\S]*window\.location\.reload\(\)/);
  });
});
