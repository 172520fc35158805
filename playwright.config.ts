import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, testBrowserPath } from "./tests/support/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  // Each worker runs its own portal in workerd; two cores fit one worker well.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Limits for a hung test or a page that never shows what is expected, not timings: `npm test` runs this tier beside
  // the integration tier, so a page may take twice as long as on a quiet machine.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: "test-results/e2e",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: testBrowserPath(), args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // A failed test keeps its trace: every action with its log and DOM, the console and page errors with their stacks,
    // and the network (which the DOM snapshots bring). Not the screencast: recorded for every test and thrown away for
    // those that pass, it costs about 6% of the tier's CPU (decision 003).
    trace: { mode: "retain-on-failure", screenshots: false },
  },
});
