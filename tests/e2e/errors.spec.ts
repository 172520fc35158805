// The 404 and 500 pages of SPEC section 2, reached as a person would.
import { REQUEST_ID_PATTERN } from "#server/plumbing/request-id";
import { expect, hydrated, test } from "./fixtures";

// The UI kit's render failure is thrown on purpose to reach the error page.
test.use({ allowConsoleErrors: /Deliberate render failure/ });

// One page reaches every error page (decision 003: what one shows does not depend on another). Each check is a step
// named as its test was, with soft checks, so one that fails does not hide the others.
test("the 404 and 500 pages, reached as a person would", async ({ page }) => {
  await test.step("an unknown route shows Page Not Found with its path", async () => {
    const response = await page.goto("/no/such/page?x=1");
    expect.soft(response?.status()).toBe(404);
    await expect.soft(page).toHaveTitle("Page Not Found");
    await expect.soft(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect.soft(page.getByTestId("error-message")).toHaveText("Page not found: /no/such/page");
  });

  await test.step("a failing server page shows Internal Server Error with the request's id", async () => {
    const response = await page.goto("/__dev/ui?fail=loader");
    expect.soft(response?.status()).toBe(500);
    await hydrated(page);
    await expect.soft(page).toHaveTitle("Internal Server Error");
    const id = response?.headers()["x-request-id"];
    expect.soft(id).toMatch(REQUEST_ID_PATTERN);
    await expect.soft(page.getByTestId("error-id")).toHaveText(id!);
    await expect.soft(page.locator("body")).not.toContainText("internal detail");
  });

  await test.step("a server failure during client navigation shows the failing request's id", async () => {
    await page.goto("/__dev/ui");
    await hydrated(page);
    const failed = page.waitForResponse((r) => r.url().includes("fail=loader") && r.status() === 500);
    await page.getByRole("link", { name: "Server failure" }).click();
    const id = (await failed).headers()["x-request-id"];
    expect.soft(id).toMatch(REQUEST_ID_PATTERN);
    await expect.soft(page.getByRole("heading", { name: "Internal Server Error" })).toBeVisible();
    await expect.soft(page).toHaveTitle("Internal Server Error");
    await expect.soft(page.getByTestId("error-id")).toHaveText(id!);
    await expect.soft(page.locator("body")).not.toContainText("internal detail");
  });

  await test.step("an error in the browser alone gets an id marked as a browser error", async () => {
    await page.goto("/__dev/ui");
    await hydrated(page);
    await page.getByRole("button", { name: "Browser failure" }).click();
    await expect.soft(page.getByRole("heading", { name: "Internal Server Error" })).toBeVisible();
    await expect.soft(page.getByTestId("error-id")).toHaveText(/^C-[0-9A-F]{8}$/);
  });

  await test.step("the 404 page's way out works", async () => {
    await page.goto("/__dev/ui");
    await hydrated(page);
    await page.getByRole("link", { name: "Unknown page" }).click();
    await expect.soft(page.getByTestId("error-message")).toHaveText("Page not found: /no-such-page");
    await expect.soft(page).toHaveTitle("Page Not Found");
  });

  // /platform is not theirs to find (decision 039: platform staff are kept apart from every business). A business's person on any platform path gets the unknown route's 404 in
  // the business's frame, with the business's menu (in the drawer at 390 px), never the platform's. The narrow width
  // comes last: it is the only step that changes the window.
  for (const width of [1280, 390]) {
    await test.step(`a business's person on a platform path gets the plain 404 in the business's frame at ${width} px`, async () => {
      await page.setViewportSize({ width, height: width > 980 ? 800 : 844 });
      const response = await page.goto("/platform/businesses/bus_kumasi_fresh_foods?view=figures");
      expect.soft(response?.status()).toBe(404);
      await hydrated(page);
      await expect.soft(page).toHaveTitle("Page Not Found");
      await expect.soft(page.getByTestId("error-message")).toHaveText("Page not found: /platform/businesses/bus_kumasi_fresh_foods");
      if (width <= 980) await page.getByRole("button", { name: "Open menu" }).click();
      const menu = page.getByRole("navigation", { name: "Main" });
      await expect.soft(menu.getByRole("link", { name: "Merchants" })).toBeVisible();
      await expect.soft(menu.getByRole("link", { name: "Jobs" })).toHaveCount(0);
      await expect.soft(menu.getByRole("link", { name: "Platform", exact: true })).toHaveCount(0);
    });
  }
});
