// POS terminals and points of sale in Chromium: the fleet list (filter, search,
// pages, the silent link), a device's block/unblock and assign/unassign with
// reasons, the point-of-sale page, adding a point of sale for approval, a
// Viewer's read-only view, and 390 px without sideways scrolling.
import type { Page } from "@playwright/test";
import { ACCRA, KUMASI } from "../support/tenants";
import { axeViolations, expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { mintSession } from "../support/sign-in";

const SHOTS = "test-results/screens";

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect.soft(overflow, "sideways scroll at this width").toBeLessThanOrEqual(0);
}

test.describe("the fleet", () => {
  test.beforeAll(async ({ portal }) => {
    // Enough terminals under one prefix for a second page, two of them silent in service.
    const db = await portal.db();
    const now = new Date().toISOString();
    await db.batch(
      Array.from({ length: 28 }, (_, i) =>
        db
          .prepare(
            `INSERT OR IGNORE INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, last_seen_at, created_at, updated_at)
             VALUES (?, ?, ?, 'PAX A80', 'Prolin 2.6.33', ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            `e2e_t_${i}`,
            KUMASI,
            `E2E${String(i).padStart(7, "0")}`,
            i < 2 ? "active" : "in_stock",
            i < 2 ? "mer_kff_0002" : null,
            i < 2 ? "pos_kff_00003" : null,
            i < 2 ? Date.now() - 3 * 24 * 60 * 60 * 1000 : null,
            now,
            now,
          ),
      ),
    );
  });

  // One page reads the fleet, an empty search and a point of sale (decision 003: what one shows does not depend on
  // another); each check is a step named as its test was, with soft checks, so one that fails does not hide the others.
  test("the fleet, an empty search and a point of sale, read in one page", async ({ page }) => {
    await test.step("filter by status, search by serial, page, and follow the silent link", async () => {
      await page.goto("/pos-terminals");
      await hydrated(page);
      await expect.soft(page).toHaveTitle(/POS Terminals/);
      await expect.soft(page.getByRole("heading", { level: 1, name: "POS Terminals" })).toBeVisible();
      await lookAt(page, { path: `${SHOTS}/pos-terminals-desktop.png` });

      await page.getByLabel("Status").selectOption("faulty");
      await expect.soft(page).toHaveURL(/status=faulty/);
      const rows = page.locator("tbody tr");
      await expect.soft(rows).toHaveCount(1);
      await expect.soft(rows.first()).toContainText("1240223976");
      await expect.soft(rows.first()).toContainText("Sika Mpo Fresh Mart Enterprise");

      await page.goto("/pos-terminals");
      await hydrated(page);
      await page.getByLabel("Search by serial number").fill("e2e");
      await page.getByLabel("Search by serial number").press("Enter");
      await expect.soft(page.getByText("Showing 1–25 of 28 terminals")).toBeVisible();
      await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
      await expect.soft(page.getByText("Showing 26–28 of 28 terminals")).toBeVisible();
      await expect.soft(rows).toHaveCount(3);
      await expect.soft(rows.first()).toContainText("E2E0000025");

      await page.goto("/pos-terminals");
      await hydrated(page);
      const summary = page.getByRole("region", { name: /silent terminal/ });
      await expect.soft(summary).toContainText(/\d+ silent terminals?/);
      await summary.getByRole("link", { name: "Show silent terminals" }).click();
      await expect.soft(page).toHaveURL(/silent=1/);
      await expect.soft(page.locator("tbody tr").filter({ hasText: "E2E0000000" })).toHaveCount(1);
      await expect.soft(page.locator("tbody tr").filter({ hasText: "E2E0000005" })).toHaveCount(0);
      await expect.soft(page.getByRole("link", { name: "Show all terminals" })).toBeVisible();
    });

    await test.step("an empty search says so", async () => {
      await page.goto("/pos-terminals?q=NOSUCHSERIAL");
      await expect.soft(page.getByRole("heading", { name: "No terminal matches" })).toBeVisible();
    });

    await test.step("a point of sale shows the branch, its terminals (linked) and recent activity with masked payers", async () => {
      await page.goto("/merchants/mer_kff_0001/point-of-sale/pos_kff_00002");
      await hydrated(page);
      await expect.soft(page).toHaveTitle(/Point of Sale/);
      await expect.soft(page.getByRole("heading", { level: 1, name: "Adum Shop" })).toBeVisible();
      await expect.soft(page.getByRole("region", { name: "Branch" })).toContainText("Ashanti");
      const activity = page.getByRole("region", { name: "Recent activity" });
      await expect.soft(activity.locator("tbody tr").first()).toBeVisible();
      await expect.soft(activity).not.toContainText(/233\d{9}/);
      await lookAt(page, { path: `${SHOTS}/point-of-sale-desktop.png`, fullPage: true });
      await page
        .getByRole("region", { name: "Terminals" })
        .getByRole("link", { name: /1240219648/ })
        .click();
      await expect.soft(page.getByRole("heading", { level: 1, name: "1240219648" })).toBeVisible();
    });
  });
});

test.describe("silence", () => {
  test("a terminal just assigned, never seen, is not silent; a day after its assignment with no sign from it, it is", async ({ page, portal }) => {
    const db = await portal.db();
    const maker = await db.prepare("SELECT id FROM users WHERE email = 'esi.owusu@example.com'").first<string>("id");
    const now = Date.now();
    const place = async (id: string, serial: string, assignedAgoMs: number) => {
      const at = new Date(now - assignedAgoMs).toISOString();
      await db.batch([
        db
          .prepare(
            `INSERT OR REPLACE INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, last_seen_at, created_at, updated_at)
             VALUES (?, ?, ?, 'PAX A80', 'Prolin 2.6.33', 'assigned', 'mer_kff_0002', 'pos_kff_00003', NULL, ?, ?)`,
          )
          .bind(id, KUMASI, serial, at, at),
        db
          .prepare(
            "INSERT INTO terminal_assignments (business_id, terminal_id, point_of_sale_id, assigned_by, assigned_at) VALUES (?, ?, 'pos_kff_00003', ?, ?)",
          )
          .bind(KUMASI, id, maker, at),
      ]);
    };
    await place("e2e_silence_new", "SLN0000001", 60_000);
    await place("e2e_silence_old", "SLN0000002", 25 * 3_600_000);
    await page.goto("/pos-terminals/device-details/e2e_silence_new");
    await expect(page.getByRole("region", { name: "Details" })).toContainText("Never");
    await page.goto("/pos-terminals?silent=1&q=SLN");
    const rows = page.locator("tbody tr");
    await expect(rows.filter({ hasText: "SLN0000002" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "SLN0000001" })).toHaveCount(0);
  });
});

test.describe("a device", () => {
  test("block and unblock with a reason, written to the history of the page", async ({ page, portal }) => {
    await page.goto("/pos-terminals/device-details/trm_kff_00004");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "1850924510" })).toBeVisible();
    await lookAt(page, { path: `${SHOTS}/device-details-desktop.png`, fullPage: true });

    const block = page.getByRole("form", { name: "Block" });
    await block.getByRole("button", { name: "Block terminal" }).click();
    await expect(block.getByText("Give a reason.")).toBeVisible();
    await block.getByLabel("Reason").fill("Reported stolen by the branch manager");
    await block.getByRole("button", { name: "Block terminal" }).click();
    await expect(page.getByText("Terminal blocked.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Details" })).toContainText("Blocked");

    const unblock = page.getByRole("form", { name: "Unblock" });
    await unblock.getByLabel("Reason").fill("Recovered");
    await unblock.getByRole("button", { name: "Unblock terminal" }).click();
    await expect(page.getByText("Terminal unblocked.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Details" })).toContainText("Active");

    const db = await portal.db();
    const { results } = await db
      .prepare("SELECT action FROM audit_log WHERE entity = 'terminal' AND entity_id = 'trm_kff_00004' ORDER BY id")
      .all<{ action: string }>();
    expect(results.map((r) => r.action)).toEqual(["terminal.block", "terminal.unblock"]);
  });

  test("assign a terminal in stock to a point of sale, then unassign it", async ({ page, browser, portal }) => {
    // Kofi asks; the terminal moves only once another person (Ama) approves: it decides whose money its payments become.
    await page.goto("/pos-terminals/device-details/trm_kff_00009");
    await hydrated(page);
    await page.getByLabel("Merchant").selectOption({ label: "Suame Bread & Pastries Enterprise" });
    await expect(page).toHaveURL(/assignMerchant=mer_kff_0002/);
    const assign = page.getByRole("form", { name: /Points of sale of/ });
    await assign.getByLabel("Point of sale").selectOption({ label: "Bantama Branch (Kumasi)" });
    await expect(assign.getByLabel("Reason")).toHaveCount(0);
    await assign.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByText("Assignment sent for approval: another person must approve it before the terminal stands there.")).toBeVisible();
    const details = page.getByRole("region", { name: "Details" });
    await expect(details).toContainText("In stock");
    const waiting = page.getByRole("link", { name: "Open the request" });
    await expect(waiting).toBeVisible();
    await expect(page.getByRole("form", { name: /Points of sale of/ })).toHaveCount(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await lookAt(page, { path: `tmp/device-assignment-waits-${width}.png`, fullPage: true, animations: "disabled" });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await axeViolations(page)).toEqual([]);
    const requestPath = (await waiting.getAttribute("href"))!;

    // Kofi cannot decide his own request.
    await page.goto(requestPath);
    await expect(page).toHaveTitle("Terminal Request");
    await expect(page.getByRole("button", { name: /^Approve/ })).toHaveCount(0);

    const ama = await browser.newContext({ baseURL: portal.url });
    await ama.addCookies((await mintSession(await portal.db(), portal.url, "ama.mensah@example.com", KUMASI)).browserCookies);
    const amaPage = await ama.newPage();
    for (const width of [1280, 390]) {
      await amaPage.setViewportSize({ width, height: 900 });
      await amaPage.goto(requestPath);
      await expect(amaPage.getByRole("main")).toContainText("Bantama Branch");
      await expect(amaPage.getByRole("main")).toContainText("Suame Bread & Pastries Enterprise");
      await lookAt(amaPage, { path: `tmp/terminal-request-${width}.png`, fullPage: true });
    }
    expect(await axeViolations(amaPage)).toEqual([]);
    await hydrated(amaPage);
    await clickChecked(amaPage, portal, amaPage.getByRole("button", { name: /^Approve/ }));
    await expect(amaPage.getByTestId("alert")).toContainText("Approved");
    await ama.close();

    await page.goto("/pos-terminals/device-details/trm_kff_00009");
    await hydrated(page);
    await expect(details).toContainText("Bantama Branch");
    await expect(details).toContainText("Assigned");
    await expect(page.getByRole("region", { name: "Assignment history" })).toContainText("Current");

    const unassign = page.getByRole("form", { name: "Unassign" });
    await unassign.getByLabel("Reason").fill("Till removed");
    await unassign.getByRole("button", { name: "Unassign terminal" }).click();
    await expect(page.getByText("Terminal unassigned.")).toBeVisible();
    await expect(details).toContainText("In stock");
    await expect(page.getByRole("region", { name: "Assignment history" })).not.toContainText("Current");
  });
});

// The fleet, a device and a point of sale at 390 px in one page, a step each (soft checks).
test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the fleet, a device and a point of sale have no sideways scroll", async ({ page }) => {
    await test.step("the fleet: 390 px: no sideways scroll", async () => {
      await page.goto("/pos-terminals");
      await hydrated(page);
      await noSidewaysScroll(page);
      await lookAt(page, { path: `${SHOTS}/pos-terminals-390.png` });
    });

    await test.step("a device: 390 px: no sideways scroll", async () => {
      await page.goto("/pos-terminals/device-details/trm_kff_00001");
      await hydrated(page);
      await noSidewaysScroll(page);
      await lookAt(page, { path: `${SHOTS}/device-details-390.png`, fullPage: true });
    });

    await test.step("a point of sale: 390 px: no sideways scroll", async () => {
      await page.goto("/merchants/mer_kff_0001/point-of-sale/pos_kff_00002");
      await hydrated(page);
      await noSidewaysScroll(page);
      await lookAt(page, { path: `${SHOTS}/point-of-sale-390.png`, fullPage: true });
    });
  });
});

test.describe("as Esi Owusu (Operations)", () => {
  test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

  test("adds a point of sale: errors by field first, then it is sent for approval", async ({ page }) => {
    await page.goto("/merchants/mer_kff_0003/add-point-of-sale");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "Add point of sale" })).toBeVisible();
    await lookAt(page, { path: `${SHOTS}/add-point-of-sale-desktop.png`, fullPage: true });
    await page.getByLabel("Name").fill("Kejetia Stall");
    await page.getByLabel("Contact phone").fill("12");
    await page.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByText("Enter the address.")).toBeVisible();
    await expect(page.getByText("Enter a Ghana phone number, like 024 412 3456 or 233244123456.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Kejetia Stall");
    await page.getByLabel("Address").fill("Kejetia Market, Block C");
    await page.getByLabel("Contact phone").fill("024 412 3456");
    await page.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByText(/sent for approval/i).first()).toBeVisible();
    await expect(page).toHaveURL(/\/merchants\/mer_kff_0003$/);
  });

  test("asks to change a point of sale: nothing changes until approved, and the page says a request waits", async ({ page }) => {
    await page.goto("/merchants/mer_kff_0001/point-of-sale/pos_kff_00001");
    await hydrated(page);
    const branch = page.getByRole("region", { name: "Branch" });
    await page.getByText("Edit details").click();
    await page.getByLabel("Address").fill("Prempeh II Street, opposite the post office");
    await page.getByRole("button", { name: "Send changes for approval" }).click();
    await expect(page.getByText("Changes sent for approval: another person must approve them before they take effect.")).toBeVisible();
    await expect(page.getByText(/A request to change this point of sale, made by Esi Owusu/)).toBeVisible();
    await expect(branch).not.toContainText("opposite the post office");
    await expect(page.getByText("Edit details")).toHaveCount(0);
  });

  test("390 px: the add form has no sideways scroll", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/merchants/mer_kff_0003/add-point-of-sale");
    await hydrated(page);
    await noSidewaysScroll(page);
    await lookAt(page, { path: `${SHOTS}/add-point-of-sale-390.png`, fullPage: true });
  });
});

test.describe("as Yaw Asante (Viewer)", () => {
  test.use({ signedInAs: { email: "yaw.asante@example.com", businessId: ACCRA } });

  test("sees the fleet, a device and a point of sale but no actions", async ({ page }) => {
    await page.goto("/pos-terminals");
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
    await page.goto("/pos-terminals/device-details/trm_amp_00001");
    await expect(page.getByRole("heading", { level: 1, name: "671-773-278" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Actions", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button")).not.toContainText(["Block terminal"]);
    await page.goto("/merchants/mer_amp_0001/point-of-sale/pos_amp_00001");
    await expect(page.getByRole("heading", { level: 1, name: "Achimota Shop" })).toBeVisible();
    await expect(page.getByText("Edit details")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Request deactivation" })).toHaveCount(0);
  });
});
