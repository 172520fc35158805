// Lists fit their card on a laptop, a row's main action is always in sight, and
// a phone gets the page's essentials without scrolling sideways.
import type { Page } from "@playwright/test";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

const LISTS = ["/transactions", "/merchants", "/money/merchant-accounts", "/money/merchant-funds", "/money/settlement-history", "/settings?tab=team"];

/**
 * The cells (and their content) of each list that reach past the right edge of the list's frame, with how far. A table
 * whose rows are compared down their columns (merchant funds) may scroll inside its frame instead, its first column
 * held: that one is checked by tests/e2e/finance-screens.spec.ts.
 */
async function cellsPastTheirFrame(page: Page) {
  return page.evaluate(() => {
    const past: string[] = [];
    for (const wrap of document.querySelectorAll<HTMLElement>(".table-wrap:not(:has(.data-table--compare))")) {
      const frame = wrap.getBoundingClientRect();
      for (const cell of wrap.querySelectorAll<HTMLElement>("th, td, td a, td button")) {
        const box = cell.getBoundingClientRect();
        if (box.width > 0 && box.right > frame.right + 1)
          past.push(`${cell.tagName} "${cell.textContent?.trim().slice(0, 30)}" by ${Math.round(box.right - frame.right)} px`);
      }
      if (wrap.scrollWidth > wrap.clientWidth + 1) past.push(`the list scrolls by ${wrap.scrollWidth - wrap.clientWidth} px`);
    }
    return past;
  });
}

for (const width of [1024, 1280, 1366]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: 800 } });

    // One page walks every list at this width (decision 003: where one page does not change what another shows, a test
    // opens it once). Each list is a step whose checks are soft, so a list that does not fit does not hide the others.
    test("every list's columns fit their card, and merchant funds' Transfer is in sight on each row", async ({ page }) => {
      for (const path of LISTS) {
        await test.step(`${path}: every column fits its card`, async () => {
          await page.goto(path);
          await hydrated(page);
          await expect.soft(page.locator(".table-wrap").first(), path).toBeVisible();
          expect.soft(await cellsPastTheirFrame(page), path).toEqual([]);
          expect.soft(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBeLessThanOrEqual(0);
        });
      }

      await test.step("merchant funds: each row's Transfer is in sight without scrolling sideways", async () => {
        await page.goto("/money/merchant-funds");
        await hydrated(page);
        const transfers = page.locator(".table-wrap tbody tr").getByRole("link", { name: /Transfer/ });
        await expect(transfers.first()).toBeVisible();
        for (const box of await transfers.evaluateAll((links) => links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect))) {
          expect.soft(box.left).toBeGreaterThanOrEqual(0);
          expect.soft(box.right).toBeLessThanOrEqual(width);
        }
      });
    });
  });
}

test.describe("before the script lays a list out", () => {
  test.use({ viewport: { width: 1024, height: 800 }, javaScriptEnabled: false });

  test("a list that scrolls sideways is a named group the keyboard can reach", async ({ page }) => {
    await page.goto("/transactions");
    const region = page.getByRole("group", { name: "Transactions" });
    await expect(region).toHaveAttribute("tabindex", "0");
    expect(await region.evaluate((wrap) => wrap.scrollWidth > wrap.clientWidth)).toBe(true);
    await region.focus();
    await expect(region).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((wrap) => wrap.scrollLeft)).toBeGreaterThan(0);
  });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the transactions filters wait behind one Filters button", async ({ page }) => {
    await page.goto("/transactions?channel=card");
    await hydrated(page);
    const status = page.getByRole("combobox", { name: "Status" });
    await expect(status).toBeHidden();
    const button = page.getByRole("search").locator("summary", { hasText: "Filters" });
    await expect(button).toHaveAccessibleName(/Filters.*1 on/);
    await button.click();
    await expect(status).toBeVisible();
    await status.selectOption("failed");
    await expect(page).toHaveURL(/status=failed/);
    await expect(page).toHaveURL(/channel=card/);
    await expect(button).toHaveAccessibleName(/2 on/);
  });

  test("the dashboard shows what waits for someone before its figures", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const waiting = await page.getByRole("region", { name: "Waiting for you" }).boundingBox();
    const figures = await page.getByRole("region", { name: "Key figures" }).boundingBox();
    expect(waiting && figures && waiting.y < figures.y).toBe(true);
    expect(waiting!.y).toBeLessThan(844);
  });

  test("a merchant's page links to its sections from the top", async ({ page }) => {
    await page.goto("/merchants/mer_kff_0001");
    await hydrated(page);
    const nav = page.getByRole("navigation", { name: "On this page" });
    await expect(nav).toBeInViewport();
    for (const name of ["Change history", "POS terminals"]) {
      await nav.getByRole("link", { name }).click();
      await expect(page.getByRole("heading", { level: 2, name })).toBeInViewport();
    }
    // By keyboard too.
    await page.evaluate(() => window.scrollTo(0, 0));
    await nav.getByRole("link", { name: "Recent transactions" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: "Recent transactions" })).toBeInViewport();
  });

  test("Settings → Audit does not scroll sideways, long ids and values included", async ({ page, portal }) => {
    const long = `whk_dlv_${"9f8e7d6c5b4a".repeat(4)}`;
    await portal
      .businessDb(KUMASI)
      .prepare("INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, before_json, after_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .bind(
        KUMASI,
        "usr_ama_mensah",
        "webhook.update",
        "webhook_endpoint",
        long,
        JSON.stringify({ url: `https://example.com/${long}` }),
        JSON.stringify({ url: `https://example.com/hooks/${long}` }),
        new Date().toISOString(),
      )
      .run();
    await page.goto("/settings?tab=audit");
    await hydrated(page);
    await expect(page.getByRole("table", { name: "Audit log" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
