import { axeViolations, expect, hydrated, lookAt, markWindow, test, windowIsMarked } from "./fixtures";

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
  // One page through the desktop shell's checks (decision 003): each opens its own page first, so none sees another's
  // state; each is a step with soft checks, so one that fails does not hide the others.
  test("side navigation, titles, focus after a navigation and the skip link", async ({ page }) => {
    await test.step("side navigation with every section, a top bar, and client-side navigation", async () => {
      await page.goto("/merchants");
      await hydrated(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect.soft(nav).toBeVisible();
      // A link's name is its section, and for Approvals the count waiting for this person ("Approvals 8 waiting for you").
      for (const section of SECTIONS) await expect.soft(nav.getByRole("link", { name: new RegExp(`^${section}( \\d+ waiting for you)?$`) })).toBeVisible();
      await expect.soft(nav.getByRole("link", { name: /^Approvals \d+ waiting for you$/ })).toBeVisible();
      await expect.soft(page.getByRole("banner")).toBeVisible();
      await expect.soft(page.getByRole("button", { name: "Open menu" })).toBeHidden();
      await expect.soft(nav.getByRole("link", { name: "Merchants", exact: true })).toHaveAttribute("aria-current", "page");

      await markWindow(page);
      await nav.getByRole("link", { name: "Transactions" }).click();
      await expect.soft(page).toHaveURL(/\/transactions$/);
      await expect.soft(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
      await expect.soft(nav.getByRole("link", { name: "Transactions" })).toHaveAttribute("aria-current", "page");
      await expect.soft(nav.getByRole("link", { name: "Merchants", exact: true })).not.toHaveAttribute("aria-current", "page");
      expect.soft(await windowIsMarked(page), "navigation stayed in the page").toBe(true);
    });
    await test.step("document titles follow the route", async () => {
      await page.goto("/__dev/ui");
      await expect.soft(page).toHaveTitle("UI kit");
      await page.goto("/reports");
      await expect.soft(page).toHaveTitle("Reports");
      await page.goto("/no-such-page");
      await expect.soft(page).toHaveTitle("Page Not Found");
    });
    await test.step("after a client-side navigation the new page's heading has the focus, not the link that was clicked", async () => {
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
        await expect.soft(page.getByRole("heading", { level: 1, name: heading })).toBeFocused();
      }
      expect.soft(await windowIsMarked(page)).toBe(true);
    });
    await test.step("keyboard: the skip link jumps to the content", async () => {
      await page.goto("/settings");
      await hydrated(page);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect.soft(skip).toBeFocused();
      await page.keyboard.press("Enter");
      await expect.soft(page.locator("main#main")).toBeFocused();
    });
  });
});

test.describe("keyboard on a list page", () => {
  test("from the top of the approvals list to the first request in four keys, and open it", async ({ page }) => {
    await page.goto("/approvals");
    await hydrated(page);
    const list = page.getByRole("group", { name: "Approval requests" });
    const first = list.locator("tbody tr").first();
    await expect(first).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Tab");
    const skipToList = page.getByRole("link", { name: "Skip to the list" });
    await expect(skipToList).toBeFocused();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await lookAt(page, { path: `tmp/skip-to-list-${width}.png`, animations: "disabled" });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const focused = first.locator(":focus");
    await expect(focused).toHaveCount(1);
    // The first request's own link (a checker choosing several starts at the row's checkbox, one Tab before it).
    const link = first.getByRole("link").first();
    if (!(await link.evaluate((element) => element === document.activeElement))) await page.keyboard.press("Tab");
    await expect(link).toBeFocused();
    const href = await link.getAttribute("href");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${href}$`));
  });

  test("a page without a list has no link to one", async ({ page }) => {
    await page.goto("/settings");
    await hydrated(page);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const skipToList = page.locator('a[href="#list"]');
    await expect(skipToList).toBeHidden();
    expect(await skipToList.evaluate((element) => element === document.activeElement)).toBe(false);
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

  // One page for both (decision 003): the second opens its own pages.
  test("the navigation is a drawer, and the page does not scroll sideways", async ({ page }) => {
    await test.step("the navigation is a drawer opened by a button, closed by Escape, a link or the backdrop", async () => {
      await page.goto("/merchants");
      await hydrated(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      const menu = page.getByRole("button", { name: "Open menu" });
      await expect.soft(nav).toBeHidden();
      await expect.soft(menu).toHaveAttribute("aria-expanded", "false");

      await menu.click();
      await expect.soft(nav).toBeVisible();
      await expect.soft(menu).toHaveAttribute("aria-expanded", "true");
      await expect.soft(nav.getByRole("link", { name: "Dashboard", exact: true })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect.soft(nav).toBeHidden();
      await expect.soft(menu).toBeFocused();

      await menu.click();
      await nav.getByRole("link", { name: "Reports" }).click();
      await expect.soft(page).toHaveURL(/\/reports$/);
      await expect.soft(nav).toBeHidden();

      await menu.click();
      await expect.soft(nav).toBeVisible();
      await page.mouse.click(380, 400); // the backdrop, right of the drawer
      await expect.soft(nav).toBeHidden();
    });
    await test.step("the page does not scroll sideways", async () => {
      for (const path of ["/merchants", "/login", "/__dev/ui"]) {
        await page.goto(path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect.soft(overflow, path).toBeLessThanOrEqual(0);
      }
    });
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

// Either side of the breakpoint in one page (decision 003): the viewport is set before each opens its page.
test("the breakpoint: the desktop layout one pixel above it, the mobile layout at it", async ({ page }) => {
  await test.step("at 981 px wide, the desktop layout still applies one pixel above the breakpoint", async () => {
    await page.setViewportSize({ width: 981, height: 800 });
    await page.goto("/merchants");
    await expect.soft(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect.soft(page.getByRole("button", { name: "Open menu" })).toBeHidden();
  });
  await test.step("at 980 px wide, the mobile layout applies at the breakpoint", async () => {
    await page.setViewportSize({ width: 980, height: 800 });
    await page.goto("/merchants");
    await expect.soft(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect.soft(page.getByRole("button", { name: "Open menu" })).toBeVisible();
  });
});
