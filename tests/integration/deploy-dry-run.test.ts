// Decision 042: `npm run deploy -- --dry-run` on the repository as cloned and on broken copies of wrangler.toml,
// offline, on the build the integration tier already has (--skip-build): its exit code and what it says. The command
// itself runs twice (by default, and as CI runs it); the other variants ask its report in this process
// (scripts/lib/deploy-reading.ts), which loads wrangler once instead of once a variant.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/portal";
import { dryRunReport } from "../../scripts/lib/deploy-reading";

const tmp = mkdtempSync(join(tmpdir(), "pp-dry-run-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dryRun(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync("npx", ["tsx", "scripts/deploy.ts", "--dry-run", "--skip-build", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The same dry run's report, asked in this process: flags as the command takes them. */
function planOf(...args: string[]): { status: number; output: string } {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const secrets = value("--secrets");
  const report = dryRunReport({
    config: value("--config") ?? join(ROOT, "wrangler.toml"),
    allowPlaceholders: args.includes("--allow-placeholders"),
    ...(secrets ? { secrets } : {}),
  });
  return { status: report.status, output: [...report.out, ...report.err].join("\n") };
}

function secretsFile(text: string): string {
  const file = join(tmp, `secrets-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text);
  return file;
}

const SECRET = "a-production-secret-that-is-long-enough-5678";
const SWITCH_KEY = `whsec_${Buffer.from("dry-run-switch-rail-key-0123456789").toString("base64")}`;
/** Production's rails (decision 041): without them the plan names the missing settings. */
const RAILS = `PAYOUT_RAIL=switch\nREFUND_RAIL=switch\nSWITCH_RAIL_URL=https://switch.example.org/rails\nSWITCH_RAIL_SECRET=${SWITCH_KEY}\nEMAIL_PROVIDER=resend\nEMAIL_FROM=notices@portal.example.org\nRESEND_API_KEY=re_production_key_0001\nPORTAL_URL=https://portal.example.org\n`;

describe("on the repository", () => {
  it("refuses by default: the placeholder ids and the missing secret are named, exit 1", () => {
    const { status, output } = dryRun();
    expect(status).toBe(1);
    expect(output).toContain("D1 DB (00000000-0000-4000-8000-000000000001) is a placeholder id");
    expect(output).toContain("KV KV (00000000000000000000000000000001) is a placeholder id");
    expect(output).toContain("Settings: SESSION_SECRET is required in production");
  });

  it("as CI runs it, prints the whole plan and passes, the placeholders listed as blocking production", () => {
    const { status, output } = dryRun("--allow-placeholders", "--secrets", join(ROOT, "tests/fixtures/deploy/ci.secrets"));
    expect(status, output).toBe(0);
    for (const part of [
      "gzip; Workers allow 3.00 MB gzip on Free, 10.00 MB on Paid",
      "SHARD_B: partners-portal-shard-b",
      "0001_identity.sql",
      "partners-portal-payments-dlq",
      "0 6 * * *",
      "Would block a production deploy",
    ]) {
      expect(output).toContain(part);
    }
  }, 30_000);

  it("names the secrets it was given and never prints a value", () => {
    const file = secretsFile(`SESSION_SECRET=${SECRET}\n${RAILS}SMS_GATEWAY_URL=https://sms.example.org/send\nSMS_GATEWAY_TOKEN=token-value-xyz\n`);
    const { status, output } = planOf("--allow-placeholders", "--secrets", file);
    expect(status, output).toBe(0);
    expect(output).toContain("SMS_GATEWAY_URL (secret), SMS_GATEWAY_TOKEN (secret)");
    for (const value of [SECRET, "sms.example.org", "token-value-xyz"]) expect(output).not.toContain(value);
  }, 30_000);

  it("lists Paystack's and the switch's settings by name and refuses a missing or malformed one by name, exit 1", () => {
    const paystackKey = "sk_live_dryrunpaystackkey0123456789";
    const good = secretsFile(`SESSION_SECRET=${SECRET}\n${RAILS.replace("PAYOUT_RAIL=switch", "PAYOUT_RAIL=paystack")}PAYSTACK_SECRET_KEY=${paystackKey}\n`);
    const ok = planOf("--allow-placeholders", "--secrets", good);
    expect(ok.status, ok.output).toBe(0);
    expect(ok.output).toContain("PAYSTACK: PAYSTACK_SECRET_KEY (secret); unset: PAYSTACK_BASE_URL");
    expect(ok.output).toContain("the rails' own check (railsConfigOf) accepts them");
    for (const value of [paystackKey, SWITCH_KEY, "switch.example.org"]) expect(ok.output).not.toContain(value);

    const missing = planOf(
      "--allow-placeholders",
      "--secrets",
      secretsFile(`SESSION_SECRET=${SECRET}\n${RAILS.replace("PAYOUT_RAIL=switch", "PAYOUT_RAIL=paystack")}`),
    );
    expect(missing.status).toBe(1);
    expect(missing.output).toContain("Settings: PAYSTACK_SECRET_KEY is not set: Paystack payouts need the account's secret key");
    const malformed = planOf("--allow-placeholders", "--secrets", secretsFile(`SESSION_SECRET=${SECRET}\n${RAILS}PAYSTACK_SECRET_KEY=pk_live_wrongkind\n`));
    expect(malformed.status).toBe(1);
    expect(malformed.output).toContain("Settings: PAYSTACK_SECRET_KEY must be a Paystack secret key");
    expect(malformed.output).not.toContain("pk_live_wrongkind");
  }, 60_000);

  it("names a malformed provider setting, exit 1", () => {
    const file = secretsFile(`SESSION_SECRET=${SECRET}\nSMS_GATEWAY_URL=http://sms.example.org\n`);
    const { status, output } = planOf("--allow-placeholders", "--secrets", file);
    expect(status).toBe(1);
    expect(output).toContain("SMS_GATEWAY_TOKEN is required when SMS_GATEWAY_URL is set");
    expect(output).toContain("SMS_GATEWAY_URL must be an https URL in production");
  }, 30_000);
});

describe("on a broken wrangler.toml", () => {
  it("names each problem, exit 1", () => {
    const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8")
      .replace('database_id = "00000000-0000-4000-8000-00000000000a"', 'database_id = "not-a-database-id"')
      .replace('crons = ["*/5 * * * *", "0 6 * * *", "0 7 * * *"]', 'crons = ["*/5 * * * *", "0 7 * * *", "0 8 * * *"]')
      .replace('dead_letter_queue = "partners-portal-webhooks-dlq"\n', "");
    const config = join(tmp, "wrangler.toml");
    writeFileSync(config, toml);
    const { status, output } = planOf("--allow-placeholders", "--secrets", join(ROOT, "tests/fixtures/deploy/ci.secrets"), "--config", config);
    expect(status).toBe(1);
    expect(output).toContain("D1 SHARD_A: database_id not-a-database-id is not a D1 id");
    // Its migrations_dir is relative to the copy, where there is none.
    expect(output).toContain("Migrations: migrations/ does not exist");
    expect(output).toContain('Crons: "0 8 * * *" runs no job');
    expect(output).toContain('Crons: the jobs of "0 6 * * *" never run');
  }, 30_000);

  it("that is not TOML says so, exit 1", () => {
    const config = join(tmp, "not-toml.toml");
    writeFileSync(config, 'name = "partners-portal"\n[[d1_databases]\nbinding = "DB"\n');
    const { status, output } = planOf("--config", config);
    expect(status).toBe(1);
    expect(output).toContain("cannot be read");
  }, 30_000);
});
