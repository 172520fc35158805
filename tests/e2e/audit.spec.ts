// Settings → Audit in the browser, as Kofi Boateng (Administrator of Kumasi Fresh Foods): the tab lists the business's
// entries newest first with before/after values, the address and the browser; he filters by a person and an action,
// pages, and downloads the CSV of the filtered set; the tab fits 390 px. Screenshots at 1280 and 390 px.
import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import type { Portal } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";

const ESI_NAME = "Ɔdɔmankoma Ɛsi 🌺 Owusu";
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

// Esi's name (with Ɔ, Ɛ and an emoji for these tests) is hers again afterwards: later tests in this portal find her by it.
test.afterAll(async ({ portal }) => {
  await portal.businessDb(KUMASI).prepare("UPDATE users SET name = 'Esi Owusu' WHERE id = 'usr_esi_owusu'").run();
});

/** 40 of Esi's merchant updates and 20 of Ama's logins, 1 Oct 2026, an hour apart (once per portal). */
async function seedEntries(portal: Portal): Promise<void> {
  const db = portal.businessDb(KUMASI);
  if (await db.prepare("SELECT 1 FROM audit_log WHERE action = 'merchant.update' AND business_id = ?").bind(KUMASI).first()) return;
  await db.prepare("UPDATE users SET name = ? WHERE id = 'usr_esi_owusu'").bind(ESI_NAME).run();
  const statements = [];
  for (let i = 0; i < 60; i += 1) {
    const esi = i < 40;
    statements.push(
      db
        .prepare(
          "INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, before_json, after_json, ip, user_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          KUMASI,
          esi ? "usr_esi_owusu" : "usr_ama_mensah",
          esi ? "merchant.update" : "terminal.assign",
          esi ? "merchant" : "terminal",
          esi ? `mer_${i}` : `ter_${i}`,
          JSON.stringify({ name: `Old Stall ${i}`, city: "Kumasi" }),
          JSON.stringify({ name: `Ɛsi's 🍲 Chop Bar ${i}`, city: "Kumasi" }),
          `203.0.113.${i}`,
          UA,
          new Date(Date.parse("2026-10-01T06:00:00.000Z") + i * 60_000).toISOString(),
        ),
    );
  }
  await db.batch(statements);
}

const auditTab = (page: Page) => page.getByRole("region", { name: "Audit log" });

test("Kofi filters the audit log by a person and an action, pages, and downloads the CSV", async ({ page, portal }) => {
  await seedEntries(portal);
  await page.goto("/settings");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Audit" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=audit$/);
  const tab = auditTab(page);
  await expect(tab.getByRole("table", { name: "Audit log" })).toBeVisible();

  await tab.getByLabel("Person").selectOption({ label: ESI_NAME });
  await tab.getByLabel("Action").selectOption({ label: "merchant update" });
  await tab.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/settings\?tab=audit&person=usr_esi_owusu&action=merchant\.update$/);

  // Newest first: Esi's last update, with what changed, from where and in which browser.
  const first = tab.getByRole("row").nth(1);
  await expect(first).toContainText("01/10/2026, 6:39 AM");
  await expect(first).toContainText(ESI_NAME);
  await expect(first).toContainText("merchant update");
  await expect(first).toContainText("name Old Stall 39 → Ɛsi's 🍲 Chop Bar 39");
  await expect(first).not.toContainText("city");
  await expect(first).toContainText("203.0.113.39");
  await expect(first).toContainText("Chrome 130");
  await expect(tab.getByRole("row")).toHaveCount(26);
  await lookAt(page, { path: "tmp/audit-1280.png" });

  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(tab.getByRole("row")).toHaveCount(16);
  await expect(tab.getByRole("row").nth(1)).toContainText("203.0.113.14");
  await expect(tab.getByRole("row").last()).toContainText("203.0.113.0");
  await expect(tab.getByRole("table", { name: "Audit log" })).not.toContainText("terminal assign");

  const [download] = await Promise.all([page.waitForEvent("download"), tab.getByRole("link", { name: "Export CSV" }).click()]);
  const csv = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\r\n");
  expect(lines).toHaveLength(41);
  expect(lines[1]).toContain(ESI_NAME);
  expect(lines[1]).toContain("merchant.update");
  expect(csv).not.toContain("terminal.assign");
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the Audit tab fits without sideways scrolling", async ({ page, portal }) => {
    await seedEntries(portal);
    await page.goto("/settings?tab=audit");
    await hydrated(page);
    await expect(auditTab(page).getByRole("table", { name: "Audit log" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: "tmp/audit-390.png" });
    await auditTab(page).getByRole("table", { name: "Audit log" }).scrollIntoViewIfNeeded();
    await lookAt(page, { path: "tmp/audit-390-rows.png" });
  });
});
