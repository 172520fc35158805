// npm test: everything a change must pass, in order — build, typecheck, lint, format, the deploy's dry run,
// unit, integration (the built Worker in workerd), end-to-end (Chromium).
// A failed build stops the run; otherwise every step runs and the run fails if any did.
// `npm test -- --write` also puts the summary (each step's time, the counts) in docs/measurements.md, dated and with
// its commit, so the figures a newcomer reads are the last measured ones, not hand-copied.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { run } from "./lib/run";
import { measurementLog } from "./lib/measurements";
import { testBrowserPath } from "../tests/support/chromium";

interface Step {
  name: string;
  command: string[];
  /** JSON report to count tests from. */
  report?: { file: string; kind: "vitest" | "playwright" };
  stopOnFailure?: boolean;
  /**
   * Steps of one group run side by side, their output printed whole as each ends: the static checks are each one
   * process on one core, so on two cores they take about as long as the slowest (lint) instead of their sum, and the
   * unit tests (one vitest worker on two cores) fill the core they leave idle. Integration and end-to-end are not
   * grouped: side by side on two cores they took longer than one after the other (decision 003, 2026-12-02).
   */
  group?: "static checks and unit";
}

const steps: Step[] = [
  { name: "build", command: ["npx", "tsx", "scripts/build.ts"], stopOnFailure: true },
  { name: "typecheck", command: ["npx", "tsc", "-p", "tsconfig.json"], group: "static checks and unit" },
  // The Worker's code once more as workerd runs it: without DOM or Node types.
  { name: "typecheck worker", command: ["npx", "tsc", "-p", "tsconfig.worker.json"], group: "static checks and unit" },
  { name: "lint", command: ["npx", "eslint", "--max-warnings=0", "."], group: "static checks and unit" },
  { name: "format", command: ["npx", "prettier", "--check", "."], group: "static checks and unit" },
  // What `npm run deploy` would do, offline, on the build above (decision 042): everything but the real ids and secrets,
  // which a clone does not have (placeholders are listed, the secrets are stand-ins).
  {
    name: "deploy dry run",
    command: ["npx", "tsx", "scripts/deploy.ts", "--dry-run", "--skip-build", "--allow-placeholders", "--secrets", "tests/fixtures/deploy/ci.secrets"],
    group: "static checks and unit",
  },
  {
    name: "unit",
    command: ["npx", "vitest", "run", "--project", "unit", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/unit.json"],
    report: { file: "test-results/unit.json", kind: "vitest" },
    group: "static checks and unit",
  },
  {
    name: "integration",
    command: ["npx", "vitest", "run", "--project", "integration", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/integration.json"],
    report: { file: "test-results/integration.json", kind: "vitest" },
  },
  { name: "e2e", command: ["npx", "playwright", "test"], report: { file: "test-results/e2e.json", kind: "playwright" } },
];

function countTests(report: NonNullable<Step["report"]>): { passed: number; failed: number; skipped: number } {
  if (!existsSync(report.file)) return { passed: 0, failed: 0, skipped: 0 };
  const json = JSON.parse(readFileSync(report.file, "utf8"));
  if (report.kind === "vitest") {
    return { passed: json.numPassedTests ?? 0, failed: json.numFailedTests ?? 0, skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0) };
  }
  const stats = json.stats ?? {};
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0, skipped: stats.skipped ?? 0 };
}

// Say early and plainly when the browser is missing, not after five minutes.
testBrowserPath();
rmSync("test-results", { recursive: true, force: true });
mkdirSync("test-results", { recursive: true });

/** Runs a command with its output held back, printed whole when it ends (steps of a group must not interleave). */
function runQuietly(command: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => resolve({ ok: false, output: output + String(error) }));
    child.on("exit", (code) => resolve({ ok: code === 0, output }));
  });
}

const results: { name: string; ok: boolean; seconds: number }[] = [];
const totals = { passed: 0, failed: 0, skipped: 0 };

function record(step: Step, ok: boolean, started: number): void {
  results.push({ name: step.name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  if (step.report) {
    const counted = countTests(step.report);
    totals.passed += counted.passed;
    totals.failed += counted.failed;
    totals.skipped += counted.skipped;
    // A runner that failed before reporting still counts as a failure.
    if (!ok && counted.failed === 0) totals.failed += 1;
  } else if (!ok) {
    totals.failed += 1;
  }
}

for (let index = 0; index < steps.length;) {
  const step = steps[index]!;
  if (step.group) {
    let end = index;
    while (end < steps.length && steps[end]!.group === step.group) end += 1;
    const together = steps.slice(index, end);
    console.log(`\n▶ ${step.group}, side by side: ${together.map((s) => s.name).join(", ")}`);
    const started = Date.now();
    await Promise.all(
      together.map(async (member) => {
        const { ok, output } = await runQuietly(member.command);
        console.log(`\n▶ ${member.name}: ${member.command.join(" ")}\n${output.trimEnd()}`);
        record(member, ok, started);
      }),
    );
    index += together.length;
    continue;
  }
  console.log(`\n▶ ${step.name}: ${step.command.join(" ")}`);
  const started = Date.now();
  let ok = true;
  try {
    await run(step.command[0]!, step.command.slice(1));
  } catch {
    ok = false;
  }
  record(step, ok, started);
  index += 1;
  if (!ok && step.stopOnFailure) break;
}

const report = measurementLog("npm-test", "npm test -- --write", process.argv.includes("--write"));
console.log("\nSummary");
for (const r of results) report.line(`  ${r.ok ? "✓" : "✗"} ${r.name} (${r.seconds}s)`);
const failed = results.some((r) => !r.ok);
report.line(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
report.finish();
process.exit(failed ? 1 : 0);
