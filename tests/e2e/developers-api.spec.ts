// /developers/api (decision 044, the contract integrators read): the Partner API's reference, for administrators.
import { expect, test, lookAt } from "./fixtures";

const SHOTS = "tmp/screenshots";

test("an administrator reads every endpoint with its fields, answers and a curl example", async ({ page }) => {
  const response = await page.goto("/developers/api");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/API Reference/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  for (const name of ["Authentication", "Idempotency", "Rate limits", "Card numbers", "Times", "Errors", "Validation", "Webhooks"]) {
    await expect(page.getByRole("region", { name, exact: true })).toBeVisible();
  }
  const send = page.getByRole("region", { name: "Send payments" });
  await expect(send.getByText("/api/v1/payments", { exact: true })).toBeVisible();
  const payment = send.getByRole("definition").filter({ hasText: "The amount in pesewas" });
  await expect(payment).toContainText("1 to 100000000");
  await expect(send.getByRole("listitem").filter({ hasText: "terminal_serial is required for a card payment" })).toBeVisible();
  await expect(send.locator("pre")).toContainText("Authorization: Bearer $PP_API_KEY");
  for (const status of ["202", "400", "401", "409", "413", "429"]) await expect(send.getByText(status, { exact: true })).toBeVisible();
  for (const name of ["Get a payment", "Reverse a payment", "Send a terminal heartbeat"]) await expect(page.getByRole("region", { name })).toBeVisible();
  const webhooks = page.getByRole("region", { name: "Webhooks" });
  await expect(webhooks).toContainText('HMAC-SHA256(secret, timestamp + "." + body)');
  await expect(webhooks.getByRole("group", { name: "Checking a signature in Node.js" })).toContainText('createHmac("sha256", secret)');
  await expect(webhooks.getByRole("group", { name: "Checking a call with a Standard Webhooks library" })).toContainText('from "standardwebhooks"');
  // Every problem's type links to its code here: following one lands on its entry.
  const problems = page.getByRole("region", { name: "Problem codes" });
  await expect(problems.getByText("validation_failed", { exact: true })).toBeVisible();
  await page.goto("/developers/api#problem-rate_limited");
  await expect(page.locator("#problem-rate_limited")).toBeInViewport();
  await expect(page.locator("#problem-rate_limited")).toContainText("429");
  await lookAt(page, { path: `${SHOTS}/developers-api-1280.png`, fullPage: true });
  await lookAt(page, { path: `${SHOTS}/developers-api-1280-top.png` });
  await lookAt(send, { path: `${SHOTS}/developers-api-1280-payments.png` });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the reference fits without sideways scrolling; code scrolls in its own box", async ({ page }) => {
    await page.goto("/developers/api");
    await expect(page.getByRole("region", { name: "Send payments" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: `${SHOTS}/developers-api-390.png`, fullPage: true });
    await lookAt(page, { path: `${SHOTS}/developers-api-390-top.png` });
    await lookAt(page.getByRole("region", { name: "Send payments" }), { path: `${SHOTS}/developers-api-390-payments.png` });
    await lookAt(page.getByRole("region", { name: "Webhooks" }), { path: `${SHOTS}/developers-api-390-webhooks.png` });
  });
});

test.describe("as Esi Owusu (Operations)", () => {
  test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: "bus_kumasi_fresh_foods" } });

  test("the reference is refused", async ({ page }) => {
    const response = await page.goto("/developers/api");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  });
});

test.describe("signed out", () => {
  test.use({ signedInAs: null });

  test("the reference asks to sign in", async ({ page }) => {
    await page.goto("/developers/api");
    await expect(page).toHaveURL(/\/login/);
  });
});
