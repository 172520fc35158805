// Kept apart from vite.config.ts so the Remix plugin never loads under vitest.
import { defineConfig } from "vitest/config";
import { importAliases } from "./scripts/lib/import-aliases";

export default defineConfig({
  resolve: { alias: importAliases() },
  test: {
    projects: [
      {
        // Each project takes the root's resolve (the import aliases).
        extends: true,
        test: {
          name: "unit",
          // Tests of the whole tree or of tooling in tests/unit; a module's own test beside it (x.test.ts next to x.ts).
          include: ["tests/unit/**/*.test.ts", "{functions,app,clients}/**/*.test.{ts,tsx}"],
          environment: "node",
          sequence: { groupOrder: 0 },
          // Files share their worker's module cache, as the integration files do: the tiers' modules (valibot, dayjs, the
          // domains) load once per worker instead of once per file (about a third of the tier's CPU). No unit file mocks a
          // module (vi.mock) or leaves a global changed; one that must says so and runs in a project of its own.
          isolate: false,
          // The generated-input properties and the whole-tree readers take a second or two on a quiet machine, and ten
          // times that on a busy CI machine: vitest's default of 5 s failed them there with nothing wrong.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          sequence: { groupOrder: 1 },
          // Each file starts its own workerd; two cores run two at most.
          maxWorkers: 2,
          // Files share their workers' module cache: Miniflare, the support modules and the Worker's own modules load
          // once per worker instead of once per file (import time 135 s -> 12 s of the tier). Nothing here mocks a
          // module or keeps state between files: each file starts its own portal, and startPortal points the tenant
          // helpers at it.
          isolate: false,
          // Limits for a hung test, not timings: the tier runs beside the end-to-end tier, on a CI machine that may be busy.
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
