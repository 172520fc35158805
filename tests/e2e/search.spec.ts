// The top bar's one search box, as Kofi Boateng (Administrator of Kumasi Fresh Foods) uses it: every kind it finds
// from what a person has to hand, by keyboard, within his business and his role, on a connection that drops requests,
// at 1280 and 390 px, checked by axe.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { ACCRA, KUMASI } from "../support/tenants";
import { expect, hydrated, lookAt, test, type SignedInAs } from "./fixtures";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const ABENA: SignedInAs = { email: "abena.darko@example.com", businessId: KUMASI };

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      rules: { "scrollable-region-focusable": { enabled: true } },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** The dialog the top bar opens, its box, and the group of results of one kind. */
function searchBox(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Search" });
  const box = dialog.getByRole("combobox", { name: "Search" });
  const group = (label: string) => dialog.getByRole("group", { name: label });
  return { dialog, box, group, status: dialog.getByTestId("search-status") };
}

async function openSearch(page: Page) {
  await page.goto("/");
  await hydrated(page);
  await page.keyboard.press("/");
  const search = searchBox(page);
  await expect(search.box).toBeFocused();
  return search;
}

test("finds each kind from what a person has to hand, each result a link to its page", async ({ page, portal }) => {
  const db = portal.businessDb(KUMASI);
  const one = async <T>(sql: string, ...binds: unknown[]) => {
    const row = await db
      .prepare(sql)
      .bind(KUMASI, ...binds)
      .first<T>();
    if (!row) throw new Error(`nothing in the seed for ${sql}`);
    return row;
  };
  const payment = await one<{ reference: string }>(
    "SELECT reference FROM transactions WHERE business_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 40",
  );
  // A payer's phone whose last four digits no reference and no card end in, so the group holds only its payments.
  const phone = await one<{ tail: string }>(
    `SELECT substr(customer_msisdn, -4) AS tail FROM transactions WHERE business_id = ?1 AND customer_msisdn IS NOT NULL GROUP BY tail HAVING COUNT(*) <= 3
       AND tail NOT IN (SELECT substr(reference, -4) FROM transactions WHERE business_id = ?1)
       AND tail NOT IN (SELECT card_last4 FROM transactions WHERE business_id = ?1 AND card_last4 IS NOT NULL) ORDER BY tail LIMIT 1`,
  );
  const merchant = await one<{ id: string; name: string; code: string }>(
    "SELECT id, name, code FROM merchants WHERE business_id = ? ORDER BY id LIMIT 1 OFFSET 2",
  );
  const terminal = await one<{ id: string; serial: string }>("SELECT id, serial FROM terminals WHERE business_id = ? ORDER BY id LIMIT 1 OFFSET 1");
  // The seed has no disputes: one closed (so no list or count of open ones sees it), taken away again after the test.
  const disputed = await one<{ id: number; merchantId: string; amount: number }>(
    "SELECT id, merchant_id AS merchantId, amount FROM transactions WHERE business_id = ? AND status = 'successful' ORDER BY id LIMIT 1",
  );
  const dispute = { id: "dsp_5eac4f00d15a7e0000000000000000e2" };
  await db
    .prepare(
      `INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at, closed_at)
       VALUES (?, ?, ?, ?, '4837', ?, ?, 'lost', ?, ?)`,
    )
    .bind(dispute.id, KUMASI, disputed.merchantId, disputed.id, disputed.amount, Date.now() - 86_400_000, Date.now() - 10 * 86_400_000, Date.now() - 86_400_000)
    .run();
  const settlement = await one<{ id: string; reference: string }>(
    "SELECT id, reference FROM settlements WHERE business_id = ? ORDER BY period_start DESC LIMIT 1",
  );

  try {
    const { dialog, box, group, status } = await openSearch(page);
    await expect(status).toContainText("Find a payment by its reference or last digits");
    const finds = async (typed: string, label: string, title: string | RegExp) => {
      await box.fill(typed);
      await expect(group(label).getByRole("option", { name: title }).first()).toBeVisible();
    };
    await finds(payment.reference.slice(-6), "Payments", payment.reference);
    // The whole reference, as a payer reads it out, finds it too, and its result opens the payment's page.
    await finds(payment.reference, "Payments", payment.reference);
    await expect(group("Payments").getByRole("option", { name: payment.reference }).first()).toHaveAttribute("href", /^\/transactions\?tx=\d+$/);
    await finds(phone.tail, "Payments", new RegExp(`\\*{5}${phone.tail}`));
    await finds(merchant.name.toUpperCase(), "Merchants", merchant.name);
    await finds(merchant.code.replace("-", " ").toLowerCase(), "Merchants", merchant.name);
    await finds(terminal.serial.toLowerCase(), "POS terminals", terminal.serial);
    await finds("esi owusu", "People", "Esi Owusu");
    // A person's result opens the Team tab, where a person's access is managed.
    await expect(group("People").getByRole("option", { name: "Esi Owusu" }).first()).toHaveAttribute("href", "/settings?tab=team");
    await finds("abena.darko@", "People", "Abena Darko");
    const esi = await one<{ phone: string }>("SELECT contact_phone AS phone FROM memberships WHERE business_id = ? AND user_id = 'usr_esi_owusu'");
    await finds(esi.phone.slice(-6), "People", "Esi Owusu");
    await finds(dispute.id.slice(0, 12), "Disputes", dispute.id);
    await finds(settlement.id, "Settlements", settlement.reference);
    await expect(status).toHaveText(/^\d+ results? for “/);

    // Each result is a link to its record's page: the settlement opens in its list's panel.
    const option = group("Settlements").getByRole("option", { name: settlement.reference });
    await expect(option).toHaveAttribute("href", `/money/settlement-history?s=${settlement.id}`);
    await option.click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("settlement-detail")).toContainText(settlement.reference);

    await page.keyboard.press("/");
    await box.fill(terminal.serial);
    await group("POS terminals").getByRole("option", { name: terminal.serial }).click();
    await expect(page).toHaveURL(new RegExp(`/pos-terminals/device-details/${terminal.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: terminal.serial })).toBeVisible();
  } finally {
    await db.prepare("DELETE FROM disputes WHERE id = ?").bind(dispute.id).run();
  }
});

test("keyboard first: / opens it unless typing, arrows move, Enter opens, Escape closes", async ({ page, portal }) => {
  const db = portal.businessDb(KUMASI);
  const { results } = await db
    .prepare(
      "SELECT id, name FROM merchants WHERE business_id = ? AND (instr(lower(name), 'enterprise') > 0 OR instr(lower(trading_name), 'enterprise') > 0) ORDER BY name COLLATE NOCASE, id LIMIT 3",
    )
    .bind(KUMASI)
    .all<{ id: string; name: string }>();
  expect(results.length).toBeGreaterThan(1);

  const { dialog, box, group } = await openSearch(page);
  await box.fill("enterprise");
  const merchants = group("Merchants").getByRole("option");
  await expect(merchants.first()).toHaveAccessibleName(new RegExp(results[0]!.name));
  // The first result is marked; the focus stays in the box while the arrows move the mark.
  await expect(box).toHaveAttribute("aria-expanded", "true");
  const marked = async () => dialog.locator(`[id="${await box.getAttribute("aria-activedescendant")}"]`);
  await expect(await marked()).toHaveAccessibleName(new RegExp(results[0]!.name));
  await box.press("ArrowDown");
  await expect(await marked()).toHaveAccessibleName(new RegExp(results[1]!.name));
  await expect(merchants.nth(1)).toHaveAttribute("aria-selected", "true");
  await box.press("ArrowUp");
  await box.press("ArrowDown");
  await expect(box).toBeFocused();
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/merchants/${results[1]!.id}$`));
  await expect(dialog).toHaveCount(0);

  // Escape closes it and gives the focus back to the top bar's button.
  await page.keyboard.press("/");
  await expect(box).toBeFocused();
  await box.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Search" })).toBeFocused();

  // In a field, / is a character.
  await page.goto("/transactions");
  await hydrated(page);
  const field = page.getByRole("searchbox", { name: "Search transactions" });
  await field.click();
  await page.keyboard.type("a/b");
  await expect(field).toHaveValue("a/b");
  await expect(dialog).toHaveCount(0);
});

test("within the business and the role: another business's records and the people a role may not see are never found", async ({ page, portal }) => {
  const accra = portal.businessDb(ACCRA);
  const kumasi = portal.businessDb(KUMASI);
  const theirs = (await accra
    .prepare("SELECT id, name FROM merchants WHERE business_id = ? ORDER BY id LIMIT 1")
    .bind(ACCRA)
    .first<{ id: string; name: string }>())!;
  expect(await kumasi.prepare("SELECT COUNT(*) AS n FROM merchants WHERE business_id = ? AND name = ?").bind(KUMASI, theirs.name).first("n")).toBe(0);
  const settlement = (await accra.prepare("SELECT id FROM settlements WHERE business_id = ? LIMIT 1").bind(ACCRA).first<{ id: string }>())!;

  const { box, status, dialog } = await openSearch(page);
  for (const typed of [theirs.name, theirs.id, settlement.id]) {
    await box.fill(typed);
    await expect(status).toHaveText(`Nothing found for “${typed}”.`);
    await expect(dialog.getByRole("option")).toHaveCount(0);
  }
  // Kofi administers the team: people are found.
  const kofi = await (await page.request.get("/search?q=Esi%20Owusu")).json();
  expect(kofi.groups.map((g: { kind: string }) => g.kind)).toContain("person");
});

test.describe("as Abena Darko (Finance)", () => {
  test.use({ signedInAs: ABENA });

  test("finds payments and merchants but no people, whose list her role may not open", async ({ page }) => {
    const { box, status } = await openSearch(page);
    await box.fill("Esi Owusu");
    await expect(status).toHaveText("Nothing found for “Esi Owusu”.");
    const answer = await (await page.request.get("/search?q=Owusu")).json();
    expect(answer.groups).toEqual([]);
  });
});

test("Ghanaian letters and emoji are found in either case and shown as written", async ({ page, portal }) => {
  const db = portal.businessDb(KUMASI);
  const merchant = (await db
    .prepare("SELECT id, name FROM merchants WHERE business_id = ? ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ id: string; name: string }>())!;
  const written = "Ɔkɔdeɛ Ŋkwa Foods 🍍";
  await db.prepare("UPDATE merchants SET name = ? WHERE id = ?").bind(written, merchant.id).run();
  try {
    const { box, group } = await openSearch(page);
    for (const typed of ["ɔkɔdeɛ ŋkwa", "ƆKƆDEƐ", "Foods 🍍"]) {
      await box.fill(typed);
      await expect(group("Merchants").getByRole("option", { name: written })).toBeVisible();
    }
  } finally {
    await db.prepare("UPDATE merchants SET name = ? WHERE id = ?").bind(merchant.name, merchant.id).run();
  }
});

test.describe("on a weak connection", () => {
  // The request the test cuts off, as the line would, is logged by Chromium.
  test.use({ allowConsoleErrors: /net::ERR_INTERNET_DISCONNECTED/ });

  test("a newer text aborts the older request, a lost one is said, and typing again recovers", async ({ page }) => {
    const { box, status, group } = await openSearch(page);
    // The first request hangs, as on a bad line; the box must not wait for it.
    let held = 0;
    const asked = (q: string) => (url: URL) => url.pathname === "/search" && url.searchParams.get("q") === q;
    await page.route(asked("Esi"), () => {
      held += 1;
    });
    const first = page.waitForRequest((request) => request.url().endsWith("/search?q=Esi"));
    const aborted = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/search?q=Esi"));
    await box.fill("Esi");
    await first;
    await expect(status).toHaveText("Searching…");
    await box.fill("Abena");
    await aborted;
    await expect(group("People").getByRole("option", { name: /Abena Darko/ })).toBeVisible();
    await expect(status).toHaveText(/for “Abena”\.$/);
    expect(held).toBe(1);

    await page.route(asked("Kofi"), (route) => route.abort("internetdisconnected"));
    await box.fill("Kofi");
    await expect(status).toHaveText("The search did not answer. Check your connection; it tries again as you type.");
    await box.fill("Kofi B");
    await expect(group("People").getByRole("option", { name: /Kofi Boateng/ })).toBeVisible();
  });
});

for (const width of [1280, 390]) {
  test(`at ${width} px: the top bar's search opens, shows its results, and axe finds nothing`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Search" });
    await expect(button).toBeVisible();
    // The top bar keeps its place for the button: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await lookAt(page, { path: testInfo.outputPath(`search-closed-${width}.png`) });
    await button.click();
    const { box, group, dialog } = searchBox(page);
    await expect(box).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await box.fill("Esi Owusu");
    await expect(group("People").getByRole("option").first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing is cut off sideways: the dialog fits the screen.
    const fits = await dialog.evaluate((element) => element.getBoundingClientRect().right <= window.innerWidth && element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);
    await lookAt(page, { path: testInfo.outputPath(`search-open-${width}.png`) });
  });
}
