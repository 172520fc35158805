// npm run deploy: check the plan (scripts/lib/deploy-plan.ts) and stop before anything changes if it has a problem;
// then build with a fresh build id, apply remote D1 migrations to every D1 database of wrangler.toml (the core and each
// shard), deploy the Worker, and only then publish the build id so browsers reload into assets that are already live.
// Needs `wrangler login` (or an API token) and the real D1/KV ids in wrangler.toml; see README "Deploy".
//
// npm run deploy -- --dry-run: the same plan, offline, changing nothing: it builds the Worker to measure it, prints the
// plan and exits 1 on any problem (decision 042).
//   --secrets FILE        the production secrets in .dev.vars format, checked by the Worker's own parser; only their
//                         names are printed. Without it every secret counts as unset (SESSION_SECRET is then missing).
//   --allow-placeholders  placeholder ids (the repository's, for local state) are listed as blocking a production
//                         deploy instead of failing the run: a fresh clone's and CI's check of everything else.
//   --skip-build          measure the last build (dist/worker) instead of building.
//   --config FILE         another wrangler.toml (tests).
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { resolveBuildId } from "./build-id";
import { publishBuildId } from "./build-id-kv";
import { PRODUCTION_VARS, type Plan } from "./lib/deploy-plan";
import { dryRunReport, makePlan as readPlan, PlanReadError, planText, type PlanOptions } from "./lib/deploy-reading";
import { run } from "./lib/run";
import { d1Bindings, wranglerEnv } from "./lib/wrangler";

const ROOT = resolve(import.meta.dirname, "..");
const { values: options } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    secrets: { type: "string" },
    "allow-placeholders": { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    config: { type: "string", default: join(ROOT, "wrangler.toml") },
  },
});
const dryRun = options["dry-run"];
const planOptions: PlanOptions = {
  config: options.config,
  allowPlaceholders: options["allow-placeholders"],
  ...(options.secrets ? { secrets: options.secrets } : {}),
};

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function makePlan() {
  try {
    return readPlan(planOptions);
  } catch (error) {
    if (error instanceof PlanReadError) fail(error.message);
    throw error;
  }
}

function printPlan(plan: Plan): void {
  const { out, err } = planText(plan);
  if (out.length > 0) console.log(out.join("\n"));
  if (err.length > 0) console.error(err.join("\n"));
}

if (dryRun) {
  if (!options["skip-build"]) await run("npx", ["tsx", "scripts/build.ts"], { env: wranglerEnv({ WRANGLER_LOG: "warn" }), cwd: ROOT });
  const report = dryRunReport(planOptions);
  console.log(report.out.join("\n"));
  if (report.err.length > 0) console.error(report.err.join("\n"));
  process.exit(report.status);
}

// The real deploy checks the same plan first (the bundle is measured after the build below). Its settings are checked
// here only with --secrets: the deployed secrets cannot be read back, and the Worker names a broken one itself (a 503).
const buildId = resolveBuildId();
const env = wranglerEnv({ BUILD_ID: buildId });
const before = makePlan();
const beforeBuild = before.problems.filter((problem) => !problem.startsWith("Worker bundle:") && (options.secrets || !problem.startsWith("Settings:")));
if (beforeBuild.length > 0 || before.blockers.length > 0) {
  printPlan({ ...before, problems: beforeBuild });
  fail("\nNothing was deployed: correct the problems above (npm run deploy -- --dry-run shows the whole plan).");
}
// The R2 buckets must exist before a Worker that binds them is deployed (README "Deploy" creates them once):
// `wrangler r2 bucket info` fails for a missing one, and nothing has changed yet.
// (A bucket without a name is one of the plan's problems above.)
for (const { bucket_name: bucket = "" } of before.config.r2_buckets) await run("npx", ["wrangler", "r2", "bucket", "info", bucket], { env });
await run("npx", ["tsx", "scripts/build.ts"], { env });
const bundleProblems = makePlan().problems.filter((problem) => problem.startsWith("Worker bundle:"));
if (bundleProblems.length > 0) fail(`${bundleProblems.join("\n")}\nNothing was deployed.`);
// Every database gets every migration: the core one and each shard (decision 021), before the Worker that needs them.
for (const { binding } of d1Bindings()) await run("npx", ["wrangler", "d1", "migrations", "apply", binding, "--remote"], { env });
const productionVars = Object.entries(PRODUCTION_VARS).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
await run("npx", ["wrangler", "deploy", ...productionVars], { env });
await publishBuildId(buildId, { remote: true });
console.log(`Deployed build ${buildId}.`);
