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
          include: ["tests/unit/**/*.test.ts", "{functions,app}/**/*.test.{ts,tsx}"],
          environment: "node",
          sequence: { groupOrder: 0 },
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
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
