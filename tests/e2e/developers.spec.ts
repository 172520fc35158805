// The Developers tab of /settings in the browser: Kofi Boateng (Administrator)
// makes an API key and sees it once (with Copy), rolls it and revokes the new
// one, by keyboard too; the key is stored nowhere (not even as the replayable
// answer of a form); payment conflicts read at 390 px; a Viewer sees no tab and
// is refused when he posts to it.
import type { Page } from "@playwright/test";
import { KEY_PATTERN } from "#server/partner-api/keys";
import { tablesHolding } from "../support/d1-dump";
import { ACCRA, KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked, passCheckDialog } from "./fresh-check";

const TAB = "/settings?tab=developers";
const ANY_KEY = /pp_(?:live|test)_[0-9A-Za-z]{32}/g;
const tabs = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });

test("Kofi makes a key and sees it once, rolls it and revokes the new one", async ({ page, portal, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(TAB);
  await hydrated(page);
  await expect(tabs(page).getByRole("link", { name: "Developers" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/developers/api");
  await expect(page.getByRole("heading", { name: "Webhook endpoints", exact: true })).toBeVisible();

  // By keyboard: the name, then Enter.
  const create = page.getByRole("region", { name: "Create key" });
  await create.getByRole("button", { name: "Create key" }).click();
  await expect(create.getByText("Name the key, for example after the system that will use it.")).toBeVisible();
  await create.getByLabel("Name").focus();
  await page.keyboard.type("Switch Ɛkuu 🔑");
  await page.keyboard.press("Enter");
  // Making a key asks Kofi to check it is him; then Enter again sends it.
  await passCheckDialog(page, portal);
  await create.getByLabel("Name").press("Enter");

  const panel = page.getByTestId("new-key");
  await expect(panel.getByRole("heading", { name: "Your new key: Switch Ɛkuu 🔑" })).toBeFocused();
  await expect(panel).toContainText("It will not be shown again");
  const secret = (await panel.getByTestId("new-key-secret").textContent()) ?? "";
  expect(secret).toMatch(KEY_PATTERN);
  await panel.getByRole("button", { name: "Copy" }).click();
  await expect(panel.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await lookAt(page, { path: test.info().outputPath("developers-new-key-1280.png"), fullPage: true });

  const row = page.getByRole("row").filter({ hasText: "Switch Ɛkuu 🔑" });
  await expect(row).toContainText(`${secret.slice(0, 12)}…`);
  await expect(row).toContainText("Never");
  await expect(row).toContainText("Active");

  // Not in D1 (the form went without its replay id), not in the URL, not after a reload.
  expect(await tablesHolding(await portal.db(), secret)).toEqual([]);
  expect(page.url()).not.toContain(secret.slice(8));
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  expect((await page.content()).match(ANY_KEY)).toBeNull();

  // Roll: confirmed first, the old key keeps working for 24 hours.
  const rollLink = page.getByRole("link", { name: `Roll Switch Ɛkuu 🔑 (${secret.slice(0, 12)}…)` });
  await rollLink.click();
  const confirm = page.getByRole("region", { name: /^Roll Switch Ɛkuu/ });
  await expect(confirm).toContainText("The old key keeps working for 24 hours");
  await confirm.getByRole("button", { name: "Yes, roll the key" }).click();
  // Rolling asks Kofi to check it is him; then he confirms the roll again.
  await passCheckDialog(page, portal);
  await rollLink.click();
  await confirm.getByRole("button", { name: "Yes, roll the key" }).click();
  await expect(panel.getByRole("heading", { name: "The new key for Switch Ɛkuu 🔑" })).toBeFocused();
  const rolled = (await panel.getByTestId("new-key-secret").textContent()) ?? "";
  expect(rolled).toMatch(KEY_PATTERN);
  expect(rolled).not.toBe(secret);
  await expect(page.getByRole("row").filter({ hasText: `${secret.slice(0, 12)}…` })).toContainText(/Expires \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M/);
  await expect(page.getByRole("row").filter({ hasText: `${rolled.slice(0, 12)}…` })).toContainText("Active");
  expect(await tablesHolding(await portal.db(), rolled)).toEqual([]);

  // "I have saved it" closes the panel for good.
  await panel.getByRole("link", { name: "I have saved it" }).click();
  await expect(page.getByTestId("new-key")).toHaveCount(0);

  // Revoke, by keyboard: confirmed first, it stops at once.
  await page.getByRole("link", { name: `Revoke Switch Ɛkuu 🔑 (${rolled.slice(0, 12)}…)` }).focus();
  await page.keyboard.press("Enter");
  const revoke = page.getByRole("region", { name: /^Revoke Switch Ɛkuu/ });
  await expect(revoke).toContainText("stops working at once");
  await expect(revoke.getByRole("heading")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(revoke.getByRole("button", { name: "Yes, revoke the key" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("alert")).toContainText("The key is revoked");
  await expect(page.getByRole("row").filter({ hasText: `${rolled.slice(0, 12)}…` })).toContainText("Revoked");
  const db = await portal.db();
  const audited = await db
    .prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = 'api_key' ORDER BY id")
    .bind(KUMASI)
    .all<{ action: string }>();
  expect(audited.results.map((r) => r.action)).toEqual(["api_key.create", "api_key.roll", "api_key.revoke"]);
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the keys and the payment conflicts fit, and the received JSON opens by keyboard", async ({ page, portal }) => {
    const db = await portal.db();
    const received = JSON.stringify({ reference: "SW-Ɔ-0001-مرجع", amount: 125_000, currency: "GHS", channel: "mobile_money", network: "MTN" });
    await db
      .prepare(
        `INSERT INTO payment_conflicts (business_id, reference, kind, problem, received, fingerprint, received_at)
         VALUES (?, 'SW-Ɔ-0001-مرجع', 'payment', 'The amount differs from the payment held (1,200.00 held, 1,250.00 received).', ?, 'e2e-fingerprint', ?)`,
      )
      .bind(KUMASI, received, Date.now() - 60_000)
      .run();
    await page.goto(TAB);
    await hydrated(page);
    const conflicts = page.getByRole("region", { name: "Payment conflicts" });
    await expect(conflicts).toContainText("SW-Ɔ-0001-مرجع");
    await expect(conflicts).toContainText("The amount differs");
    await conflicts.getByText("Show JSON").focus();
    await page.keyboard.press("Enter");
    await expect(conflicts.locator("pre")).toContainText('"amount": 125000');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: test.info().outputPath("developers-390.png"), fullPage: true });

    await page.getByRole("region", { name: "Create key" }).getByLabel("Name").fill("Phone test");
    await clickChecked(page, portal, page.getByRole("region", { name: "Create key" }).getByRole("button", { name: "Create key" }));
    await expect(page.getByTestId("new-key-secret")).toHaveText(KEY_PATTERN);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: test.info().outputPath("developers-new-key-390.png"), fullPage: true });
  });
});

test.describe("as a Viewer", () => {
  test.use({ signedInAs: { email: "yaw.asante@example.com", businessId: ACCRA } });

  test("Yaw sees no Developers tab, and the tab and a post to it are refused", async ({ page, portal }) => {
    await page.goto("/settings");
    await hydrated(page);
    await expect(tabs(page).getByRole("link", { name: "Security" })).toBeVisible();
    await expect(tabs(page).getByRole("link", { name: "Developers" })).toHaveCount(0);

    const response = await page.goto(TAB);
    expect(response?.status()).toBe(403);
    await expect(page.getByText("You don't have access to this page")).toBeVisible();

    const before = await (await portal.db()).prepare("SELECT COUNT(*) AS n FROM api_keys").first<number>("n");
    const refused = await page.request.post(TAB, { form: { intent: "create-key", name: "Not allowed" }, headers: { Origin: portal.url }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect((await refused.text()).match(ANY_KEY)).toBeNull();
    expect(await (await portal.db()).prepare("SELECT COUNT(*) AS n FROM api_keys").first<number>("n")).toBe(before);
  });
});
