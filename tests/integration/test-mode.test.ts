// Test mode (decision 045), against the built Worker with the payments queue consumed and Paystack
// (a local fake) as the deployment's payout rail: a business's people open its test mode from the switcher; pp_test_
// keys write only there; live lists, balances, settlements and events never hold test data, and test data never
// reaches a live list, whatever mix of payments arrives (a generated sequence, checked as a whole); a test business's
// payouts go to the simulator, never to the real rail; the platform neither lists nor reaches test businesses.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPlatformBusinesses, searchPlatformBusinesses } from "#server/operators/businesses.db";
import { coreLifecycleStatements, shardLifecycleStatement } from "#server/operators/lifecycle.db";
import { makeApiKey } from "#server/partner-api/keys";
import { createApiKey } from "#server/partner-api/api-keys.db";
import { registerKeyHashStatement } from "#server/tenancy/directory.db";
import { TEST_MODE_PEOPLE } from "#server/approvals/change-kinds";
import { NOT_A_MEMBER } from "#server/auth/sign-in";
import { testBusinessOf } from "#server/tenancy/test-mode";
import { starterIds } from "#server/tenancy/test-mode.db";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { processRefunds } from "#server/refunds/send";
import { startFakePaystack, type FakePaystack } from "../support/fake-paystack";
import { answerOf, api, eventually, makeKey, makePlatformKeyFor, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

let fake: FakePaystack;
afterAll(() => fake?.close());
const portal = usePortal(async () => {
  fake = await startFakePaystack();
  return { vars: { ...fake.vars(), API_RATE_LIMIT_PER_MINUTE: "100000" }, queueConsumers: paymentsConsumers() };
});

const TEST = testBusinessOf(KUMASI);
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods

const formHeaders = (cookie: { Cookie: string }) => ({
  Origin: portal().url,
  "Sec-Fetch-Site": "same-origin",
  "Content-Type": "application/x-www-form-urlencoded",
  ...cookie,
});

/** The switcher's form: choose a business (or its test mode); the new session cookie, or the page that refused. */
async function choose(cookie: { Cookie: string }, businessId: string): Promise<{ status: number; cookie: { Cookie: string }; body: string }> {
  const response = await portal().fetch("/select-business", {
    method: "POST",
    redirect: "manual",
    headers: formHeaders(cookie),
    body: new URLSearchParams({ businessId }).toString(),
  });
  const set = response.headers.get("Set-Cookie") ?? "";
  const next = set ? { Cookie: set.split(";")[0]! } : cookie;
  return { status: response.status, cookie: next, body: await response.text() };
}

const page = async (cookie: { Cookie: string }, path: string) => {
  const response = await portal().fetch(path, { headers: cookie, redirect: "manual" });
  return { status: response.status, html: await response.text() };
};

const count = async (sql: string, ...binds: unknown[]) =>
  (await (
    await portal().db()
  )
    .prepare(sql)
    .bind(...binds)
    .first<number>("n")) ?? 0;

let liveKey: string;
let testKey: string;
let live: Parties;
let test: Parties;

beforeAll(async () => {
  // Opening test mode the way a person does: signed in to the live business, "Test mode" in the switcher.
  const opened = await choose(await signedInCookie(portal(), KOFI, KUMASI), TEST);
  expect(opened.status).toBe(302);
  liveKey = await makeKey(portal(), KUMASI);
  testKey = await makeKey(portal(), TEST);
  live = (await partiesOf(portal(), KUMASI))[0]!;
  test = (await partiesOf(portal(), TEST))[0]!;
});

describe("opening test mode", () => {
  it("the switcher opens the business's test mode with a starter merchant, point of sale and terminal, and the page says Test mode", async () => {
    const ids = await starterIds(TEST);
    expect(test).toEqual({ merchantId: ids.merchant, merchantCode: "MRC-TEST", pointOfSaleId: ids.pointOfSale, serial: ids.serial });
    const cookie = (await choose(await signedInCookie(portal(), KOFI, KUMASI), TEST)).cookie;
    const home = await page(cookie, "/");
    expect(home.status).toBe(200);
    expect(home.html).toContain('data-testid="test-mode-banner"');
    expect(home.html).toContain("Back to live data");
    // The way back is the same form with the live business.
    const back = await choose(cookie, KUMASI);
    expect(back.status).toBe(302);
    expect((await page(back.cookie, "/")).html).not.toContain('data-testid="test-mode-banner"');
    // Opening again writes nothing twice.
    await choose(back.cookie, TEST);
    expect(await count("SELECT COUNT(*) AS n FROM merchants WHERE business_id = ?", TEST)).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM terminals WHERE business_id = ?", TEST)).toBe(1);
  });

  it("only the live business's people enter it, with their live role: a person of another business is refused", async () => {
    // Yaw is Accra's Viewer only.
    const refused = await choose(await signedInCookie(portal(), "yaw.asante@example.com", ACCRA), TEST);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain(NOT_A_MEMBER);
    // The copy of the people in test mode is never what decides: the live membership is read at every request.
    const db = await portal().db();
    const esi = (await choose(await signedInCookie(portal(), "esi.owusu@example.com", KUMASI), TEST)).cookie;
    const esiIn = (businessId: string) =>
      db.prepare("SELECT role, status FROM memberships WHERE business_id = ? AND user_id = 'usr_esi_owusu'").bind(businessId);
    expect(await esiIn(TEST).first()).toEqual({ role: "Operations", status: "active" });
    await db.prepare("UPDATE memberships SET role = 'Super Administrator' WHERE business_id = ? AND user_id = 'usr_esi_owusu'").bind(TEST).run();
    expect((await page(esi, "/settings?tab=developers")).status).toBe(403);
    // Deactivated in the live business: out of its test mode at the next request too.
    await db.prepare("UPDATE memberships SET status = 'deactivated' WHERE business_id = ? AND user_id = 'usr_esi_owusu'").bind(KUMASI).run();
    try {
      const out = await portal().fetch("/", { headers: esi, redirect: "manual" });
      expect(out.status).toBe(302);
      expect(out.headers.get("Location")).toBe("/select-business");
    } finally {
      await db.prepare("UPDATE memberships SET status = 'active' WHERE business_id = ? AND user_id = 'usr_esi_owusu'").bind(KUMASI).run();
    }
    // Opening test mode again copies the live role back.
    await choose(await signedInCookie(portal(), "esi.owusu@example.com", KUMASI), TEST);
    expect(await esiIn(TEST).first()).toEqual({ role: "Operations", status: "active" });
  });

  it("people are the live business's: test mode takes no invitation", async () => {
    const cookie = (await choose(await signedInCookie(portal(), KOFI, KUMASI), TEST)).cookie;
    const answer = await portal().fetch("/settings?tab=team", {
      method: "POST",
      redirect: "manual",
      headers: formHeaders(cookie),
      body: new URLSearchParams({
        intent: "invite",
        name: "Kwame Test",
        email: "kwame.test@example.com",
        phone: "0244000111",
        gender: "male",
        role: "Viewer",
      }).toString(),
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain(TEST_MODE_PEOPLE.replaceAll("'", "&#x27;"));
    expect(await count("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ?", TEST)).toBe(0);
  });
});

describe("keys", () => {
  it("a test business's keys are pp_test_ and a live business's pp_live_, on this (development) deployment too", () => {
    expect(testKey).toMatch(/^pp_test_/);
    expect(liveKey).toMatch(/^pp_live_/);
  });

  it("a pp_test_ key made for live data before test mode is refused, saying what to do", async () => {
    const { secret, row } = await makeApiKey("Old development key", TEST);
    await registerKeyHashStatement(portal().core(), KUMASI, row.secretHash).run();
    await createApiKey(KOFI_KUMASI, META, row);
    const answer = await answerOf(await api(portal(), secret, "/api/v1/payments"));
    expect(answer).toMatchObject({ status: 403, body: { code: "test_key_for_live_data" } });
  });

  it("a test key may name its live business in PP-Business, never another; a platform key cannot name a test business", async () => {
    expect((await api(portal(), testKey, "/api/v1/merchants", undefined, { "PP-Business": KUMASI })).status).toBe(200);
    expect((await answerOf(await api(portal(), testKey, "/api/v1/merchants", undefined, { "PP-Business": ACCRA }))).body).toMatchObject({
      code: "not_your_business",
    });
    const platform = (await makePlatformKeyFor(portal())).secret;
    const named = await answerOf(await api(portal(), platform, "/api/v1/merchants", undefined, { "PP-Business": TEST }));
    expect(named).toMatchObject({ status: 404, body: { code: "business_not_found" } });
  });
});

describe("test data never mixes with live data", () => {
  it("whatever mix of live and test payments arrives, each side's lists, screens and records hold exactly its own", async () => {
    const plans = fc.sample(
      fc.array(fc.record({ mode: fc.constantFrom("live", "test"), amount: fc.integer({ min: 1, max: 5_000_000 }) }), { minLength: 1, maxLength: 12 }),
      { numRuns: 4, seed: 45 },
    );
    for (const [run, plan] of plans.entries()) {
      const payments = plan.map((step, i) => ({
        mode: step.mode,
        body: momoPayment(step.mode === "live" ? live : test, { reference: `MIX-${run}-${i}-${Date.now().toString(36)}`, amount: step.amount }),
      }));
      for (const mode of ["live", "test"] as const) {
        const mine = payments.filter((p) => p.mode === mode).map((p) => p.body);
        if (mine.length === 0) continue;
        const answer = await api(portal(), mode === "live" ? liveKey : testKey, "/api/v1/payments", { payments: mine });
        expect(answer.status).toBe(202);
      }
      const references = (mode: string) => payments.filter((p) => p.mode === mode).map((p) => p.body.reference as string);
      await eventually(
        async () => (await count("SELECT COUNT(*) AS n FROM transactions WHERE reference LIKE ?", `MIX-${run}-%`)) === payments.length,
        20_000,
        "every payment stored",
      );
      for (const [mode, key, businessId] of [
        ["live", liveKey, KUMASI],
        ["test", testKey, TEST],
      ] as const) {
        const other = mode === "live" ? "test" : "live";
        // The API's list (newest first) holds this side's references and none of the other side's.
        const listed = await answerOf(await api(portal(), key, "/api/v1/payments?limit=100"));
        const seen = new Set(((listed.body as { data: unknown[] }).data as { reference: string }[]).map((p) => p.reference));
        for (const reference of references(mode)) expect(seen.has(reference)).toBe(true);
        for (const reference of references(other)) expect(seen.has(reference)).toBe(false);
        // One by one: the other side's payments are 404 to this side's key.
        for (const reference of references(other)) expect((await api(portal(), key, `/api/v1/payments/${encodeURIComponent(reference)}`)).status).toBe(404);
        // The stored records and the events the payments made are the side's business's only.
        for (const reference of references(mode)) {
          expect(await count("SELECT COUNT(*) AS n FROM transactions WHERE reference = ? AND business_id = ?", reference, businessId)).toBe(1);
        }
      }
    }
  });

  it("the live screens and balances leave test payments out; test mode's show them", async () => {
    const reference = `SCREEN-${Date.now().toString(36)}`;
    expect((await api(portal(), testKey, "/api/v1/payments", { payments: [momoPayment(test, { reference, amount: 77_700 })] })).status).toBe(202);
    await eventually(async () => (await count("SELECT COUNT(*) AS n FROM transactions WHERE reference = ?", reference)) === 1, 15_000, "stored");
    const liveCookie = await signedInCookie(portal(), KOFI, KUMASI);
    const testCookie = (await choose(liveCookie, TEST)).cookie;
    const search = `/transactions?q=${reference}`;
    // As a row of the list (the search box and its links repeat what was typed on either side).
    expect((await page(testCookie, search)).html).toContain(`>${reference}<`);
    expect((await page(await signedInCookie(portal(), KOFI, KUMASI), search)).html).not.toContain(`>${reference}<`);
    // Its event is the test business's (its endpoints' and its feed's), never the live business's.
    const events = (businessId: string) =>
      count("SELECT COUNT(*) AS n FROM webhook_events WHERE business_id = ? AND instr(payload, ?) > 0", businessId, reference);
    await eventually(async () => (await events(TEST)) === 1, 15_000, "the test payment's event");
    expect(await events(KUMASI)).toBe(0);
    // The live ledger holds no entry of a test payment; the test business's merchant has its money pending.
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM ledger_entries e JOIN transactions t ON t.id = e.transaction_id WHERE t.reference = ? AND e.business_id = ?",
        reference,
        KUMASI,
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM ledger_entries e JOIN transactions t ON t.id = e.transaction_id WHERE t.reference = ? AND e.business_id = ?",
        reference,
        TEST,
      ),
    ).toBeGreaterThan(0);
  });
});

/**
 * A test payment of two days ago, stored: mobile money clears after a day, so once clearing runs its money is cleared
 * yesterday, the day the daily run settles.
 */
async function sendClearedByYesterday(reference: string, amount: number): Promise<void> {
  const occurred_at = new Date(Date.now() - 2 * 86_400_000).toISOString();
  expect((await api(portal(), testKey, "/api/v1/payments", { payments: [momoPayment(test, { reference, amount, occurred_at })] })).status).toBe(202);
  await eventually(async () => (await count("SELECT COUNT(*) AS n FROM transactions WHERE reference = ?", reference)) === 1, 15_000, "stored");
}

describe("money", () => {
  it("a test business's settlement is paid by the simulator, never sent to the deployment's rail (here Paystack)", async () => {
    await sendClearedByYesterday(`SETTLE-${Date.now().toString(36)}`, 250_000);
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    expect(await portal().scheduled("0 6 * * *")).toBe("ok");
    await eventually(
      async () => (await count("SELECT COUNT(*) AS n FROM settlements WHERE business_id = ? AND rail = 'simulator'", TEST)) >= 1,
      15_000,
      "the test settlement paid by the simulator",
    );
    const db = await portal().db();
    const { results } = await db
      .prepare("SELECT reference, status, rail FROM settlements WHERE business_id = ?")
      .bind(TEST)
      .all<{ reference: string; status: string; rail: string }>();
    expect(results.length).toBeGreaterThanOrEqual(1);
    for (const row of results) expect(row.rail).toBe("simulator");
    // Nothing of the test business reached Paystack: no transfer under any of its references.
    const sent = [...fake.transfers.values()].map((transfer) => JSON.stringify(transfer));
    for (const row of results) expect(sent.some((transfer) => transfer.toLowerCase().includes(row.reference.toLowerCase()))).toBe(false);
    // The live business's settlements of the same run went to Paystack, as the deployment says.
    expect(await count("SELECT COUNT(*) AS n FROM settlements WHERE business_id = ? AND rail = 'paystack'", KUMASI)).toBeGreaterThan(0);
  });
});

describe("refunds", () => {
  it("a test business's approved refund is answered by the simulator; the deployment's refund rail is never called", async () => {
    const reference = `REFUND-${Date.now().toString(36)}`;
    await sendClearedByYesterday(reference, 90_000);
    // Cleared, so its merchant has the money to refund.
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    const db = portal().businessDb(KUMASI);
    const payment = (await db.prepare("SELECT id FROM transactions WHERE reference = ? AND business_id = ?").bind(reference, TEST).first<{ id: number }>())!;
    const as = (userId: string, role: "Operations" | "Administrator") => ({ businessId: TEST, userId, role, db });
    const { id } = await requestRefund(as("usr_esi_owusu", "Operations"), META, {
      transactionId: payment.id,
      amount: 1_000,
      reason: "Test refund Ɛ 🧪",
      idempotencyKey: `test-mode-${Date.now()}`,
    });
    await approveMoneyRequest(as("usr_kofi_boateng", "Administrator"), META, "refund", id);
    let called = 0;
    const deploymentRail = {
      kind: "switch",
      refund: () => {
        called += 1;
        return Promise.resolve({ ok: true as const });
      },
    };
    const run = await processRefunds({ businessId: TEST, db }, deploymentRail, { onlyId: id });
    expect(run.succeeded).toEqual([id]);
    expect(called).toBe(0);
    expect(await db.prepare("SELECT status, rail FROM refunds WHERE id = ?").bind(id).first()).toEqual({ status: "succeeded", rail: "simulator" });
  });
});

describe("the platform", () => {
  it("lists no test business, and a suspension of the live business stops its test mode too", async () => {
    const core = portal().core();
    expect((await listPlatformBusinesses(core)).map((b) => b.id)).not.toContain(TEST);
    expect((await searchPlatformBusinesses(core, { search: "Kumasi" })).rows.map((b) => b.id)).toEqual([KUMASI]);
    const at = new Date().toISOString();
    await core.batch(coreLifecycleStatements(core, KUMASI, "suspended", at));
    await shardLifecycleStatement(await portal().db(), KUMASI, "suspended").run();
    try {
      expect((await answerOf(await api(portal(), testKey, "/api/v1/merchants"))).body).toMatchObject({ code: "business_suspended" });
    } finally {
      await core.batch(coreLifecycleStatements(core, KUMASI, "active", at));
      await shardLifecycleStatement(await portal().db(), KUMASI, "active").run();
    }
    expect((await api(portal(), testKey, "/api/v1/merchants")).status).toBe(200);
  });
});
