// The deploy's plan (./deploy-plan.ts) from the files it reads: wrangler.toml as wrangler reads it, the migrations
// folders, the offline bundle in dist/worker and the --secrets file; and the dry run's whole text and exit code.
// scripts/deploy.ts is the command around it; tests call dryRunReport in their own process, so the variants they try
// load wrangler once instead of once per command.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { unstable_readConfig } from "wrangler";
import { CRON_LINES } from "#server/operators/jobs";
import { parseDotVars, planDeploy, type Plan, type WranglerConfig } from "./deploy-plan";

const ROOT = resolve(import.meta.dirname, "../..");

export interface PlanOptions {
  /** wrangler.toml's path. */
  config: string;
  /** The production secrets in .dev.vars format. */
  secrets?: string;
  allowPlaceholders: boolean;
}

/** Why the plan could not be made (a file that cannot be read): said as it is, never with a value. */
export class PlanReadError extends Error {}

interface Measured {
  files: string[];
  bytes: number;
  gzipBytes: number;
}
let lastMeasured: { stamp: string; measured: Measured } | null = null;

/** The modules `wrangler deploy` uploads, from the offline bundle of scripts/build.ts (source maps are not uploaded). */
function measureBundle(): Measured | null {
  const dir = join(ROOT, "dist/worker");
  if (!existsSync(join(dir, "worker.js"))) return null;
  const files = readdirSync(dir).filter((file) => /\.(js|mjs|wasm|bin|txt|html)$/.test(file));
  // gzip at level 9 of about 4 MB is most of a plan's time: measured again only when the bundle changed.
  const stamp = files.map((file) => `${file}:${statSync(join(dir, file)).mtimeMs}`).join("|");
  if (lastMeasured?.stamp === stamp) return lastMeasured.measured;
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(join(dir, file));
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  const measured = { files: files.map((file) => `dist/worker/${file}`), bytes, gzipBytes };
  lastMeasured = { stamp, measured };
  return measured;
}

export function makePlan(options: PlanOptions): Plan & { config: WranglerConfig } {
  const configPath = resolve(options.config);
  let config: WranglerConfig;
  try {
    // wrangler's own reading of wrangler.toml, offline: the plan sees exactly what `wrangler deploy` will.
    const read = unstable_readConfig({ config: configPath }, { hideWarnings: true });
    config = { ...(read as unknown as WranglerConfig), main: read.main && relative(ROOT, read.main) };
  } catch (error) {
    throw new PlanReadError(`${relative(process.cwd(), configPath) || configPath} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
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
      throw new PlanReadError(`--secrets ${options.secrets}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const plan = planDeploy({
    config,
    migrations,
    bundle: measureBundle(),
    secrets,
    secretsSource: options.secrets,
    cronLines: Object.fromEntries(Object.entries(CRON_LINES).map(([cron, lines]) => [cron, lines.map((jobs) => jobs.join(", "))])),
    allowPlaceholders: options.allowPlaceholders,
  });
  return { ...plan, config };
}

/** The plan as the command prints it: its lines, what would block production, then the problems. */
export function planText(plan: Plan): { out: string[]; err: string[] } {
  const out = [...plan.lines];
  const err: string[] = [];
  if (plan.blockers.length > 0) {
    out.push(`\nWould block a production deploy (let through by --allow-placeholders):`);
    for (const blocker of plan.blockers) out.push(`  - ${blocker}`);
  }
  if (plan.problems.length > 0) {
    err.push(`\n${plan.problems.length} problem${plan.problems.length === 1 ? "" : "s"}:`);
    for (const problem of plan.problems) err.push(`  ✗ ${problem}`);
  }
  return { out, err };
}

/** `npm run deploy -- --dry-run` on the last build: what it prints and its exit code (1 on any problem). */
export function dryRunReport(options: PlanOptions): { status: 0 | 1; out: string[]; err: string[] } {
  const configPath = resolve(options.config);
  const out = [`Deploy plan, dry run: nothing is created, migrated or deployed (${relative(ROOT, configPath) || configPath})\n`];
  let plan: Plan;
  try {
    plan = makePlan(options);
  } catch (error) {
    if (error instanceof PlanReadError) return { status: 1, out, err: [error.message] };
    throw error;
  }
  const text = planText(plan);
  out.push(...text.out);
  if (plan.problems.length > 0) return { status: 1, out, err: text.err };
  out.push(plan.blockers.length > 0 ? "\nNo problem but the placeholder ids above." : "\nNo problem: npm run deploy would go ahead.");
  return { status: 0, out, err: text.err };
}
