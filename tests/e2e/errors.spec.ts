// The 404 and 500 pages of SPEC section 2, reached as a person would.
import { REQUEST_ID_PATTERN } from "#server/plumbing/request-id";
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

// Issue 38: /platform is not theirs to find. A business's person on any platform path gets the unknown route's 404 in
// the business's frame, with the business's menu (in the drawer at 390 px), never the platform's.
for (const width of [1280, 390]) {
  test(`a business's person on a platform path gets the plain 404 in the business's frame at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 980 ? 800 : 844 });
    const response = await page.goto("/platform/businesses/bus_kumasi_fresh_foods?view=figures");
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect(page).toHaveTitle("Page Not Found");
    await expect(page.getByTestId("error-message")).toHaveText("Page not found: /platform/businesses/bus_kumasi_fresh_foods");
    await page.screenshot({ path: `/work/brief/shots/platform-404-business-${width}.png`, fullPage: true, animations: "disabled" });
    if (width <= 980) await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Main" });
    await expect(menu.getByRole("link", { name: "Merchants" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Jobs" })).toHaveCount(0);
    await expect(menu.getByRole("link", { name: "Platform", exact: true })).toHaveCount(0);
    if (width <= 980) await page.screenshot({ path: `/work/brief/shots/platform-404-business-${width}-menu.png`, animations: "disabled" });
  });
}
