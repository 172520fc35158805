// /platform/keys through the built Worker (decision 039): a Platform Administrator makes a platform key with scopes, rolls
// and revokes it under the platform's fresh check; the secret is in the one answer that made it, and the key then
// works at the Partner API for the business PP-Business names. Platform Support may not manage keys; a business's
// administrator does not find the page. Each change is on the platform's audit chain.
import { beforeAll, describe, expect, it } from "vitest";
import { PLATFORM_KEY_PATTERN } from "#server/partner-api/keys";
import { tablesHolding } from "../support/d1-dump";
import { textOf } from "../support/html";
import { ADJOA, EFUA, makeStaff } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { sendChecked } from "../support/fresh-check";
import { api, partiesOf, momoPayment } from "../support/partner-api";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const PAGE = "/platform/keys";
const ANY_PLATFORM_KEY = /pp_platform_(?:live|test)_[0-9A-Za-z]{32}/g;
let efua: string;

beforeAll(async () => {
  efua = await makeStaff(portal().core(), EFUA);
  await makeStaff(portal().core(), ADJOA);
});

async function post(form: Record<string, string>, email = EFUA.email) {
  const cookie = await signedInCookie(portal(), email, null);
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(PAGE, {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

async function shownKey(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toContain("no-store");
  const keys = [...new Set((await response.text()).match(ANY_PLATFORM_KEY) ?? [])];
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatch(PLATFORM_KEY_PATTERN);
  return keys[0]!;
}

const keyRow = (id: string) =>
  portal()
    .core()
    .prepare("SELECT id, name, prefix, scopes, expires_at, rolled_to, revoked_at FROM platform_keys WHERE id = ?")
    .bind(id)
    .first<{ id: string; name: string; prefix: string; scopes: string; expires_at: number | null; rolled_to: string | null; revoked_at: number | null }>();

const newestKeyId = async () => (await portal().core().prepare("SELECT id FROM platform_keys ORDER BY created_at DESC, id DESC LIMIT 1").first<string>("id"))!;

describe("/platform/keys", () => {
  it("a Platform Administrator makes a key with scopes, shown once; it sends a payment for the business it names", async () => {
    const secret = await shownKey(await post({ intent: "create-key", name: "Switch production", "scope.payments": "on", "scope.heartbeats": "on" }));
    const id = await newestKeyId();
    expect(await keyRow(id)).toMatchObject({ name: "Switch production", prefix: secret.slice(0, 21), scopes: '["payments","heartbeats"]' });
    // Only its hash is kept: no table holds the secret.
    expect(await tablesHolding(portal().core(), secret)).toEqual([]);
    const list = await portal().fetch(PAGE, { headers: await signedInCookie(portal(), EFUA.email, null) });
    const html = await list.text();
    expect(html).not.toContain(secret);
    expect(textOf(html)).toContain(`${secret.slice(0, 21)}…`);
    const kumasi = await partiesOf(portal(), KUMASI);
    expect((await api(portal(), secret, "/api/v1/payments", momoPayment(kumasi[0]!), { "PP-Business": KUMASI })).status).toBe(202);
    expect(
      (await api(portal(), secret, "/api/v1/payments/X/reversal", { reason: "r", reversed_at: new Date().toISOString() }, { "PP-Business": KUMASI })).status,
    ).toBe(403);
  });

  it("refuses a key without a scope or a name, keeping what was typed, and writes nothing", async () => {
    const before = await portal().core().prepare("SELECT count(*) AS n FROM platform_keys").first<number>("n");
    const noScope = await post({ intent: "create-key", name: "No scope" });
    expect(noScope.status).toBe(400);
    expect(textOf(await noScope.text())).toContain("Choose at least one scope.");
    const noName = await post({ intent: "create-key", name: " ", "scope.payments": "on" });
    expect(noName.status).toBe(400);
    expect(textOf(await noName.text())).toMatch(/Name the key/);
    expect(await portal().core().prepare("SELECT count(*) AS n FROM platform_keys").first<number>("n")).toBe(before);
  });

  it("rolls a key (the old one works for the grace, with the same scopes) and revokes one; each is on the platform's audit chain", async () => {
    const first = await shownKey(await post({ intent: "create-key", name: "Switch roll", "scope.disputes": "on" }));
    const id = await newestKeyId();
    const confirm = await portal().fetch(`${PAGE}?confirm=roll&key=${id}`, { headers: await signedInCookie(portal(), EFUA.email, null) });
    expect(textOf(await confirm.text())).toContain("Yes, roll the key");
    const rolled = await shownKey(await post({ intent: "roll-key", keyId: id }));
    expect(rolled).not.toBe(first);
    const old = (await keyRow(id))!;
    expect(old.expires_at).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const successor = (await keyRow(old.rolled_to!))!;
    expect(successor.scopes).toBe('["disputes"]');
    const revoked = await post({ intent: "revoke-key", keyId: successor.id });
    expect(revoked.status).toBe(302);
    expect((await keyRow(successor.id))!.revoked_at).not.toBeNull();
    expect((await api(portal(), rolled, "/api/v1/payments/X", undefined, { "PP-Business": KUMASI })).status).toBe(401);
    const { results } = await portal()
      .core()
      .prepare("SELECT business_id AS b, actor_id AS actor, action FROM audit_log WHERE entity = 'platform_key' AND entity_id IN (?, ?) ORDER BY id")
      .bind(id, successor.id)
      .all<{ b: string | null; actor: string; action: string }>();
    expect(results).toEqual([
      { b: null, actor: efua, action: "platform_key.create" },
      { b: null, actor: efua, action: "platform_key.roll" },
      { b: null, actor: efua, action: "platform_key.revoke" },
    ]);
    expect(await tablesHolding(portal().core(), rolled)).toEqual([]);
  });

  it("Platform Support may look at nothing here: 403 for the page and every post, nothing written", async () => {
    const before = await portal().core().prepare("SELECT count(*) AS n FROM platform_keys").first<number>("n");
    expect((await portal().fetch(PAGE, { headers: await signedInCookie(portal(), ADJOA.email, null) })).status).toBe(403);
    expect((await post({ intent: "create-key", name: "Support", "scope.payments": "on" }, ADJOA.email)).status).toBe(403);
    expect(await portal().core().prepare("SELECT count(*) AS n FROM platform_keys").first<number>("n")).toBe(before);
  });

  it("a business's administrator does not find the page (404)", async () => {
    expect((await portal().fetch(PAGE, { headers: await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI) })).status).toBe(404);
  });
});
