// `npm run platform:admin` (functions/operators/bootstrap.ts, scripts/platform-admin.ts) against a running portal's
// real local D1: a new person, an existing business employee, a disabled or Support staff member, a person with all
// their numbers; the command itself on the portal's state folder; and the same statements through `wrangler d1
// execute`, the way --remote sends them.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { maskPhone } from "#app/lib/forms/phone";
import { startLogin } from "#server/auth/sign-in";
import { configOf } from "#server/env";
import { bootstrapPlatformAdmin, type AdminInput } from "#server/operators/bootstrap";
import { platformStaffMember } from "#server/operators/staff.db";
import type { RequestMeta } from "#server/tenancy/tenant";
import { wranglerD1 } from "../../scripts/lib/wrangler-d1";
import { ROOT } from "../support/portal";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const META: RequestMeta = { ip: null, userAgent: "npm run platform:admin", requestId: null };
const NOW = Date.UTC(2026, 10, 30, 9, 0, 0);
let serial = 0;

function input(overrides: Partial<Omit<AdminInput, "phone">> & { msisdn?: string } = {}): AdminInput {
  serial += 1;
  const msisdn = overrides.msisdn ?? `2332441${String(serial).padStart(5, "0")}`;
  return {
    email: overrides.email ?? `platform.admin.${serial}@example.com`,
    name: overrides.name ?? `Platform Admin ${serial}`,
    phone: { msisdn, masked: maskPhone(msisdn) },
  };
}

const run = (admin: AdminInput, at = NOW) => bootstrapPlatformAdmin(portal().core(), admin, { now: at, meta: META });

/** Everything the command may write about a person, for "nothing changed". */
async function rowsOf(email: string) {
  const core = portal().core();
  const user = await core.prepare("SELECT * FROM users WHERE email = ?").bind(email).first<{ id: string } & Record<string, unknown>>();
  const id = user?.id ?? "";
  const [phones, staff, audit, memberships] = await core.batch([
    core.prepare("SELECT msisdn, linked_by FROM user_phones WHERE user_id = ? ORDER BY msisdn").bind(id),
    core.prepare("SELECT * FROM platform_staff WHERE user_id = ?").bind(id),
    core.prepare("SELECT * FROM audit_log WHERE entity = 'platform_staff' AND entity_id = ? ORDER BY id").bind(id),
    core.prepare("SELECT * FROM memberships WHERE user_id = ? ORDER BY business_id").bind(id),
  ]);
  return {
    user,
    phones: phones!.results as { msisdn: string; linked_by: string }[],
    staff: staff!.results[0] ?? null,
    audit: audit!.results as Record<string, unknown>[],
    memberships: memberships!.results,
  };
}

async function auditCount(): Promise<number> {
  return (await portal().core().prepare("SELECT COUNT(*) AS n FROM audit_log").first<number>("n")) ?? -1;
}

/** The command as `npm run platform:admin` runs it, on the portal's own state folder. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/platform-admin.ts", ...args, "--persist-to", portal().stateDir], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("bootstrapping a Platform Administrator", () => {
  it("makes a new person an active administrator who can sign in, audited as the system with the phone masked", async () => {
    const admin = input({ name: "Akosua Mensah" });
    const outcome = await run(admin);
    expect(outcome).toMatchObject({ kind: "created", name: "Akosua Mensah", linksPhone: true });
    const rows = await rowsOf(admin.email);
    expect(rows.user).toMatchObject({ email: admin.email, name: "Akosua Mensah", gender: "unspecified", status: "active" });
    expect(rows.user?.id).toMatch(/^usr_/);
    expect(rows.phones).toEqual([{ msisdn: admin.phone.msisdn, linked_by: "invitation" }]);
    expect(rows.staff).toMatchObject({ role: "Platform Administrator", status: "active", created_at: new Date(NOW).toISOString() });
    expect(rows.audit).toHaveLength(1);
    const [entry] = rows.audit;
    expect(entry).toMatchObject({
      business_id: null,
      actor_id: null,
      action: "platform.staff.bootstrapped",
      entity: "platform_staff",
      entity_id: rows.user?.id,
      before_json: null,
      user_agent: "npm run platform:admin",
      created_at: new Date(NOW).toISOString(),
      hash: null,
      prev_hash: null,
    });
    expect(JSON.parse(String(entry!.after_json))).toEqual({
      role: "Platform Administrator",
      status: "active",
      email: admin.email,
      phone: admin.phone.masked,
      phoneAdded: true,
    });
    expect(String(entry!.after_json)).not.toContain(admin.phone.msisdn);

    // What /platform's guard reads, and sign-in's first step: the email finds the account, the code goes to the phone.
    expect(await platformStaffMember(portal().core(), String(rows.user?.id))).toEqual({
      userId: rows.user?.id,
      name: "Akosua Mensah",
      email: admin.email,
      role: "Platform Administrator",
    });
    const deps = {
      db: portal().core(),
      businessDb: (businessId: string, shard: string) => ({ businessId, db: portal().database(shard) }),
      config: configOf({ ENVIRONMENT: "development" }).auth,
      meta: META,
      now: () => Date.now(),
    };
    const login = await startLogin(new Request("https://portal.example.com/login"), deps, { email: admin.email.toUpperCase(), channel: "userUniqueEmail" });
    expect(login.ok && login.session.linkedNumbers).toEqual([admin.phone.msisdn]);
  });

  it("changes nothing when run again with the same input, and says so", async () => {
    const admin = input();
    await run(admin);
    const before = await rowsOf(admin.email);
    const count = await auditCount();
    expect(await run(admin, NOW + 60_000)).toEqual({ kind: "unchanged", userId: before.user?.id, name: admin.name });
    expect(await rowsOf(admin.email)).toEqual(before);
    expect(await auditCount()).toBe(count);
  });

  it("makes a business's employee platform staff too, keeping their name, numbers and memberships, and adding the phone", async () => {
    const core = portal().core();
    const employee = await core
      .prepare(
        "SELECT u.id, u.email, u.name FROM users u WHERE EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id AND m.status = 'active') ORDER BY u.email LIMIT 1",
      )
      .first<{ id: string; email: string; name: string }>();
    expect(employee).not.toBeNull();
    const before = await rowsOf(employee!.email);
    expect(before.memberships.length).toBeGreaterThan(0);
    const shardMemberships = await Promise.all(
      portal()
        .shards()
        .map((db) => db.prepare("SELECT * FROM memberships WHERE user_id = ? ORDER BY business_id").bind(employee!.id).all()),
    );

    const admin = input({ email: employee!.email, name: "Someone Else" });
    expect(await run(admin)).toEqual({ kind: "promoted", userId: employee!.id, name: employee!.name, linksPhone: true });
    const after = await rowsOf(employee!.email);
    expect(after.user).toEqual(before.user);
    expect(after.memberships).toEqual(before.memberships);
    expect(after.phones).toEqual([...before.phones, { msisdn: admin.phone.msisdn, linked_by: "invitation" }].sort((a, b) => a.msisdn.localeCompare(b.msisdn)));
    expect(after.staff).toMatchObject({ role: "Platform Administrator", status: "active" });
    expect(JSON.parse(String(after.audit[0]!.before_json))).toEqual({ role: null, status: null, personStatus: "active" });
    const shardsAfter = await Promise.all(
      portal()
        .shards()
        .map((db) => db.prepare("SELECT * FROM memberships WHERE user_id = ? ORDER BY business_id").bind(employee!.id).all()),
    );
    expect(shardsAfter.map((r) => r.results)).toEqual(shardMemberships.map((r) => r.results));

    // One of the numbers they already had: nothing to add.
    const known = input({ email: employee!.email, msisdn: before.phones[0]!.msisdn });
    expect(await run(known)).toMatchObject({ kind: "unchanged" });
  });

  it("re-enables a disabled staff member or a disabled account, and raises Platform Support to Administrator", async () => {
    const core = portal().core();
    const disabled = input();
    await run(disabled);
    const { user } = await rowsOf(disabled.email);
    await core.batch([
      core.prepare("UPDATE platform_staff SET status = 'disabled' WHERE user_id = ?").bind(user!.id),
      core.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(user!.id),
    ]);
    expect(await run(disabled, NOW + 1_000)).toMatchObject({ kind: "reenabled", linksPhone: false });
    const rows = await rowsOf(disabled.email);
    expect(rows.user).toMatchObject({ status: "active" });
    expect(rows.staff).toMatchObject({ role: "Platform Administrator", status: "active", updated_at: new Date(NOW + 1_000).toISOString() });
    expect(rows.audit.map((entry) => entry.action)).toEqual(["platform.staff.bootstrapped", "platform.staff.reenabled"]);
    expect(JSON.parse(String(rows.audit[1]!.before_json))).toEqual({ role: "Platform Administrator", status: "disabled", personStatus: "disabled" });

    const support = input();
    await run(support);
    const supportId = (await rowsOf(support.email)).user!.id;
    await core.prepare("UPDATE platform_staff SET role = 'Platform Support' WHERE user_id = ?").bind(supportId).run();
    expect(await run(support)).toMatchObject({ kind: "promoted" });
    expect((await rowsOf(support.email)).staff).toMatchObject({ role: "Platform Administrator", status: "active" });
  });

  it("writes all or nothing: a statement that fails after the new person's row leaves no row", async () => {
    const count = await auditCount();
    // Past the phone rule on purpose: D1's CHECK on user_phones refuses it, after the users INSERT ran.
    const broken = input({ msisdn: "23324412" });
    await expect(run(broken)).rejects.toThrow(/CHECK constraint failed/);
    expect(await rowsOf(broken.email)).toMatchObject({ user: null, phones: [], staff: null, audit: [] });
    expect(await auditCount()).toBe(count);
  });

  it("refuses a sixth number for a person, writing nothing", async () => {
    const first = input();
    await run(first);
    const id = (await rowsOf(first.email)).user!.id;
    const core = portal().core();
    await core.batch(
      ["233244900001", "233244900002", "233244900003", "233244900004"].map((msisdn) =>
        core.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(id, msisdn, new Date(NOW).toISOString()),
      ),
    );
    const before = await rowsOf(first.email);
    const outcome = await run(input({ email: first.email }));
    expect(outcome).toMatchObject({ kind: "refused", message: expect.stringContaining("already has 5 phone numbers") });
    expect(await rowsOf(first.email)).toEqual(before);
  });
});

describe("npm run platform:admin", () => {
  it("refuses bad input with exit code 2 before writing anything, and writes the state the running portal serves", async () => {
    const count = await auditCount();
    const bad = await cli(["--email", "kwame.platform@example.com", "--phone", "064 412 3456", "--name", "Kwame Asare"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("--phone: Enter a Ghana phone number");
    expect(await portal().core().prepare("SELECT id FROM users WHERE email = 'kwame.platform@example.com'").first()).toBeNull();
    expect(await auditCount()).toBe(count);

    const good = await cli(["--email", "Kwame.Platform@Example.com", "--phone", "024 412 9876", "--name", "Kwame Asare"]);
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
    expect(good.stdout).toContain("Made a new account for Kwame Asare <kwame.platform@example.com> as a Platform Administrator in the local core database.");
    expect(good.stdout).toContain("233*****9876");
    expect(good.stdout).not.toContain("233244129876");
    const rows = await rowsOf("kwame.platform@example.com");
    expect(rows.staff).toMatchObject({ role: "Platform Administrator", status: "active" });
    expect(rows.phones).toEqual([{ msisdn: "233244129876", linked_by: "invitation" }]);

    const again = await cli(["--email", "kwame.platform@example.com", "--phone", "+233244129876", "--name", "Kwame Asare"]);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(again.stdout).toContain("is already a Platform Administrator");
    expect(await rowsOf("kwame.platform@example.com")).toEqual(rows);
  }, 60_000);

  it("runs the same statements through wrangler d1 execute, as --remote does, all in one batch", async () => {
    const db = wranglerD1("DB", { remote: false, persistTo: portal().stateDir });
    const admin = input({ name: "Ama O'Neill" });
    expect(await bootstrapPlatformAdmin(db, admin, { now: NOW, meta: META })).toMatchObject({ kind: "created", name: "Ama O'Neill" });
    const rows = await rowsOf(admin.email);
    expect(rows.user).toMatchObject({ name: "Ama O'Neill", status: "active" });
    expect(rows.phones).toEqual([{ msisdn: admin.phone.msisdn, linked_by: "invitation" }]);
    expect(rows.staff).toMatchObject({ role: "Platform Administrator", status: "active" });
    expect(rows.audit.map((entry) => entry.action)).toEqual(["platform.staff.bootstrapped"]);
    expect(await bootstrapPlatformAdmin(db, admin, { now: NOW, meta: META })).toMatchObject({ kind: "unchanged" });

    // A batch that fails part-way (a number D1's CHECK refuses, after the new person's row) leaves nothing behind.
    const count = await auditCount();
    const broken = input({ msisdn: "23324412" });
    await expect(bootstrapPlatformAdmin(db, broken, { now: NOW, meta: META })).rejects.toThrow(/CHECK constraint failed/);
    expect(await portal().core().prepare("SELECT id FROM users WHERE email = ?").bind(broken.email).first()).toBeNull();
    expect(await auditCount()).toBe(count);
  }, 90_000);
});
