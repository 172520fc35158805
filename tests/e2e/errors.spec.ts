// The 404 and 500 pages of SPEC section 2, reached as a person would.
import { REQUEST_ID_PATTERN } from "#server/platform/request-id";
import { expect, hydrated, test } from "./fixtures";

// The UI kit's render failure is thrown on purpose to reach the error page.
test.use({ allowConsoleErrors: /Deliberate render failure/ });

test("an unknown route shows Page Not Found with its path", async ({ page }) => {
  const response = await page.goto("/no/such/page?x=1");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page Not Found");
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await expect(page.getByTestId("error-message")).toHaveText("Page not found: /no/such/page");
});

test("a failing server page shows Internal Server Error with the request's id", async ({ page }) => {
  const response = await page.goto("/__dev/ui?fail=loader");
  expect(response?.status()).toBe(500);
  await hydrated(page);
  await expect(page).toHaveTitle("Internal Server Error");
  const id = response?.headers()["x-request-id"];
  expect(id).toMatch(REQUEST_ID_PATTERN);
  await expect(page.getByTestId("error-id")).toHaveText(id!);
  await expect(page.locator("body")).not.toContainText("internal detail");
});

test("a server failure during client navigation shows the failing request's id", async ({ page }) => {
  await page.goto("/__dev/ui");
  await hydrated(page);
  const failed = page.waitForResponse((r) => r.url().includes("fail=loader") && r.status() === 500);
  await page.getByRole("link", { name: "Server failure" }).click();
  const id = (await failed).headers()["x-request-id"];
  expect(id).toMatch(REQUEST_ID_PATTERN);
  await expect(page.getByRole("heading", { name: "Internal Server Error" })).toBeVisible();
  await expect(page).toHaveTitle("Internal Server Error");
  await expect(page.getByTestId("error-id")).toHaveText(id!);
  await expect(page.locator("body")).not.toContainText("internal detail");
});

test("an error in the browser alone gets an id marked as a browser error", async ({ page }) => {
  await page.goto("/__dev/ui");
  await hydrated(page);
  await page.getByRole("button", { name: "Browser failure" }).click();
  await expect(page.getByRole("heading", { name: "Internal Server Error" })).toBeVisible();
  await expect(page.getByTestId("error-id")).toHaveText(/^C-[0-9A-F]{8}$/);
});

test("the 404 page's way out works", async ({ page }) => {
  await page.goto("/__dev/ui");
  await hydrated(page);
  await page.getByRole("link", { name: "Unknown page" }).click();
  await expect(page.getByTestId("error-message")).toHaveText("Page not found: /no-such-page");
  await expect(page).toHaveTitle("Page Not Found");
});
