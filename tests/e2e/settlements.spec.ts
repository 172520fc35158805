// Settlement history as people use it: Kofi Boateng (Administrator) runs the
// day's settlement, sees the outcome, opens a settlement with the payments it
// covers and its payout attempts; Abena Darko (Finance) reads it but cannot run it.
import { mintSession } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";
import { clickChecked } from "./fresh-check";

test("an administrator runs the settlement and reads what each one covers", async ({ page, portal }) => {
  await page.goto("/money/settlement-history");
  await hydrated(page);
  await expect(page).toHaveTitle("Settlement History");
  // Starting the run is a money decision: the check dialog asks first, as for a transfer (decision 027).
  await clickChecked(page, portal, page.getByRole("button", { name: "Run settlement now" }));
  await expect(page.getByTestId("alert")).toContainText(/Settlement run for \d{2} \w{3} \d{4}: \d+ settlements? made/);
  await expect(page.getByTestId("alert")).toContainText(/payouts: \d+ paid, \d+ failed/);

  await page.getByRole("table").getByRole("link").first().click();
  const detail = page.getByTestId("settlement-detail");
  await expect(detail.getByRole("heading", { name: /Transactions covered \(\d+\)/ })).toBeVisible();
  await expect(detail.getByTestId("covered").getByRole("listitem")).not.toHaveCount(0);
  await expect(detail.getByRole("heading", { name: "Payout attempts" })).toBeVisible();
  // Payers are masked in the covered list too.
  await expect(detail.getByTestId("covered")).not.toContainText(/233\d{9}/);

  await page.getByLabel("Status").selectOption("paid");
  await expect(page).toHaveURL(/status=paid/);
  await expect(page.getByRole("table").getByText("Paid", { exact: true }).first()).toBeVisible();
});

test("Finance reads the history but has no run button; the dashboard shows what awaits settlement", async ({ browser, portal }) => {
  const context = await browser.newContext({ baseURL: portal.url });
  const session = await mintSession(await portal.db(), portal.url, "abena.darko@example.com", KUMASI);
  await context.addCookies(session.browserCookies);
  const page = await context.newPage();
  await page.goto("/money/settlement-history");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Settlement History" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Run settlement now" })).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByTestId("dashboard-awaiting")).toContainText(/GHS [\d,]+\.\d{2}\s*cleared, awaiting settlement/);
  await page.getByTestId("dashboard-awaiting").click();
  await expect(page).toHaveURL(/\/money\/settlement-history$/);
  await context.close();
});

test("a filter that loads slowly is no send: the run button keeps its words and can be pressed", async ({ page }) => {
  await page.goto("/money/settlement-history");
  await hydrated(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/money/settlement-history.data",
    async (route) => {
      if (route.request().method() === "GET") await held;
      await route.continue();
    },
  );
  await page.getByLabel("Status").selectOption("paid");
  await expect(page.getByRole("progressbar", { includeHidden: true })).toHaveClass(/progress--busy/);
  await expect(page.getByRole("button", { name: "Run settlement now" })).toBeEnabled();
  release();
  await expect(page).toHaveURL(/status=paid/);
});

test("a failed attempt shows the rail's whole reason, and a long reason or reference never pushes the panel sideways", async ({ page, portal }) => {
  const db = await portal.db();
  const settlement = await db
    .prepare("SELECT id, attempts FROM settlements WHERE business_id = ? AND status = 'paid' AND transfer_id IS NULL ORDER BY created_at DESC LIMIT 1")
    .bind(KUMASI)
    .first<{ id: string; attempts: number }>();
  const reason = "Provider: the receiving bank did not answer within 30 seconds; the payout will be tried again at the next run (ref GH-NIP-0042-Ɔ)";
  await db
    .prepare("INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES (?, ?, ?, 'failed', ?, ?)")
    .bind(KUMASI, settlement!.id, settlement!.attempts + 1, reason, new Date().toISOString())
    .run();
  // The longest reference the house makes: a five-digit merchant code and the business's tag. It stays on one line in
  // the panel's title (it is read back character by character) and still fits beside the close button.
  const reference = "STL-MRC-12345-20261202-BBRWYGYY";
  await db.prepare("UPDATE settlements SET reference = ? WHERE business_id = ? AND id = ?").bind(reference, KUMASI, settlement!.id).run();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/money/settlement-history?s=${settlement!.id}`);
    const attempt = page
      .getByTestId("settlement-detail")
      .getByRole("listitem")
      .filter({ hasText: `Attempt ${settlement!.attempts + 1}` });
    await expect(page.getByRole("heading", { level: 2, name: reference })).toBeVisible();
    await expect(attempt).toContainText(reason);
    expect(await page.getByTestId("settlement-detail").evaluate((panel) => panel.scrollWidth - panel.clientWidth)).toBeLessThanOrEqual(0);
    await expect(attempt.getByText("Failed", { exact: true })).toBeVisible();
    await lookAt(page, { path: `settlement-failed-attempt-${width}.png` });
  }
  expect(await axeViolations(page)).toEqual([]);
});
