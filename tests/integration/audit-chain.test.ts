// The audit chain (decision 025) through the built Worker: entries written by real requests are
// sealed right after them (the business's chain in its database, the sign-in events' chain in the core one) and by
// the 5-minute cron; the table still refuses every change but sealing and every removal; and a link broken on
// purpose is named, exactly that entry, by the verifier `npm run audit:verify` runs; a move to another database keeps the chain.
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { verifyBusinessChains, verifyStoredChain } from "#server/audit/audit-chain";
import { businessPlace } from "#server/tenancy/directory.db";
import { moveBusiness } from "#server/tenancy/shard-move";
import { testBusinessOf } from "#server/tenancy/test-mode";
import { eventually } from "../support/partner-api";
import { ROOT } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { EFUA, makeStaff } from "../support/platform";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods

async function post(path: string, form: Record<string, string>, cookie: Record<string, string>) {
  return portal().fetch(path, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(form).toString(),
  });
}

/** `npm run audit:verify -- --business ID` (or `-- --platform`) on this portal's state folder. */
function verify(businessId: string): Promise<{ code: number | null; stdout: string }> {
  const which = businessId === "--platform" ? ["--platform"] : ["--business", businessId];
  return new Promise((done, fail) => {
    execFile(
      "npx",
      ["tsx", "scripts/audit-verify.ts", ...which, "--persist-to", portal().stateDir],
      { cwd: ROOT, timeout: 60_000 },
      // An exit code is an answer; anything else (not started, timed out) is a failure of the test.
      (error, stdout) =>
        error && typeof error.code !== "number" ? fail(new Error(error.message)) : done({ code: error ? (error.code as number) : 0, stdout }),
    );
  });
}

async function unsealed(db: D1Database, businessId: string | null): Promise<number> {
  return (await db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id IS ? AND hash IS NULL").bind(businessId).first<number>("n")) ?? -1;
}

async function chains() {
  const place = await businessPlace(portal().core(), KUMASI);
  if (!place) throw new Error("Kumasi is not in the directory");
  return { businessId: KUMASI, shard: place.shard, business: portal().database(place.shard), core: portal().core() };
}

describe("the audit chain", () => {
  it("seals what real requests write, and the verifier finds every chain whole", async () => {
    expect(await verify("bus_nobody")).toMatchObject({ code: 2 });
    const { business, core } = await chains();
    const before = (await business.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?").bind(KUMASI).first<number>("n")) ?? 0;
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    const invited = await post(
      "/settings?tab=team",
      { intent: "invite", name: "Ɔdɔmankoma Ɛsi 🌺", email: "odomankoma.chain@example.com", phone: "024 555 0191", gender: "female", role: "Operations" },
      cookie,
    );
    expect(invited.status).toBeLessThan(400);
    expect(await post("/logout", {}, cookie)).toHaveProperty("status", 302);
    // The business's new entry, and the sign-in event in the core database, are sealed without any cron.
    await eventually(async () => (await unsealed(business, KUMASI)) === 0 && (await unsealed(core, KUMASI)) === 0, 15_000, "the entries sealed");
    expect((await business.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?").bind(KUMASI).first<number>("n")) ?? 0).toBeGreaterThan(before);
    expect(await core.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND action LIKE '%logout%'").bind(KUMASI).first<number>("n")).toBe(1);

    const reports = await verifyBusinessChains(await chains());
    for (const { report } of reports) expect(report).toMatchObject({ ok: true, unsealed: 0 });
    expect(reports.reduce((sum, { report }) => sum + report.sealed, 0)).toBeGreaterThan(before);
  });

  it("the 5-minute cron seals entries no request sealed, in every database", async () => {
    const { business } = await chains();
    await business
      .prepare("INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, created_at) VALUES (?, NULL, 'test.cron', 'terminal', 'ter_x', ?)")
      .bind(KUMASI, new Date().toISOString())
      .run();
    await portal()
      .core()
      .prepare("INSERT INTO audit_log (business_id, actor_id, action, entity, created_at) VALUES (NULL, NULL, 'test.before_business', 'session', ?)")
      .bind(new Date().toISOString())
      .run();
    expect(await unsealed(business, KUMASI)).toBe(1);
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    expect(await unsealed(business, KUMASI)).toBe(0);
    expect(await unsealed(portal().core(), null)).toBe(0);
    expect(await verifyStoredChain(portal().core(), null)).toMatchObject({ ok: true, unsealed: 0 });
    for (const { report } of await verifyBusinessChains(await chains())) expect(report).toMatchObject({ ok: true, unsealed: 0 });
  });

  it("a business being moved is left unsealed until it has moved; every other chain is sealed", async () => {
    const core = portal().core();
    const insert = (businessId: string | null) =>
      core
        .prepare("INSERT INTO audit_log (business_id, action, entity, created_at) VALUES (?, 'test.fenced', 'session', ?)")
        .bind(businessId, new Date().toISOString())
        .run();
    await Promise.all([insert(KUMASI), insert(ACCRA), insert(null)]);
    await core.prepare("INSERT INTO shard_fences (business_id, state, since) VALUES (?, 'moving', ?)").bind(KUMASI, new Date().toISOString()).run();
    try {
      expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
      expect(await unsealed(core, KUMASI)).toBe(1);
      expect(await unsealed(core, ACCRA)).toBe(0);
      expect(await unsealed(core, null)).toBe(0);
    } finally {
      await core.prepare("DELETE FROM shard_fences WHERE business_id = ?").bind(KUMASI).run();
    }
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    expect(await unsealed(core, KUMASI)).toBe(0);
  });

  it("the table refuses any change but sealing, and any removal", async () => {
    const { business } = await chains();
    const entry = await business.prepare("SELECT id FROM audit_log WHERE business_id = ? ORDER BY id LIMIT 1").bind(KUMASI).first<number>("id");
    const refused = (sql: string) => business.prepare(sql).bind(entry).run();
    await expect(refused('UPDATE audit_log SET after_json = \'{"name":"Someone else"}\' WHERE id = ?')).rejects.toThrow(/append-only/);
    await expect(refused("UPDATE audit_log SET hash = 'ab' || substr(hash, 3) WHERE id = ?")).rejects.toThrow(/append-only/);
    await expect(refused("UPDATE audit_log SET hash = NULL, prev_hash = NULL WHERE id = ?")).rejects.toThrow(/append-only/);
    await expect(refused("DELETE FROM audit_log WHERE id = ?")).rejects.toThrow(/append-only/);
    // Sealing an unsealed entry may not change it on the way.
    const fresh = await business
      .prepare("INSERT INTO audit_log (business_id, action, entity, created_at) VALUES (?, 'test.sneak', 'merchant', ?) RETURNING id")
      .bind(KUMASI, new Date().toISOString())
      .first<number>("id");
    await expect(
      business.prepare("UPDATE audit_log SET prev_hash = ?, hash = ?, action = 'test.other' WHERE id = ?").bind("0".repeat(64), "1".repeat(64), fresh).run(),
    ).rejects.toThrow(/append-only/);
  });

  it("a move to another database renumbers the entries and keeps the chain", async () => {
    await portal().scheduled("*/5 * * * *");
    const from = await chains();
    const before = await from.business
      .prepare("SELECT id, hash FROM audit_log WHERE business_id = ? ORDER BY id")
      .bind(KUMASI)
      .all<{ id: number; hash: string }>();
    // Entries of its own on the target, so the business's are renumbered above them.
    const to = from.shard === "SHARD_A" ? "SHARD_B" : "SHARD_A";
    await portal()
      .database(to)
      .prepare("INSERT INTO audit_log (business_id, action, entity, created_at) VALUES (?, 'test.other_business', 'merchant', ?)")
      .bind(ACCRA, new Date().toISOString())
      .run();
    await moveBusiness({ core: portal().core(), database: (name) => portal().database(name) }, KUMASI, to);
    await portal().refreshPlaces();
    const moved = await chains();
    expect(moved.shard).toBe(to);
    const after = await moved.business
      .prepare("SELECT id, hash FROM audit_log WHERE business_id = ? ORDER BY id")
      .bind(KUMASI)
      .all<{ id: number; hash: string }>();
    expect(after.results.map((row) => row.hash)).toEqual(before.results.map((row) => row.hash));
    expect(after.results.map((row) => row.id)).not.toEqual(before.results.map((row) => row.id));
    for (const { report } of await verifyBusinessChains(moved)) expect(report).toMatchObject({ ok: true, unsealed: 0 });
  });

  it("names a business's test-mode chain (its id and ~test) and the platform's own chain, and finds a broken platform link", async () => {
    // Opening test mode writes the test business's first entries (decision 045); the cron seals them.
    const opened = await post("/select-business", { businessId: testBusinessOf(KUMASI) }, await signedInCookie(portal(), KOFI, KUMASI));
    expect(opened.status).toBe(302);
    // A platform operator reading a business's figures writes the platform's chain (decision 039).
    await makeStaff(portal().core(), EFUA);
    const read = await portal().fetch(`/platform/businesses/${ACCRA}`, { headers: await signedInCookie(portal(), EFUA.email, null) });
    expect(read.status).toBe(200);
    await portal().scheduled("*/5 * * * *");
    const core = portal().core();
    const testEntries = (await core.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ?").bind(testBusinessOf(KUMASI)).first<number>("n")) ?? 0;
    expect(testEntries).toBeGreaterThan(0);
    const test = await verify(testBusinessOf(KUMASI));
    expect(test.code).toBe(0);
    expect(test.stdout).toContain(`Audit chains of ${testBusinessOf(KUMASI)}:`);
    expect(test.stdout).toMatch(/^OK +DB: [1-9]\d* sealed, 0 not sealed yet$/m);

    const platform = await verify("--platform");
    expect(platform.code).toBe(0);
    expect(platform.stdout).toContain("Audit chain of the platform:");
    expect(platform.stdout).toMatch(/^OK +DB: [1-9]\d* sealed, 0 not sealed yet$/m);
    // Anything else than one chain named is refused with a message, never a walk of the wrong chain.
    expect(await verify("bus_kumasi~live")).toMatchObject({ code: 2 });

    const { results } = await core
      .prepare("SELECT id, created_at, action FROM audit_log WHERE business_id IS NULL AND hash IS NOT NULL ORDER BY id")
      .all<{ id: number; created_at: string; action: string }>();
    const victim = results.at(-1)!;
    const trigger = await core.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_log_no_update'").first<string>("sql");
    await core.prepare("DROP TRIGGER audit_log_no_update").run();
    try {
      await core.prepare("UPDATE audit_log SET ip = '198.51.100.67' WHERE id = ?").bind(victim.id).run();
    } finally {
      await core.prepare(trigger!).run();
    }
    const broken = await verify("--platform");
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`first broken link: entry ${victim.id}, ${victim.created_at}, ${victim.action}`);
    // A business's chains are not the platform's: Kumasi's are still whole.
    expect(await verify(KUMASI)).toMatchObject({ code: 0 });
  }, 150_000);

  it("a link broken on purpose is named, exactly that entry", async () => {
    const { business } = await chains();
    await portal().scheduled("*/5 * * * *");
    const { results } = await business
      .prepare("SELECT id, created_at, action FROM audit_log WHERE business_id = ? AND hash IS NOT NULL ORDER BY id")
      .bind(KUMASI)
      .all<{ id: number; created_at: string; action: string }>();
    expect(results.length).toBeGreaterThanOrEqual(3);
    const victim = results[1]!;
    // What someone with the database in hand would do: lift the guard, change an entry, put the guard back.
    const trigger = await business.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_log_no_update'").first<string>("sql");
    await business.prepare("DROP TRIGGER audit_log_no_update").run();
    await business.prepare("UPDATE audit_log SET ip = '198.51.100.66' WHERE id = ?").bind(victim.id).run();
    await business.prepare(trigger!).run();

    const [shard] = await verifyBusinessChains(await chains());
    expect(shard!.report.ok).toBe(false);
    if (shard!.report.ok) return;
    expect(shard!.report.broken).toMatchObject({ kind: "content", entry: { id: victim.id, createdAt: victim.created_at, action: victim.action } });
    expect(shard!.report.sealed).toBe(results.indexOf(victim));

    // `npm run audit:verify` says the same on the portal's own state, and fails.
    const run = await verify(KUMASI);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`first broken link: entry ${victim.id}, ${victim.created_at}, ${victim.action}`);
    expect(run.stdout).toMatch(/^OK +DB: \d+ sealed, 0 not sealed yet$/m);

    // Removing an entry (past the guard too) is named at the entry after it.
    const next = results[results.indexOf(victim) + 1]!;
    const victimAfter = results[results.indexOf(victim) - 1]!;
    await business.prepare("DROP TRIGGER audit_log_no_delete").run();
    await business.prepare("DELETE FROM audit_log WHERE id = ?").bind(victim.id).run();
    const [again] = await verifyBusinessChains(await chains());
    expect(again!.report.ok).toBe(false);
    if (!again!.report.ok) expect(again!.report.broken).toMatchObject({ kind: "link", entry: { id: next.id } });
    expect(victimAfter.id).toBeLessThan(next.id);
  });
});
