// What `npm run deploy` would do and what would stop it, worked out offline so a deploy stops before anything changes (README "Deploy"; decision 042):
// wrangler.toml's bindings and ids, the Worker bundle against Workers' size limits, the migrations each database would
// get, the queues and crons, and the Worker's settings checked by the Worker's own parser (configOf over the production
// vars and the secrets the deployer gives). Pure: scripts/deploy.ts reads the files and prints; tests give it objects.
import { ConfigError, configOf, configProblems, RAIL_SETTING_NAMES, railsConfigOf, SETTING_NAMES } from "#server/env";
import { EMAIL_SETTING_NAMES, emailConfigOf } from "#server/notifications/email-settings";

/** Every setting the Worker reads: configOf's and the rails' (parsed apart by railsConfigOf, so that a bad rail setting
 *  does not stop the portal, but checked here all the same: production with no rail leaves payouts waiting). */
const ALL_SETTING_NAMES: readonly string[] = [...SETTING_NAMES, ...RAIL_SETTING_NAMES, ...EMAIL_SETTING_NAMES];

/** What `npm run deploy` passes as `wrangler deploy --var`: these win over wrangler.toml's [vars]. */
export const PRODUCTION_VARS: Readonly<Record<string, string>> = { ENVIRONMENT: "production", SERVER_TIMING: "off" };

// Workers' limits (https://developers.cloudflare.com/workers/platform/limits/, "Worker size" and "Environment
// variables"; the errors page: "A Worker can be up to 10 MB in size after compression on the Workers Paid plan, and up to
// 3 MB on the Workers Free plan"). Paid's limit stops a deploy; Free's is reported. MB is read as 1,000,000 bytes, the
// stricter reading. (A draft of those docs, cloudflare-docs pull request 31002, would replace both with one 64 MiB
// uncompressed limit; until it is published these stand.)
export const WORKER_GZIP_LIMIT_PAID = 10_000_000;
export const WORKER_GZIP_LIMIT_FREE = 3_000_000;
export const SETTINGS_LIMIT_PAID = 128;
export const SETTING_VALUE_LIMIT_BYTES = 5 * 1024;

/** The part of wrangler's parsed configuration (wrangler's unstable_readConfig) the plan reads. */
export interface WranglerConfig {
  name?: string;
  main?: string;
  compatibility_date?: string;
  vars: Record<string, unknown>;
  d1_databases: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[];
  kv_namespaces: { binding: string; id?: string }[];
  r2_buckets: { binding: string; bucket_name?: string }[];
  queues: { producers?: { binding: string; queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
  triggers: { crons?: string[] };
  /** The Cloudflare Email Service bindings ([[send_email]]), when the deployment emails through one. */
  send_email?: { name: string }[];
}

export interface PlanInput {
  config: WranglerConfig;
  /** Migration file names by migrations_dir, as found on disk (null: the folder does not exist). */
  migrations: Record<string, string[] | null>;
  /** The built Worker's modules as uploaded: sizes in bytes, raw and gzip; null: no build to measure. */
  bundle: { files: string[]; bytes: number; gzipBytes: number } | null;
  /** The deployer's secrets (--secrets FILE); null: none given, so every secret counts as unset. */
  secrets: Record<string, string> | null;
  /** Where the secrets came from, for the plan's words. */
  secretsSource?: string;
  /** The crons functions/worker.ts runs jobs for (CRON_LINES of functions/operators/jobs.ts). */
  cronLines: Record<string, string[]>;
  /** Placeholder ids are reported, not refused: a fresh clone's or CI's check of everything else. */
  allowPlaceholders: boolean;
}

export interface Plan {
  /** The plan, line by line. */
  lines: string[];
  /** What would make the deploy fail or deploy a broken Worker: any one means exit 1. */
  problems: string[];
  /** Placeholder ids let through by --allow-placeholders: each would still block a production deploy. */
  blockers: string[];
}

/**
 * The ids the repository ships for local state (wrangler dev and the tests key their files by them): leading zeros, or
 * "local-…". A production deploy with one would bind a database or namespace that does not exist.
 */
export function isPlaceholderId(id: string): boolean {
  // A real id is random: eight leading zeros (1 in 4 billion) is a hand-written one, as wrangler.toml's are.
  return /^local-/i.test(id) || /^0{8}/.test(id) || /^(x+|placeholder|todo|changeme)$/i.test(id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KV_ID = /^[0-9a-f]{32}$/i;
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

/** A .dev.vars file (wrangler's dotenv format): NAME=value lines, # comments, optional quotes; empty values mean unset. */
export function parseDotVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) throw new Error(`not a NAME=value line: ${line.slice(0, line.indexOf("=") + 1 || 20)}…`);
    let value = match[2]!;
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    if (value !== "") out[match[1]!] = value;
  }
  return out;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** The settings grouped by their first word (SMS_…, GOOGLE_…, PAYOUT_…): a provider's settings share it. */
export function settingGroups(names: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const group = name.split("_")[0]!;
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  return groups;
}

/** The settings as the deployed Worker would see them, their sources, and what configOf says of them. */
function planSettings(input: PlanInput, problems: string[], lines: string[]): void {
  const vars = Object.fromEntries(Object.entries(input.config.vars).map(([name, value]) => [name, String(value)]));
  const secrets = input.secrets ?? {};
  const known = new Set(ALL_SETTING_NAMES);
  for (const name of Object.keys(secrets)) {
    if (!known.has(name)) problems.push(`Settings: ${name} (${input.secretsSource ?? "secrets"}) is not a setting the Worker reads (functions/env.ts)`);
    if (name in PRODUCTION_VARS) problems.push(`Settings: ${name} is set by npm run deploy itself; a secret of that name would clash with it`);
    else if (name in vars) problems.push(`Settings: ${name} is a var of wrangler.toml; a secret of that name would clash with it`);
  }
  for (const name of Object.keys(vars)) if (!known.has(name)) problems.push(`Settings: wrangler.toml [vars] ${name} is not a setting the Worker reads`);
  const env: Record<string, string> = { ...vars, ...secrets, ...PRODUCTION_VARS };
  for (const [name, value] of Object.entries(env)) {
    if (new TextEncoder().encode(value).length > SETTING_VALUE_LIMIT_BYTES) problems.push(`Settings: ${name} is over Workers' 5 KB a variable`);
  }
  if (Object.keys(env).length > SETTINGS_LIMIT_PAID) problems.push(`Settings: ${Object.keys(env).length} variables, over Workers' ${SETTINGS_LIMIT_PAID}`);

  const source = (name: string) => (name in PRODUCTION_VARS ? "npm run deploy" : name in secrets ? "secret" : "wrangler.toml");
  lines.push("", `Settings (names only, never values; as production gets them: ${Object.keys(PRODUCTION_VARS).join(", ")} set by npm run deploy)`);
  lines.push(
    input.secrets
      ? `  secrets read from ${input.secretsSource ?? "the secrets given"}`
      : "  no secrets given (--secrets FILE, .dev.vars format): every secret counts as unset",
  );
  const configured: string[] = [];
  const unconfigured: string[] = [];
  for (const [group, names] of settingGroups(ALL_SETTING_NAMES)) {
    const set = names.filter((name) => name in env);
    if (set.length === 0) unconfigured.push(group);
    else if (names.length === 1) configured.push(`  ${names[0]} (${source(names[0]!)})`);
    else
      configured.push(
        `  ${group}: ${set.map((name) => `${name} (${source(name)})`).join(", ")}${set.length < names.length ? `; unset: ${names.filter((n) => !(n in env)).join(", ")}` : ""}`,
      );
  }
  lines.push(...configured);
  if (unconfigured.length > 0) lines.push(`  not configured (defaults apply, or the feature is off): ${unconfigured.join(", ")}`);
  try {
    configOf(env);
    lines.push("  the Worker's own check (configOf) accepts them");
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const hint = input.secrets ? "" : " (no secrets were given: --secrets FILE)";
    for (const problem of configProblems(error)) problems.push(`Settings: ${problem}${hint}`);
  }
  // The rails as production reads them: each rail chosen has its settings, and no rail setting is malformed (used or
  // not). Their sentences name the variable, never a value.
  const rails = railsConfigOf({ ...env });
  const railProblems = new Set([
    ...(rails.payout.rail === null ? [rails.payout.problem] : []),
    ...(rails.refund.rail === null ? [rails.refund.problem] : []),
    ...rails.invalid,
  ]);
  const railHint = input.secrets ? "" : " (no secrets were given: --secrets FILE)";
  for (const problem of railProblems) problems.push(`Settings: ${problem}${railHint}`);
  if (railProblems.size === 0) lines.push("  the rails' own check (railsConfigOf) accepts them: payouts and refunds each have a rail with its settings");
  // Email as production reads it (decision 053): a provider with its settings, the portal's address for the links.
  // The Cloudflare binding is the Worker's: the plan gives one when wrangler.toml declares [[send_email]].
  const email = emailConfigOf({ ...env, ...(input.config.send_email?.some((binding) => binding.name === "EMAIL") ? { EMAIL: {} } : {}) });
  const emailProblems = new Set([...(email.sender.provider === null ? [email.sender.problem] : []), ...email.invalid]);
  for (const problem of emailProblems) problems.push(`Settings: ${problem}${railHint}`);
  if (emailProblems.size === 0)
    lines.push(`  email's own check (emailConfigOf) accepts them: notices are emailed through ${email.sender.provider}, linking to ${email.portalUrl}`);
}

/** The deploy plan: what would be created, bound, migrated and scheduled, and every problem that would stop it. */
export function planDeploy(input: PlanInput): Plan {
  const { config } = input;
  const lines: string[] = [];
  const problems: string[] = [];
  const blockers: string[] = [];
  const placeholder = (what: string) => {
    const text = `${what} is a placeholder id: create the resource (README "Deploy") and put its id in wrangler.toml`;
    if (input.allowPlaceholders) blockers.push(text);
    else problems.push(text);
  };

  lines.push(`Worker ${config.name ?? "(no name)"}: ${config.main ?? "(no main)"}, compatibility_date ${config.compatibility_date ?? "(none)"}`);
  if (!config.name) problems.push("wrangler.toml has no name");
  if (input.bundle) {
    const { gzipBytes, bytes, files } = input.bundle;
    lines.push(
      `  bundle (${files.join(", ")}): ${megabytes(bytes)}, ${megabytes(gzipBytes)} gzip; Workers allow ${megabytes(WORKER_GZIP_LIMIT_FREE)} gzip on Free, ${megabytes(WORKER_GZIP_LIMIT_PAID)} on Paid`,
    );
    if (gzipBytes > WORKER_GZIP_LIMIT_PAID)
      problems.push(`Worker bundle: ${megabytes(gzipBytes)} gzip is over Workers Paid's ${megabytes(WORKER_GZIP_LIMIT_PAID)}`);
    else if (gzipBytes > WORKER_GZIP_LIMIT_FREE) lines.push(`  over Workers Free's ${megabytes(WORKER_GZIP_LIMIT_FREE)}: needs Workers Paid`);
  } else problems.push("Worker bundle: none to measure (dist/worker/worker.js); run without --skip-build");

  lines.push("", "D1 databases (each gets every migration of its folder it has not recorded yet, before the Worker is deployed)");
  const d1 = config.d1_databases;
  if (!d1.some((db) => db.binding === "DB")) problems.push("D1: no DB binding (the core database)");
  const seenIds = new Map<string, string>();
  for (const db of d1) {
    const id = db.database_id ?? "";
    lines.push(`  ${db.binding}: ${db.database_name ?? "(no database_name)"} ${id || "(no database_id)"}, migrations ${db.migrations_dir ?? "migrations"}/`);
    if (!id) problems.push(`D1 ${db.binding}: no database_id`);
    else if (isPlaceholderId(id)) placeholder(`D1 ${db.binding} (${id})`);
    else if (!UUID.test(id)) problems.push(`D1 ${db.binding}: database_id ${id} is not a D1 id (a UUID, as wrangler d1 create prints)`);
    if (id && seenIds.has(id)) problems.push(`D1 ${db.binding}: the same database_id as ${seenIds.get(id)}`);
    if (id) seenIds.set(id, db.binding);
  }
  for (const [dir, files] of Object.entries(input.migrations)) {
    if (files === null) {
      problems.push(`Migrations: ${dir}/ does not exist`);
      continue;
    }
    const sql = files.filter((file) => file.endsWith(".sql")).sort();
    const users = d1.filter((db) => (db.migrations_dir ?? "migrations") === dir).map((db) => db.binding);
    lines.push(
      `  ${dir}/ (${users.join(", ")}): ${sql.length} migrations, ${sql[0] ?? "none"} … ${sql.at(-1) ?? "none"}; wrangler applies those a database has not applied yet, in this order`,
    );
    const numbers = new Map<string, string>();
    for (const file of sql) {
      const number = MIGRATION_FILE.exec(file)?.[1];
      if (!number) problems.push(`Migrations: ${dir}/${file} is not named NNNN_words.sql`);
      else if (numbers.has(number)) problems.push(`Migrations: ${dir}/${file} has the number of ${numbers.get(number)}`);
      else numbers.set(number, file);
    }
  }

  lines.push("", "KV namespaces");
  for (const kv of config.kv_namespaces) {
    const id = kv.id ?? "";
    lines.push(`  ${kv.binding}: ${id || "(no id)"}`);
    if (!id) problems.push(`KV ${kv.binding}: no id`);
    else if (isPlaceholderId(id)) placeholder(`KV ${kv.binding} (${id})`);
    else if (!KV_ID.test(id)) problems.push(`KV ${kv.binding}: id ${id} is not a KV namespace id (32 hex digits)`);
  }

  lines.push("", "R2 buckets (npm run deploy stops first if one does not exist)");
  for (const bucket of config.r2_buckets) {
    lines.push(`  ${bucket.binding}: ${bucket.bucket_name ?? "(no bucket_name)"}`);
    if (!bucket.bucket_name || !BUCKET_NAME.test(bucket.bucket_name)) problems.push(`R2 ${bucket.binding}: "${bucket.bucket_name ?? ""}" is not a bucket name`);
  }

  const producers = config.queues.producers ?? [];
  const consumers = config.queues.consumers ?? [];
  const queues = [
    ...new Set([...producers.map((p) => p.queue), ...consumers.flatMap((c) => [c.queue, ...(c.dead_letter_queue ? [c.dead_letter_queue] : [])])]),
  ];
  lines.push("", `Queues (each must exist: ${queues.join(", ")})`);
  for (const producer of producers) lines.push(`  ${producer.binding} sends to ${producer.queue}`);
  for (const consumer of consumers)
    lines.push(`  the Worker consumes ${consumer.queue}${consumer.dead_letter_queue ? `; dead letters to ${consumer.dead_letter_queue}` : ""}`);
  const consumed = new Set(consumers.map((c) => c.queue));
  // Nothing is lost silently (decision 028): a queue nobody consumes would hold its messages until they expire.
  for (const queue of queues) if (!consumed.has(queue)) problems.push(`Queues: nothing consumes ${queue}`);

  const crons = config.triggers.crons ?? [];
  lines.push("", "Cron triggers");
  for (const cron of crons) {
    const jobs = input.cronLines[cron];
    lines.push(`  ${cron}: ${jobs ? jobs.join("; ") : "(no jobs)"}`);
    if (!jobs) problems.push(`Crons: "${cron}" runs no job (functions/operators/jobs.ts CRON_LINES)`);
  }
  for (const cron of Object.keys(input.cronLines))
    if (!crons.includes(cron)) problems.push(`Crons: the jobs of "${cron}" never run: wrangler.toml has no such trigger`);

  planSettings(input, problems, lines);
  return { lines, problems, blockers };
}
