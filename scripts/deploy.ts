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
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import { CRON_LINES } from "#server/operators/jobs";
import { resolveBuildId } from "./build-id";
import { publishBuildId } from "./build-id-kv";
import { parseDotVars, planDeploy, PRODUCTION_VARS, type Plan, type WranglerConfig } from "./lib/deploy-plan";
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
const configPath = resolve(options.config);

/** The modules `wrangler deploy` uploads, from the offline bundle of scripts/build.ts (source maps are not uploaded). */
function measureBundle(): { files: string[]; bytes: number; gzipBytes: number } | null {
  const dir = join(ROOT, "dist/worker");
  if (!existsSync(join(dir, "worker.js"))) return null;
  const files = readdirSync(dir).filter((file) => /\.(js|mjs|wasm|bin|txt|html)$/.test(file));
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(join(dir, file));
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files: files.map((file) => `dist/worker/${file}`), bytes, gzipBytes };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function makePlan(): Plan & { config: WranglerConfig } {
  let config: WranglerConfig;
  try {
    // wrangler's own reading of wrangler.toml, offline: the plan sees exactly what `wrangler deploy` will.
    const read = unstable_readConfig({ config: configPath }, { hideWarnings: true });
    config = { ...(read as unknown as WranglerConfig), main: read.main && relative(ROOT, read.main) };
  } catch (error) {
    fail(`${relative(process.cwd(), configPath) || configPath} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const migrations: Record<string, string[] | null> = {};
  for (const db of config.d1_databases) {
    const dir = db.migrations_dir ?? "migrations";
    const path = resolve(dirname(configPath), dir);
    migrations[dir] = existsSync(path) ? readdirSync(path) : null;
  }
  let secrets: Record<string, string> | null = null;
  if (options.secrets) {
    try {
      secrets = parseDotVars(readFileSync(options.secrets, "utf8"));
    } catch (error) {
      // The reason only (a line's name part at most): never a value.
      fail(`--secrets ${options.secrets}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const plan = planDeploy({
    config,
    migrations,
    bundle: measureBundle(),
    secrets,
    secretsSource: options.secrets,
    cronLines: Object.fromEntries(Object.entries(CRON_LINES).map(([cron, lines]) => [cron, lines.map((jobs) => jobs.join(", "))])),
    allowPlaceholders: options["allow-placeholders"],
  });
  return { ...plan, config };
}

function printPlan(plan: Plan): void {
  console.log(plan.lines.join("\n"));
  if (plan.blockers.length > 0) {
    console.log(`\nWould block a production deploy (let through by --allow-placeholders):`);
    for (const blocker of plan.blockers) console.log(`  - ${blocker}`);
  }
  if (plan.problems.length > 0) {
    console.error(`\n${plan.problems.length} problem${plan.problems.length === 1 ? "" : "s"}:`);
    for (const problem of plan.problems) console.error(`  ✗ ${problem}`);
  }
}

if (dryRun) {
  if (!options["skip-build"]) await run("npx", ["tsx", "scripts/build.ts"], { env: wranglerEnv({ WRANGLER_LOG: "warn" }), cwd: ROOT });
  console.log(`Deploy plan, dry run: nothing is created, migrated or deployed (${relative(ROOT, configPath) || configPath})\n`);
  const plan = makePlan();
  printPlan(plan);
  if (plan.problems.length > 0) process.exit(1);
  console.log(plan.blockers.length > 0 ? "\nNo problem but the placeholder ids above." : "\nNo problem: npm run deploy would go ahead.");
  process.exit(0);
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
