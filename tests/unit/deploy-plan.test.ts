// The deploy's plan (scripts/lib/deploy-plan.ts): what it refuses, what it only reports, and that it never prints a value.
import { describe, expect, it } from "vitest";
import { isPlaceholderId, parseDotVars, planDeploy, settingGroups, WORKER_GZIP_LIMIT_PAID, type PlanInput } from "../../scripts/lib/deploy-plan";

const D1_ID = "3f2c9a1e-7b4d-4c8e-9a55-0d1e2f3a4b5c";
const SHARD_ID = "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const KV_ID = "5d41402abc4b2a76b9719d911017c592";
const SECRET = "a-production-secret-that-is-long-enough-1234";
const SWITCH_KEY = `whsec_${Buffer.from("a-production-switch-rail-key-0123456789").toString("base64")}`;
const PAYSTACK_KEY = "sk_live_productionpaystackkey0123456789";
/** The rails production requires (decision 041): payouts and refunds through the switch; and email (decision 053). */
const EMAIL = {
  EMAIL_PROVIDER: "postmark",
  EMAIL_FROM: "Partners Portal <notices@portal.example.com>",
  POSTMARK_SERVER_TOKEN: "pm-production-token-0001",
  PORTAL_URL: "https://portal.example.com",
};
const RAILS = { PAYOUT_RAIL: "switch", REFUND_RAIL: "switch", SWITCH_RAIL_URL: "https://switch.example.com/rails", SWITCH_RAIL_SECRET: SWITCH_KEY, ...EMAIL };

function input(overrides: Partial<PlanInput> = {}, config: Partial<PlanInput["config"]> = {}): PlanInput {
  return {
    config: {
      name: "partners-portal",
      main: "functions/worker.ts",
      vars: { ENVIRONMENT: "development", ARCHIVE_RETENTION_MONTHS: "13" },
      d1_databases: [
        { binding: "DB", database_name: "partners-portal", database_id: D1_ID, migrations_dir: "migrations" },
        { binding: "SHARD_A", database_name: "partners-portal-shard-a", database_id: SHARD_ID, migrations_dir: "migrations" },
      ],
      kv_namespaces: [{ binding: "KV", id: KV_ID }],
      r2_buckets: [{ binding: "ARCHIVE", bucket_name: "partners-portal-archive" }],
      queues: {
        producers: [{ binding: "EVENTS", queue: "partners-portal-events" }],
        consumers: [{ queue: "partners-portal-events", dead_letter_queue: "partners-portal-events-dlq" }, { queue: "partners-portal-events-dlq" }],
      },
      triggers: { crons: ["*/5 * * * *"] },
      ...config,
    },
    migrations: { migrations: ["0001_identity.sql", "0002_operations.sql"] },
    bundle: { files: ["dist/worker/worker.js"], bytes: 3_000_000, gzipBytes: 700_000 },
    secrets: { SESSION_SECRET: SECRET, ...RAILS },
    secretsSource: "prod.secrets",
    cronLines: { "*/5 * * * *": ["clearing"] },
    allowPlaceholders: false,
    ...overrides,
  };
}

describe("isPlaceholderId", () => {
  it("knows the repository's ids and hand-written ones", () => {
    for (const id of ["00000000-0000-4000-8000-000000000001", "00000000000000000000000000000001", "local-db", "placeholder"])
      expect(isPlaceholderId(id), id).toBe(true);
  });
  it("lets a real id through", () => {
    for (const id of [D1_ID, KV_ID]) expect(isPlaceholderId(id), id).toBe(false);
  });
});

describe("parseDotVars", () => {
  it("reads NAME=value lines, quotes, comments; an empty value is unset", () => {
    expect(parseDotVars("# c\nA=1\nB=\"two words\"\nexport C='3'\nD=\n\n")).toEqual({ A: "1", B: "two words", C: "3" });
  });
  it("refuses a line that is not NAME=value without quoting its value", () => {
    expect(() => parseDotVars("not a line with a secret-value")).toThrow(/not a NAME=value line/);
    try {
      parseDotVars("BAD NAME=secret-value");
    } catch (error) {
      expect(String(error)).not.toContain("secret-value");
    }
  });
});

describe("planDeploy", () => {
  it("a complete, real configuration has no problem and says what would happen", () => {
    const plan = planDeploy(input());
    expect(plan.problems).toEqual([]);
    const text = plan.lines.join("\n");
    expect(text).toContain("DB: partners-portal 3f2c9a1e");
    expect(text).toContain("2 migrations, 0001_identity.sql … 0002_operations.sql");
    expect(text).toContain("partners-portal-events-dlq");
    expect(text).toContain("*/5 * * * *: clearing");
    expect(text).toContain("0.70 MB gzip");
  });

  it("never prints a setting's value, only its name", () => {
    const text = planDeploy(input()).lines.join("\n");
    expect(text).toContain("SESSION_SECRET (secret)");
    expect(text).not.toContain(SECRET);
  });

  it("refuses placeholder ids, or lists them as blocking production with allowPlaceholders", () => {
    const config = {
      d1_databases: [{ binding: "DB", database_id: "00000000-0000-4000-8000-000000000001" }],
      kv_namespaces: [{ binding: "KV", id: "0".repeat(31) + "1" }],
    };
    const strict = planDeploy(input({}, config));
    expect(strict.problems.filter((p) => p.includes("placeholder id"))).toHaveLength(2);
    const allowed = planDeploy(input({ allowPlaceholders: true }, config));
    expect(allowed.problems).toEqual([]);
    expect(allowed.blockers).toHaveLength(2);
  });

  it("refuses malformed ids, a missing core database and two bindings on one database", () => {
    const problems = planDeploy(
      input(
        {},
        {
          d1_databases: [
            { binding: "SHARD_A", database_id: "not-a-uuid" },
            { binding: "SHARD_B", database_id: "not-a-uuid" },
          ],
          kv_namespaces: [{ binding: "KV", id: "xyz1" }],
        },
      ),
    ).problems;
    expect(problems).toContain("D1: no DB binding (the core database)");
    expect(problems.some((p) => p.startsWith("D1 SHARD_A: database_id not-a-uuid is not a D1 id"))).toBe(true);
    expect(problems).toContain("D1 SHARD_B: the same database_id as SHARD_A");
    expect(problems.some((p) => p.startsWith("KV KV: id xyz1 is not a KV namespace id"))).toBe(true);
  });

  it("refuses a bundle over Workers Paid's limit and a missing one", () => {
    expect(planDeploy(input({ bundle: { files: ["w.js"], bytes: 1, gzipBytes: WORKER_GZIP_LIMIT_PAID + 1 } })).problems[0]).toMatch(
      /over Workers Paid's 10.00 MB/,
    );
    expect(planDeploy(input({ bundle: null })).problems[0]).toMatch(/^Worker bundle: none/);
  });

  it("refuses migrations named out of order or twice, and a missing folder", () => {
    expect(planDeploy(input({ migrations: { migrations: ["0001_a.sql", "0001_b.sql", "notes.sql"] } })).problems).toEqual([
      "Migrations: migrations/0001_b.sql has the number of 0001_a.sql",
      "Migrations: migrations/notes.sql is not named NNNN_words.sql",
    ]);
    expect(planDeploy(input({ migrations: { migrations: null } })).problems).toEqual(["Migrations: migrations/ does not exist"]);
  });

  it("refuses a queue nothing consumes and crons without jobs either way", () => {
    const problems = planDeploy(
      input({ cronLines: { "0 6 * * *": ["settlement"] } }, { queues: { producers: [{ binding: "EVENTS", queue: "q" }], consumers: [] } }),
    ).problems;
    expect(problems).toContain("Queues: nothing consumes q");
    expect(problems).toContain('Crons: "*/5 * * * *" runs no job (functions/operators/jobs.ts CRON_LINES)');
    expect(problems).toContain('Crons: the jobs of "0 6 * * *" never run: wrangler.toml has no such trigger');
  });

  it("checks the settings with the Worker's own parser, as production: a missing secret, a malformed one, an unknown name", () => {
    expect(planDeploy(input({ secrets: null })).problems).toEqual([
      "Settings: SESSION_SECRET is required in production (no secrets were given: --secrets FILE)",
      "Settings: PAYOUT_RAIL is not set: set it to switch or paystack (production never uses the simulator) (no secrets were given: --secrets FILE)",
      "Settings: REFUND_RAIL is not set: set it to switch (production never uses the simulator) (no secrets were given: --secrets FILE)",
      "Settings: EMAIL_PROVIDER is not set: set it to cloudflare, resend or postmark (production never uses the outbox) (no secrets were given: --secrets FILE)",
    ]);
    const problems = planDeploy(
      input({ secrets: { SESSION_SECRET: SECRET, ...RAILS, SMS_GATEWAY_URL: "http://sms.example.com", SMS_GATEWAY_TOKEN: "t", SMS_GATWAY: "x" } }),
    ).problems;
    expect(problems).toContain("Settings: SMS_GATWAY (prod.secrets) is not a setting the Worker reads (functions/env.ts)");
    // wrangler.toml's dev vars do not hide production's rules: ENVIRONMENT is production here.
    const https = planDeploy(
      input({ secrets: { SESSION_SECRET: SECRET, ...RAILS, SMS_GATEWAY_URL: "http://sms.example.com", SMS_GATEWAY_TOKEN: "t" } }),
    ).problems;
    expect(https).toEqual(["Settings: SMS_GATEWAY_URL must be an https URL in production"]);
  });

  it("refuses a secret that clashes with a var", () => {
    expect(planDeploy(input({ secrets: { SESSION_SECRET: SECRET, ...RAILS, ENVIRONMENT: "production" } })).problems).toContain(
      "Settings: ENVIRONMENT is set by npm run deploy itself; a secret of that name would clash with it",
    );
  });

  it("lists a provider's settings together, set and unset, by name", () => {
    const text = planDeploy(
      input({ secrets: { SESSION_SECRET: SECRET, ...RAILS, SMS_GATEWAY_URL: "https://sms.example.com", SMS_GATEWAY_TOKEN: "tok" } }),
    ).lines.join("\n");
    expect(text).toMatch(/SMS: SMS_GATEWAY_URL \(secret\), SMS_GATEWAY_TOKEN \(secret\)/);
    expect(text).not.toContain("sms.example.com");
  });
});

describe("the payout and refund rails", () => {
  it("lists each rail's settings by name, never a value, and accepts a complete set", () => {
    const plan = planDeploy(
      input({
        secrets: {
          SESSION_SECRET: SECRET,
          PAYOUT_RAIL: "paystack",
          PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
          ...{ REFUND_RAIL: "switch", SWITCH_RAIL_URL: RAILS.SWITCH_RAIL_URL, SWITCH_RAIL_SECRET: SWITCH_KEY },
          ...EMAIL,
        },
      }),
    );
    expect(plan.problems).toEqual([]);
    const text = plan.lines.join("\n");
    expect(text).toContain("PAYSTACK: PAYSTACK_SECRET_KEY (secret); unset: PAYSTACK_BASE_URL");
    expect(text).toContain("SWITCH: SWITCH_RAIL_URL (secret), SWITCH_RAIL_SECRET (secret)");
    expect(text).toContain("PAYOUT_RAIL (secret)");
    expect(text).toContain("the rails' own check (railsConfigOf) accepts them");
    for (const value of [PAYSTACK_KEY, SWITCH_KEY, "switch.example.com", "paystack\n"]) expect(text).not.toContain(value);
  });

  it("refuses production without a rail's settings, or with one malformed (used or not), naming the variable", () => {
    const problems = (secrets: Record<string, string>) => planDeploy(input({ secrets: { SESSION_SECRET: SECRET, ...secrets } })).problems;
    expect(problems({ ...RAILS, PAYOUT_RAIL: "paystack" })).toEqual([
      "Settings: PAYSTACK_SECRET_KEY is not set: Paystack payouts need the account's secret key",
    ]);
    expect(problems({ ...RAILS, PAYOUT_RAIL: "paystack", PAYSTACK_SECRET_KEY: "sk_test_stillatestkey0123456789" })).toEqual([
      "Settings: PAYSTACK_SECRET_KEY is a test key (sk_test_…) in production",
    ]);
    expect(problems({ ...RAILS, PAYSTACK_SECRET_KEY: "not-a-key" })).toEqual([
      "Settings: PAYSTACK_SECRET_KEY must be a Paystack secret key (sk_test_… or sk_live_…)",
    ]);
    expect(problems({ ...RAILS, REFUND_RAIL: "paystack" })).toEqual([
      "Settings: REFUND_RAIL must be simulator or switch (Paystack Transfers only pays out: refunds go through the switch)",
    ]);
    expect(problems({ ...RAILS, SWITCH_RAIL_SECRET: "whsec_short" })).toContain(
      "Settings: SWITCH_RAIL_SECRET must be whsec_ followed by base64 of 24 bytes or more",
    );
    expect(problems({ ...RAILS, PAYOUT_RAIL: "simulator" })).toEqual([
      "Settings: PAYOUT_RAIL is simulator, which production refuses: set it to switch or paystack",
    ]);
    for (const problem of problems({ ...RAILS, PAYSTACK_SECRET_KEY: "not-a-key" })) expect(problem).not.toContain("not-a-key");
  });
});

it("settingGroups groups by the first word", () => {
  expect(settingGroups(["SMS_A", "SMS_B", "ENVIRONMENT"])).toEqual(
    new Map([
      ["SMS", ["SMS_A", "SMS_B"]],
      ["ENVIRONMENT", ["ENVIRONMENT"]],
    ]),
  );
});

describe("email in the plan", () => {
  const problems = (secrets: Record<string, string>, config: Partial<PlanInput["config"]> = {}) =>
    planDeploy(
      input({ secrets: { SESSION_SECRET: SECRET, ...secrets } }, { vars: { ENVIRONMENT: "production", ARCHIVE_RETENTION_MONTHS: "13" }, ...config }),
    ).problems.filter((problem) => /EMAIL|PORTAL_URL|RESEND|POSTMARK/.test(problem));
  it("accepts a provider with its settings, and names the one missing or malformed, never its value", () => {
    expect(problems(RAILS)).toEqual([]);
    const { EMAIL_PROVIDER: _provider, ...unset } = RAILS;
    expect(problems(unset)).toEqual(["Settings: EMAIL_PROVIDER is not set: set it to cloudflare, resend or postmark (production never uses the outbox)"]);
    expect(problems({ ...RAILS, EMAIL_PROVIDER: "outbox" })).toEqual([
      "Settings: EMAIL_PROVIDER is outbox, which production refuses: set it to cloudflare, resend or postmark",
    ]);
    expect(problems({ ...RAILS, EMAIL_PROVIDER: "resend" })).toEqual(["Settings: RESEND_API_KEY is not set: Resend needs an API key"]);
    expect(problems({ ...RAILS, PORTAL_URL: "http://portal.example.com" })).toEqual(["Settings: PORTAL_URL must be an https URL in production"]);
    const bad = problems({ ...RAILS, EMAIL_FROM: "not an address sécret" });
    expect(bad).toEqual(['Settings: EMAIL_FROM must be an address, or a name and an address ("Partners Portal <notices@example.com>")']);
    expect(bad.join()).not.toContain("sécret");
  });
  it("takes the Cloudflare Email binding only when wrangler.toml declares it", () => {
    const cloudflare = { ...RAILS, EMAIL_PROVIDER: "cloudflare" };
    expect(problems(cloudflare)).toEqual([
      'Settings: EMAIL_PROVIDER is cloudflare but the Worker has no EMAIL binding: add [[send_email]] name = "EMAIL" to wrangler.toml',
    ]);
    expect(problems(cloudflare, { send_email: [{ name: "EMAIL" }] })).toEqual([]);
  });
});
