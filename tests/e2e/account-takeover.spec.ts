// An account takeover as the attacker would try it (decision 029, a person's sign-in factors are theirs): Kofi (Kumasi Fresh Foods) invites the email of a person
// who works for another business, with a phone the attacker holds; Ama approves. Then the attacker signs in with that
// email: the page offers only the person's own number, no code ever goes to the attacker's phone, and the person's own
// sign-in is as it was. The same for a Super Administrator. And the only way a phone becomes a way to sign in: its
// owner adds it in Settings → Security with a code sent to it.
import type { Browser, Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { latestCodeFor } from "./outbox";
import { NOT_A_NOTICE } from "../support/sms-texts";

async function pageAs(browser: Browser, portal: Portal, email: string | null, businessId: string | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: portal.url });
  if (email) await context.addCookies((await mintSession(await portal.db(), portal.url, email, businessId)).browserCookies);
  return context.newPage();
}

async function textsTo(portal: Portal, msisdn: string): Promise<number> {
  return (await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE} AND to_msisdn = ?`).bind(msisdn).first<number>("n")) ?? 0;
}

/** Kofi (this page) invites `email` with the attacker's phone; Ama approves it in her own browser. */
async function inviteAndApprove(page: Page, browser: Browser, portal: Portal, victim: { name: string; email: string }, attackerPhone: string) {
  await page.goto("/settings?tab=team");
  await hydrated(page);
  const invite = page.getByRole("region", { name: "Invite an employee" });
  await invite.getByLabel("Full name").fill(victim.name);
  await invite.getByLabel("Work email").fill(victim.email);
  await invite.getByLabel("Mobile number").fill(attackerPhone);
  await invite.getByLabel("Gender").selectOption("male");
  await invite.getByLabel("Role").selectOption("Viewer");
  await invite.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByTestId("alert")).toContainText("is sent for approval.");
  const request = await portal
    .businessDb(KUMASI)
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND status = 'pending' AND json_extract(after_json, '$.email') = ?")
    .bind(KUMASI, victim.email)
    .first<{ id: string }>();
  expect(request).not.toBeNull();

  const ama = await pageAs(browser, portal, "ama.mensah@example.com", KUMASI);
  await ama.goto(`/approvals/employee/${request!.id}`);
  await hydrated(ama);
  await clickChecked(ama, portal, ama.getByRole("button", { name: "Approve" }));
  await expect(ama).toHaveURL(/\/approvals$/);
  await expect(ama.getByTestId("alert")).toContainText("Approved");
  await ama.context().close();
}

/** Signs in with `email` in a fresh browser up to the phone choice: what the sign-in page offers. */
async function signInPage(browser: Browser, portal: Portal, email: string): Promise<Page> {
  const page = await pageAs(browser, portal, null, null);
  await page.goto("/login-option");
  await hydrated(page);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
  return page;
}

test("an invitation from another business never lets its phone sign in as Yaw; Yaw signs in as before", async ({ page, browser, portal }) => {
  const attacker = { typed: "055 999 0011", msisdn: "233559990011", masked: "233*****0011" };
  await inviteAndApprove(page, browser, portal, { name: "Yaw Asante", email: "yaw.asante@example.com" }, attacker.typed);

  const signIn = await signInPage(browser, portal, "yaw.asante@example.com");
  await expect(signIn.getByRole("radio")).toHaveCount(1);
  await expect(signIn.getByText("233*****1122")).toBeVisible();
  await expect(signIn.getByText(attacker.masked)).toHaveCount(0);
  // Posting a second phone by hand is refused, and nothing is sent to the attacker's phone.
  const forged = await signIn.request.post("/authenticate", { form: { phone: "1" }, headers: { Origin: portal.url }, maxRedirects: 0 });
  expect(forged.status()).toBe(400);
  expect(await textsTo(portal, attacker.msisdn)).toBe(0);

  // Yaw's own sign-in: a code to his own phone, and his businesses (Kumasi's invitation did make him a Viewer there).
  await signIn.getByRole("button", { name: "Send code" }).click();
  await expect(signIn).toHaveURL(/\/authenticate\/verify$/);
  await signIn.getByLabel("One-time code").fill(await latestCodeFor(signIn.request, "233277001122"));
  await signIn.getByRole("button", { name: "Verify" }).click();
  await expect(signIn).toHaveURL(/\/select-business$/);
  await expect(signIn.getByRole("button", { name: /Accra Mobile Pay\s*Viewer/ })).toBeVisible();
  await expect(signIn.getByRole("button", { name: /Kumasi Fresh Foods\s*Viewer/ })).toBeVisible();
  expect(await textsTo(portal, attacker.msisdn)).toBe(0);
  await signIn.context().close();
});

test("the same attack on another business's Super Administrator fails the same way", async ({ page, browser, portal }) => {
  // Accra Mobile Pay gets a Super Administrator (the tiny seed has none), in its database and in the core one.
  const victim = { id: "usr_e2e_serwaa", email: "serwaa.e2e@example.com", name: "Serwaa Owusu-Ansah", phone: "233244000779" };
  const at = new Date().toISOString();
  for (const db of [portal.core(), portal.businessDb(ACCRA)]) {
    await db.batch([
      db.prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'female', ?)").bind(victim.id, victim.email, victim.name, at),
      db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(victim.id, victim.phone, at),
      db
        .prepare(
          "INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version) VALUES (?, ?, 'Super Administrator', 'active', ?, ?, 1)",
        )
        .bind(ACCRA, victim.id, at, at),
    ]);
  }
  const attacker = { typed: "055 999 0012", msisdn: "233559990012", masked: "233*****0012" };
  await inviteAndApprove(page, browser, portal, victim, attacker.typed);

  const signIn = await signInPage(browser, portal, victim.email);
  await expect(signIn.getByRole("radio")).toHaveCount(1);
  await expect(signIn.getByText("233*****0779")).toBeVisible();
  await expect(signIn.getByText(attacker.masked)).toHaveCount(0);
  const forged = await signIn.request.post("/authenticate", { form: { phone: "1" }, headers: { Origin: portal.url }, maxRedirects: 0 });
  expect(forged.status()).toBe(400);
  expect(await textsTo(portal, attacker.msisdn)).toBe(0);
  await signIn.context().close();
});

test.describe("adding a phone number", () => {
  test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

  test("Abena adds a number by the code sent to it; only then does sign-in offer it", async ({ page, browser, portal }) => {
    await page.goto("/settings?tab=security");
    await hydrated(page);
    await expect(page.getByTestId("linked-phone")).toHaveCount(1);
    const phone = page.getByLabel("Add a phone number");
    // A number that is no Ghana number is refused before any check or code.
    await phone.fill("0123");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.getByText("Enter a Ghana phone number, like 024 412 3456 or 233244123456.")).toBeVisible();
    await phone.fill("055 999 0041");
    await clickChecked(page, portal, page.getByRole("button", { name: "Send code" }));
    await expect(page.getByText("We sent a 6-digit code to 233*****0041.")).toBeVisible();
    // Sent, not yet proved: sign-in does not offer it.
    const early = await signInPage(browser, portal, "abena.darko@example.com");
    await expect(early.getByRole("radio")).toHaveCount(1);
    await early.context().close();

    const code = await latestCodeFor(page.request, "233559990041", "link this phone number");
    await page.getByLabel("Code from the text message").fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
    await page.getByRole("button", { name: "Link this number" }).click();
    await expect(page.getByText(/That code is not right\./)).toBeVisible();
    await page.getByLabel("Code from the text message").fill(code);
    await page.getByRole("button", { name: "Link this number" }).click();
    await expect(page.getByTestId("alert")).toContainText("233*****0041 is linked to your account");
    await expect(page.getByTestId("linked-phone")).toHaveCount(2);

    const later = await signInPage(browser, portal, "abena.darko@example.com");
    await expect(later.getByRole("radio")).toHaveCount(2);
    await expect(later.getByText("233*****0041")).toBeVisible();
    await later.context().close();
  });

  test("the phone section works at 390 px wide", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/settings?tab=security");
    await expect(page.getByLabel("Add a phone number")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
