// The Developers tab of /settings through the built Worker: an administrator
// makes, rolls and revokes Partner API keys; a key's secret is in the one answer
// that made it and nowhere else (not D1, not the audit log, not a later page);
// other roles see no tab and are refused (403, nothing written); another
// business's key is a 404.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEY_PATTERN } from "#server/partner-api/keys";
import { tablesHolding } from "../support/d1-dump";
import { loaderDataOf, textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const AMA = "ama.mensah@example.com"; // Administrator in Accra Mobile Pay
const ESI = "esi.owusu@example.com"; // Operations, Kumasi
const ABENA = "abena.darko@example.com"; // Finance, Kumasi
const YAW = "yaw.asante@example.com"; // Viewer, Accra Mobile Pay
const TAB = "/settings?tab=developers";
const ANY_KEY = /pp_(?:live|test)_[0-9A-Za-z]{32}/g;

async function post(form: Record<string, string>, email = KOFI, businessId = KUMASI) {
  const cookie = await signedInCookie(portal(), email, businessId);
  // Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts).
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(TAB, {
      method: "POST",
      headers: {
        Origin: portal().url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
        ...cookie,
      },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

async function get(path: string, email = KOFI, businessId = KUMASI) {
  return portal().fetch(path, { headers: await signedInCookie(portal(), email, businessId) });
}

/** The one key an answer shows (the page without JavaScript renders the action's data). */
async function shownKey(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toContain("no-store");
  const keys = [...new Set((await response.text()).match(ANY_KEY) ?? [])];
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatch(KEY_PATTERN);
  return keys[0]!;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface KeyRow {
  id: string;
  business_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  expires_at: number | null;
  rolled_to: string | null;
  revoked_at: number | null;
}

async function keyByHash(secret: string) {
  const db = await portal().db();
  return db.prepare("SELECT * FROM api_keys WHERE secret_hash = ?").bind(sha256(secret)).first<KeyRow>();
}

async function written(): Promise<string> {
  const db = await portal().db();
  return JSON.stringify(
    await db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM audit_log) AS audit, (SELECT group_concat(id || coalesce(expires_at, '') || coalesce(revoked_at, '')) FROM api_keys) AS keys`,
      )
      .first(),
  );
}

async function auditActions(entityId: string): Promise<string[]> {
  const db = await portal().db();
  const { results } = await db
    .prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = 'api_key' AND entity_id = ? ORDER BY id")
    .bind(KUMASI, entityId)
    .all<{ action: string }>();
  return results.map((row) => row.action);
}

describe("the Developers tab", () => {
  it("an administrator creates, rolls and revokes a key; each secret is shown once and stored only as its SHA-256", async () => {
    const page = await get(TAB);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/settings?tab=developers"');
    expect(html).toContain('href="/developers/api"');
    expect(textOf(html)).toContain("No conflicts: every re-sent reference matched what the portal holds.");

    // A name with Akan letters, Arabic script and an emoji goes through as typed.
    const name = "Ɔdɔ Switch مفتاح 🔑";
    const created = await shownKey(await post({ intent: "create-key", name: `  ${name} ` }));
    // A live business makes pp_live_ keys on every deployment; its test mode makes pp_test_ ones (decision 045).
    expect(created.startsWith("pp_live_")).toBe(true);
    const row = await keyByHash(created);
    expect(row).toMatchObject({ business_id: KUMASI, name, prefix: created.slice(0, 12), expires_at: null, revoked_at: null });

    // The list shows the prefix, never the key; a reload shows no key at all.
    const reload = await (await get(TAB)).text();
    expect(reload.match(ANY_KEY)).toBeNull();
    expect(textOf(reload)).toContain(`${created.slice(0, 12)}…`);
    expect(textOf(reload)).toContain("Never");

    const rolled = await shownKey(await post({ intent: "roll-key", keyId: row!.id }));
    expect(rolled).not.toBe(created);
    const successor = await keyByHash(rolled);
    expect(successor).toMatchObject({ business_id: KUMASI, name, expires_at: null, revoked_at: null });
    const old = await keyByHash(created);
    expect(old!.rolled_to).toBe(successor!.id);
    // The old key works for 24 hours more.
    expect(old!.expires_at! - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(old!.expires_at! - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    expect(textOf(await (await get(TAB)).text())).toMatch(/Expires \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M/);

    // A rolled key cannot be rolled again.
    const twice = await post({ intent: "roll-key", keyId: row!.id });
    expect(twice.status).toBe(400);
    expect(textOf(await twice.text())).toContain("already rolled");

    const revoke = await post({ intent: "revoke-key", keyId: successor!.id });
    expect(revoke.status).toBe(302);
    expect(revoke.headers.get("Location")).toBe(TAB);
    expect((await keyByHash(rolled))!.revoked_at).not.toBeNull();
    expect(textOf(await (await get(TAB)).text())).toContain("Revoked");

    expect(await auditActions(row!.id)).toEqual(["api_key.create", "api_key.roll"]);
    expect(await auditActions(successor!.id)).toEqual(["api_key.revoke"]);

    // Neither key is anywhere in D1: not in api_keys, not in the audit log, not in any other table.
    const db = await portal().db();
    // Its SHA-256 twice: on the business's database, and in the core directory that finds the business (decision 021).
    expect(await tablesHolding(db, sha256(created))).toEqual(["api_key_directory", "api_keys"]);
    for (const secret of [created, rolled]) {
      expect(await tablesHolding(db, secret)).toEqual([]);
      // Nor its random part alone, in case something stored it without its prefix.
      expect(await tablesHolding(db, secret.slice(8))).toEqual([]);
    }
    // Several fresh checks and a scan of every table: a limit, not a timing claim (it took ~26 s on a loaded machine).
  }, 90_000);

  it("a new key sent as a form that may be re-sent (with a submission id) is still written down nowhere", async () => {
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    const submission = crypto.randomUUID();
    // The first send is asked for a check (428, not kept), and the same submission sent again after it runs.
    const response = await sendChecked(portal().core(), cookie, () =>
      portal().fetch("/settings.data?tab=developers", {
        method: "POST",
        headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
        body: new URLSearchParams({ intent: "create-key", name: "Replay test", submission }).toString(),
      }),
    );
    expect(response.status).toBe(200);
    const [secret] = (await response.text()).match(ANY_KEY) ?? [];
    expect(secret).toMatch(KEY_PATTERN);
    expect(await tablesHolding(await portal().db(), secret!)).toEqual([]);
  });

  it("refuses a key name that is empty or over 60 characters, and writes nothing", async () => {
    const before = await written();
    for (const name of ["", "   ", "x".repeat(61)]) {
      const response = await post({ intent: "create-key", name });
      expect(response.status).toBe(400);
      expect(textOf(await response.text())).toMatch(/Name the key|60 characters or fewer/);
    }
    expect(await written()).toBe(before);
    expect(await shownKey(await post({ intent: "create-key", name: "y".repeat(60) }))).toMatch(KEY_PATTERN);
  });

  it.each([
    ["Viewer", YAW, ACCRA],
    ["Operations", ESI, KUMASI],
    ["Finance", ABENA, KUMASI],
  ])("the %s role sees no Developers tab, and the tab and every post to it are 403 with nothing written", async (_role, email, businessId) => {
    const settings = await get("/settings", email, businessId);
    expect(settings.status).toBe(200);
    const html = await settings.text();
    expect(html).not.toContain("tab=developers");
    expect(html).toContain('href="/settings?tab=security"');
    expect(loaderDataOf(html)["routes/settings"]).toMatchObject({ canSeeDevelopers: false });

    const tab = await get(TAB, email, businessId);
    expect(tab.status).toBe(403);
    expect(textOf(await tab.text())).toContain("You don't have access to this page");

    const db = await portal().db();
    const someKey = await db.prepare("SELECT id FROM api_keys WHERE business_id = ? LIMIT 1").bind(KUMASI).first<string>("id");
    const before = await written();
    const forms: Record<string, string>[] = [
      { intent: "create-key", name: "Sneaky" },
      { intent: "roll-key", keyId: someKey ?? "key_0000000000000000" },
      { intent: "revoke-key", keyId: someKey ?? "key_0000000000000000" },
      { intent: "sign-out-everywhere" },
      { intent: "nothing" },
    ];
    for (const form of forms) {
      const response = await post(form, email, businessId);
      expect(response.status).toBe(403);
      expect((await response.text()).match(ANY_KEY)).toBeNull();
    }
    expect(await written()).toBe(before);
  });

  it("another business's key is a 404 to roll and to revoke, and stays as it was", async () => {
    const theirs = await shownKey(await post({ intent: "create-key", name: "Accra switch" }, AMA, ACCRA));
    const row = await keyByHash(theirs);
    expect(row!.business_id).toBe(ACCRA);
    const before = await written();
    for (const intent of ["roll-key", "revoke-key"]) {
      const response = await post({ intent, keyId: row!.id });
      expect(response.status).toBe(404);
      expect(textOf(await response.text())).toContain("Page Not Found: /settings?tab=developers");
    }
    expect(await written()).toBe(before);
    // Nor is it listed in Kumasi.
    expect(await (await get(TAB)).text()).not.toContain(row!.prefix);
  });

  it("pages the payment conflicts newest first with the SPEC pager, references in any script intact", async () => {
    const db = await portal().db();
    const base = Date.now() - 3600_000;
    await db.batch(
      Array.from({ length: 27 }, (_, i) =>
        db
          .prepare(
            `INSERT INTO payment_conflicts (business_id, reference, kind, problem, received, fingerprint, received_at)
             VALUES (?, ?, ?, 'The amount differs from the payment held.', ?, ?, ?)`,
          )
          .bind(
            ACCRA,
            `Ɔ-مرجع-🔁-${String(i).padStart(2, "0")}`,
            i % 2 ? "reversal" : "payment",
            JSON.stringify({ amount: 1000 + i }),
            `fp-${i}`,
            base + i * 1000,
          ),
      ),
    );
    const first = await (await get(TAB, AMA, ACCRA)).text();
    const text = textOf(first);
    expect(text).toContain("Showing 1–25 of 27 conflicts");
    expect(text).toContain("Ɔ-مرجع-🔁-26");
    expect(text).toContain("Ɔ-مرجع-🔁-02");
    expect(text).not.toContain("Ɔ-مرجع-🔁-01");
    expect(text.indexOf("Ɔ-مرجع-🔁-26")).toBeLessThan(text.indexOf("Ɔ-مرجع-🔁-25"));
    expect(first).toContain("&quot;amount&quot;: 1026");
    const link = /<a\b[^>]*rel="next"[^>]*>|<a\b[^>]*href="[^"]*"[^>]*rel="next"[^>]*>/.exec(first)?.[0];
    const next = /href="([^"]+)"/.exec(link ?? "")?.[1]?.replace(/&amp;/g, "&");
    expect(next, "a Next link that keeps the tab").toMatch(/^\/settings\?tab=developers&page=2&trail=[\w-]+$/);
    const second = textOf(await (await get(next!, AMA, ACCRA)).text());
    expect(second).toContain("Showing 26–27 of 27 conflicts");
    expect(second).toContain("Ɔ-مرجع-🔁-01");
    expect(second).toContain("Ɔ-مرجع-🔁-00");
    expect(second).not.toContain("Ɔ-مرجع-🔁-02");
    // Another business sees none of them.
    expect(textOf(await (await get(TAB)).text())).not.toContain("Ɔ-مرجع-🔁");
  });
});
