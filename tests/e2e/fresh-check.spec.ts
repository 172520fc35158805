// The fresh check in Chromium (decision 027): Kofi approves one of Esi's requests; the page asks him to confirm
// it is him, he has a code sent, types a wrong one, then the right one, and the request is approved with no second
// click. A code he waits on past its 5 minutes (Playwright's clock) runs out in the dialog, and the server refuses a
// check that is older than 5 minutes. The dialog fits 390 px.
import type { Page } from "@playwright/test";
import { mintSession } from "../support/sign-in";
import { mintFreshCheck } from "../support/fresh-check";
import { requestChange } from "#server/approvals/approvals.db";
import { ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { axeViolations, expect, hydrated, test, lookAt } from "./fixtures";
import { latestCodeFor, outboxTotal } from "./outbox";

const KOFI_PHONE = "233244556677";

let serial = 0;

/** A new merchant asked for by Esi (Operations), for Kofi to decide. */
async function esiAsks(): Promise<{ id: string }> {
  serial += 1;
  const n = `${Date.now() % 100_000}${serial}`;
  const id = await requestChange(ESI_KUMASI, META, {
    kind: "merchant",
    action: "create",
    after: {
      code: `MER-E${n}`,
      name: `Ɛfua Ŋkansa Foods ${n}`,
      trading_name: `Ɛfua Ŋkansa ${n}`,
      tin: `C${String(6_100_000_000 + Number(n))}`,
      sector: "Retail",
      town: "Kumasi",
      region: "Ashanti",
      address: "3 Bantama Road",
      contact_name: "Ɛfua Ŋkansa",
      contact_phone: "233244000444",
      contact_email: "efua@example.com",
    },
  });
  return { id };
}

/** The newest code sent to Kofi's phone for a check of `purpose`. */
const latestCode = (page: Page, purpose = "to decide this request") => latestCodeFor(page.request, KOFI_PHONE, purpose);

test("approving asks for a check; a code sent by SMS makes it, and the approval goes on by itself", async ({ page, portal }) => {
  const request = await esiAsks();
  await page.goto(`/approvals/merchant/${request.id}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Approve" }).click();

  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("To decide this request, confirm it is you.");
  await dialog.getByRole("button", { name: /^Text a code to 233\*+6677$/ }).click();
  // The field shows once the code is sent: read before it, the newest message may be an older test's.
  const field = dialog.getByLabel(/Code sent to/);
  await expect(field).toBeFocused();
  const code = await latestCode(page);
  await field.fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("That code is not right. 4 tries left.");
  // Nothing was decided meanwhile.
  await expect(page.getByTestId("request-status")).toHaveText("Pending");

  await field.fill(code);
  await page.setViewportSize({ width: 390, height: 844 });
  await lookAt(page, { path: "tmp/screenshots/fresh-check-code-390.png" });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
  const row = await (
    await portal.db()
  )
    .prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?")
    .bind(request.id, KUMASI)
    .first<{ status: string }>();
  expect(row?.status).toBe("approved");
});

test("a code runs out after 5 minutes in the dialog, and a check older than 5 minutes is asked again", async ({ page, portal }) => {
  const request = await esiAsks();
  await page.clock.install();
  await page.goto(`/approvals/merchant/${request.id}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await dialog.getByRole("button", { name: /^Text a code to/ }).click();
  await expect(dialog.getByText(/It expires in [45]:\d\d\./)).toBeVisible();
  await page.clock.runFor(5 * 60_000 + 1_000);
  await expect(dialog.getByRole("status")).toHaveText("This code has expired. Ask for a new one.");
  await expect(dialog.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // A check made 5 minutes and a second ago is no check: the page asks again and nothing is decided.
  const session = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("pp_session"))!;
  await mintFreshCheck(portal.core(), `pp_session=${session.value}`, KUMASI, `decide:${request.id}`, { ageMs: 5 * 60_000 + 1_000 });
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("request-status")).toHaveText("Pending");
});

test.describe("with a passkey", () => {
  // WebAuthn needs a host that can be a relying party: the portal as http://localhost:<port> (passkeys.spec.ts).
  test.use({ signedInAs: null });

  test.afterEach(async ({ portal }) => {
    const at = new Date().toISOString();
    await portal.core().prepare("UPDATE passkeys SET removed_at = ? WHERE user_id = 'usr_kofi_boateng' AND removed_at IS NULL").bind(at).run();
    await (await portal.db()).prepare("UPDATE business_policies SET decisions_need_passkey = 0 WHERE id = ? AND business_id = ?").bind(KUMASI, KUMASI).run();
  });

  test("Kofi adds a passkey and approves with it; when the business asks for passkeys, a code is not offered", async ({ page, context, portal }) => {
    test.setTimeout(90_000);
    const base = portal.url.replace("127.0.0.1", "localhost");
    await context.addCookies((await mintSession(await portal.db(), base, "kofi.boateng@example.com", KUMASI)).browserCookies);
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(`${base}/settings?tab=security`);
    await hydrated(page);
    await page.getByLabel("Name of the new passkey").fill("Kofi's Ɛkuu phone 📱");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    // A new passkey would pass every later check: adding one is checked by what Kofi already has, a code.
    const adding = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(adding).toContainText("To add a passkey, confirm it is you.");
    await adding.getByRole("button", { name: /^Text a code to/ }).click();
    await expect(adding.getByLabel(/Code sent to/)).toBeFocused();
    await adding.getByLabel(/Code sent to/).fill(await latestCode(page, "to add a passkey"));
    await adding.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("status")).toContainText("is added.");

    const first = await esiAsks();
    await page.goto(`${base}/approvals/merchant/${first.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(dialog.getByRole("button", { name: /^Text a code to/ })).toBeVisible();
    await lookAt(page, { path: "tmp/screenshots/fresh-check-passkey-1280.png" });
    await dialog.getByRole("button", { name: "Use your passkey" }).click();
    await expect(page).toHaveURL(/\/approvals$/);
    await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();

    // The business now asks for a passkey for every decision: the dialog offers no code.
    await (
      await portal.db()
    )
      .prepare(
        "INSERT INTO business_policies (id, business_id, decisions_need_passkey, status, created_at, updated_at, version) VALUES (?, ?, 1, 'active', ?, ?, 1) ON CONFLICT (id) DO UPDATE SET decisions_need_passkey = 1",
      )
      .bind(KUMASI, KUMASI, new Date().toISOString(), new Date().toISOString())
      .run();
    const second = await esiAsks();
    await page.goto(`${base}/approvals/merchant/${second.id}`);
    await hydrated(page);
    await page.getByLabel("Reason for rejecting").fill("The TIN belongs to another trader.");
    await page.getByRole("button", { name: "Reject" }).click();
    await expect(dialog).toContainText("This business asks for a passkey for every decision.");
    await expect(dialog.getByRole("button", { name: "Use your passkey" })).toBeVisible();
    await expect(dialog.getByRole("button", { name: /^Text a code to/ })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await lookAt(page, { path: "tmp/screenshots/fresh-check-passkey-only-390.png" });
    await dialog.getByRole("button", { name: "Use your passkey" }).click();
    await expect(page).toHaveURL(/\/approvals$/);
    await expect(page.getByText(/Rejected: .*Owusu can read your reason/)).toBeVisible();
    const audit = await portal
      .core()
      .prepare("SELECT after_json FROM audit_log WHERE action = 'auth.check.passed' AND actor_id = 'usr_kofi_boateng' ORDER BY id DESC LIMIT 1")
      .first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toEqual({ binding: `decide:${second.id}`, method: "passkey" });
  });
});

test.describe("a checker's codes for the hour", () => {
  /** Sets how many codes Kofi's checks have sent this hour, to his phone and for his account (the checks' own budget). */
  async function checksSent(portal: { core(): D1Database }, sends: number): Promise<void> {
    const at = Date.now();
    const upsert = portal
      .core()
      .prepare(
        "INSERT INTO otp_counters (scope, key, window_start, sends, failures) VALUES (?, ?, ?, ?, 0) ON CONFLICT (scope, key) DO UPDATE SET window_start = excluded.window_start, sends = excluded.sends",
      );
    await portal.core().batch([upsert.bind("phone", `check:${KOFI_PHONE}`, at, sends), upsert.bind("account", "check:usr_kofi_boateng", at, sends)]);
  }

  test.afterEach(async ({ portal }) => {
    await portal.core().prepare("DELETE FROM otp_counters WHERE key IN (?, ?)").bind(`check:${KOFI_PHONE}`, "check:usr_kofi_boateng").run();
    await portal
      .core()
      .prepare("UPDATE passkeys SET removed_at = ? WHERE user_id = 'usr_kofi_boateng' AND removed_at IS NULL")
      .bind(new Date().toISOString())
      .run();
  });

  test("the dialog says the codes left; once none are, Text a code is disabled with the reason beside it and the focus stays in the dialog", async ({
    page,
    portal,
  }) => {
    await checksSent(portal, 27);
    const request = await esiAsks();
    await page.goto(`/approvals/merchant/${request.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    const textCode = dialog.getByRole("button", { name: /^Text a code to 233\*+6677$/ });
    await expect(textCode).toBeEnabled();
    await expect(dialog.getByTestId("codes-left")).toHaveText("3 of 30 codes left this hour.");
    await expect(textCode).toHaveAccessibleDescription("3 of 30 codes left this hour.");
    // No passkey yet: he is told where to add one (it checks without a code).
    await expect(dialog.getByRole("link", { name: "Add one in Settings → Security" })).toHaveAttribute("href", "/settings?tab=security");
    await lookAt(page, { path: "fresh-check-codes-left-1280.png" });
    expect(await axeViolations(page)).toEqual([]);

    // Meanwhile his other session used up the hour's codes: the next one is refused.
    await checksSent(portal, 30);
    await textCode.click();
    const refusal = dialog.getByRole("alert");
    await expect(refusal).toHaveText("Too many codes were sent. Try again in 60 minutes.");
    await expect(textCode).toBeDisabled();
    await expect(dialog.getByTestId("codes-left")).toHaveText("None of this hour's 30 codes are left.");
    await expect(refusal).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.closest("dialog") !== null)).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await lookAt(page, { path: "fresh-check-no-codes-left-390.png" });
    expect(await axeViolations(page)).toEqual([]);
    await expect(page.getByTestId("request-status")).toHaveText("Pending");
  });

  test("a request decided meanwhile is refused on the page before any check is asked for: no dialog, no code sent", async ({ page, portal, request }) => {
    const asked = await esiAsks();
    await page.goto(`/approvals/merchant/${asked.id}`);
    await hydrated(page);
    // Another checker decides it while Kofi's page is open.
    await (
      await portal.db()
    )
      .prepare("UPDATE approval_requests SET status = 'approved', checker_id = 'usr_ama_mensah', decided_at = ? WHERE id = ? AND business_id = ?")
      .bind(new Date().toISOString(), asked.id, KUMASI)
      .run();
    const sentBefore = await outboxTotal(request);
    await page.getByRole("button", { name: "Approve" }).click();
    // Told on the page, with the request as it now stands: no dialog opens and nothing is offered to send.
    await expect(page.getByRole("alert").filter({ hasText: "This request is already approved." })).toBeVisible();
    await expect(page.getByTestId("request-status")).toHaveText("Approved");
    await expect(page.getByRole("dialog", { name: "Confirm it is you" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Text a code/ })).toHaveCount(0);
    await lookAt(page, { path: "fresh-check-decided-meanwhile-1280.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await lookAt(page, { path: "fresh-check-decided-meanwhile-390.png" });
    expect(await axeViolations(page)).toEqual([]);
    expect(await outboxTotal(request)).toBe(sentBefore);
  });

  test("sign-in's codes used up leave the checks' own: the dialog offers all 30 and a code arrives", async ({ page, portal }) => {
    const at = Date.now();
    const upsert = portal
      .core()
      .prepare(
        "INSERT INTO otp_counters (scope, key, window_start, sends, failures) VALUES (?, ?, ?, ?, 0) ON CONFLICT (scope, key) DO UPDATE SET window_start = excluded.window_start, sends = excluded.sends",
      );
    // Sign-in's budget (5 a phone, 10 an account an hour) spent in full.
    await portal.core().batch([upsert.bind("phone", KOFI_PHONE, at, 5), upsert.bind("account", "usr_kofi_boateng", at, 10)]);
    try {
      const asked = await esiAsks();
      await page.goto(`/approvals/merchant/${asked.id}`);
      await hydrated(page);
      await page.getByRole("button", { name: "Approve" }).click();
      const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
      await expect(dialog.getByTestId("codes-left")).toHaveText("30 of 30 codes left this hour.");
      await dialog.getByRole("button", { name: /^Text a code to 233\*+6677$/ }).click();
      await expect(dialog.getByLabel(/Code sent to/)).toBeFocused();
      await dialog.getByLabel(/Code sent to/).fill(await latestCode(page));
      await dialog.getByRole("button", { name: "Confirm" }).click();
      await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
    } finally {
      await portal.core().prepare("DELETE FROM otp_counters WHERE key IN (?, ?)").bind(KOFI_PHONE, "usr_kofi_boateng").run();
    }
  });

  test("a person with a passkey is offered it first, the code after it", async ({ page, portal }) => {
    await portal
      .core()
      .prepare("INSERT INTO passkeys (id, user_id, credential_id, public_key, name, created_at) VALUES (?, 'usr_kofi_boateng', ?, 'pk', 'Kofi’s phone', ?)")
      .bind(`pk_${Date.now()}`, `cred_${Date.now()}`, new Date().toISOString())
      .run();
    const request = await esiAsks();
    await page.goto(`/approvals/merchant/${request.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(dialog.getByRole("button", { name: /^Text a code to/ })).toBeVisible();
    const offered = await dialog.getByRole("button").allTextContents();
    // The passkey first; an authenticator app, when the person has one (another spec may have added it), sits between.
    expect(offered[0]).toBe("Use your passkey");
    expect(offered.filter((text) => text !== "Use your authenticator app").slice(0, 2)).toEqual(["Use your passkey", "Text a code to 233*****6677"]);
    await expect(dialog.getByRole("link", { name: "Add one in Settings → Security" })).toHaveCount(0);
    // The code stays on offer after it, with the hour's codes said beside it.
    await expect(dialog.getByTestId("codes-left")).toHaveText("30 of 30 codes left this hour.");
    await lookAt(page, { path: "fresh-check-passkey-first-1280.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await lookAt(page, { path: "fresh-check-passkey-first-390.png" });
    expect(await axeViolations(page)).toEqual([]);
  });
});
