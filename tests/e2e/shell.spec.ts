import { expect, hydrated, markWindow, test, windowIsMarked } from "./fixtures";

const SECTIONS = [
  "Dashboard",
  "Approvals",
  "Merchants",
  "POS Terminals",
  "Merchant Accounts",
  "Merchant Funds",
  "Settlement History",
  "Disputes",
  "Transactions",
  "Reports",
  "Settings",
];

test.describe("default layout on a desktop", () => {
  test("side navigation with every section, a top bar, and client-side navigation", async ({ page }) => {
    await page.goto("/merchants");
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    // A link's name is its section, and for Approvals the count waiting for this person ("Approvals 8 waiting for you").
    for (const section of SECTIONS) await expect(nav.getByRole("link", { name: new RegExp(`^${section}( \\d+ waiting for you)?$`) })).toBeVisible();
    await expect(nav.getByRole("link", { name: /^Approvals \d+ waiting for you$/ })).toBeVisible();
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    await expect(nav.getByRole("link", { name: "Merchants", exact: true })).toHaveAttribute("aria-current", "page");

    await markWindow(page);
    await nav.getByRole("link", { name: "Transactions" }).click();
    await expect(page).toHaveURL(/\/transactions$/);
    await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Transactions" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Merchants", exact: true })).not.toHaveAttribute("aria-current", "page");
    expect(await windowIsMarked(page), "navigation stayed in the page").toBe(true);
  });

  test("document titles follow the route", async ({ page }) => {
    await page.goto("/__dev/ui");
    await expect(page).toHaveTitle("UI kit");
    await page.goto("/reports");
    await expect(page).toHaveTitle("Reports");
    await page.goto("/no-such-page");
    await expect(page).toHaveTitle("Page Not Found");
  });

  test("after a client-side navigation the new page's heading has the focus, not the link that was clicked", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await markWindow(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const [link, heading] of [
      ["Merchants", "Merchants"],
      ["Reports", "Reports"],
    ] as const) {
      await nav.getByRole("link", { name: link, exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeFocused();
    }
    expect(await windowIsMarked(page)).toBe(true);
  });

  test("keyboard: the skip link jumps to the content", async ({ page }) => {
    await page.goto("/settings");
    await hydrated(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });
});

test.describe("standard layout", () => {
  test.use({ signedInAs: null });

  test("the sign-in steps show a centred card without navigation", async ({ page }) => {
    for (const path of ["/login", "/login-option", "/authenticate", "/authenticate/verify", "/select-business"]) {
      await page.goto(path);
      await expect(page.locator(".standard__card"), path).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" }), path).toHaveCount(0);
    }
  });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation is a drawer opened by a button, closed by Escape, a link or the backdrop", async ({ page }) => {
    await page.goto("/merchants");
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    const menu = page.getByRole("button", { name: "Open menu" });
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");

    await menu.click();
    await expect(nav).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link", { name: "Dashboard", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();

    await menu.click();
    await nav.getByRole("link", { name: "Reports" }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(nav).toBeHidden();

    await menu.click();
    await expect(nav).toBeVisible();
    await page.mouse.click(380, 400); // the backdrop, right of the drawer
    await expect(nav).toBeHidden();
  });

  test("the page does not scroll sideways", async ({ page }) => {
    for (const path of ["/merchants", "/login", "/__dev/ui"]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test.describe("before the script has run", () => {
    test.use({ javaScriptEnabled: false });

    test("the menu button still opens the navigation", async ({ page }) => {
      await page.goto("/merchants");
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeHidden();
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(nav).toBeVisible();
      await page.getByRole("link", { name: "Close menu" }).click();
      await expect(nav).toBeHidden();
    });
  });
});

test.describe("at 981 px wide", () => {
  test.use({ viewport: { width: 981, height: 800 } });
  test("the desktop layout still applies one pixel above the breakpoint", async ({ page }) => {
    await page.goto("/merchants");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });
});

test.describe("at 980 px wide", () => {
  test.use({ viewport: { width: 980, height: 800 } });
  test("the mobile layout applies at the breakpoint", async ({ page }) => {
    await page.goto("/merchants");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
  });
});
