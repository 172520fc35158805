// A transfer as people make it: Abena Darko (Finance) asks to move money from
// one merchant account to another; Kofi Boateng (Administrator) approves it;
// both balances change by exactly the amount.
import type { Page } from "@playwright/test";
import { mintSession } from "../support/sign-in";
import { clearingPosting, paymentPosting } from "#server/ledger/ledger";
import { postingStatements } from "#server/ledger/ledger.db";
import { KOFI_KUMASI, KUMASI } from "../support/tenants";
import type { Portal } from "../support/portal";
import { readFileSync } from "node:fs";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";
import { clickChecked } from "./fresh-check";

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

// Other files in this worker may have settled every available cedi already: a
// cleared payment of GHS 100 (posted by the portal's own ledger functions) makes
// sure Papa Kwaku's account has something to transfer.
test.beforeEach(async ({ portal }) => topUp(portal, 10_000));

async function topUp(portal: Portal, amount: number) {
  const db = await portal.db();
  const payment = { merchantId: "mer_kff_0001", amount, fee: 0 };
  const postedAt = Date.now();
  const postingId = `e2e_topup_${amount}_${postedAt}`;
  await db.batch([
    ...postingStatements(KOFI_KUMASI, paymentPosting(payment), { postingId, memo: "E2E top-up", postedAt }),
    ...postingStatements(KOFI_KUMASI, clearingPosting(payment), { postingId: `${postingId}_clearing`, memo: "E2E top-up cleared", postedAt }),
  ]);
}

async function available(page: Page, merchant: string): Promise<string> {
  await page.goto("/money/merchant-accounts");
  const row = page.getByRole("row").filter({ hasText: merchant });
  return (await row.getByRole("cell").nth(2).textContent()) ?? "";
}

const cedis = (text: string) => Math.round(Number(text.replace(/,/g, "")) * 100);

test("Finance asks, an administrator approves, and the money moves by exactly the amount", async ({ page, browser, portal }) => {
  await page.goto("/money/merchant-funds");
  await hydrated(page);
  const fromRow = page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: /^Transfer funds from / }) })
    .first();
  const fromName = ((await fromRow.getByRole("cell").first().locator("strong").textContent()) ?? "").trim();
  await fromRow.getByRole("link", { name: /^Transfer funds from / }).click();
  const form = page.getByTestId("transfer-form");
  await expect(form.getByRole("heading", { name: `Transfer funds from ${fromName}` })).toBeVisible();

  // Too much is refused by the amount field.
  const destination = form.getByLabel("To");
  const toLabel = (await destination.locator("option").filter({ hasText: "Merchant account:" }).first().textContent()) ?? "";
  const toName = toLabel.replace("Merchant account: ", "").trim();
  await destination.selectOption({ label: toLabel });
  await form.getByLabel("Amount (GHS)").fill("99,999,999.00");
  await form.getByRole("button", { name: "Send for approval" }).click();
  await expect(form.getByText(/This amount exceeds the available balance of GHS/)).toBeVisible();

  const fromBefore = cedis(await available(page, fromName));
  const toBefore = cedis(await available(page, toName));
  await page.goto("/money/merchant-funds");
  // A click while the page hydrates can be lost between the document's link and the router's.
  await hydrated(page);
  await page.getByRole("link", { name: `Transfer funds from ${fromName}` }).click();
  await form.getByLabel("To").selectOption({ label: toLabel });
  await form.getByLabel("Amount (GHS)").fill("0.50");
  await clickChecked(page, portal, form.getByRole("button", { name: "Send for approval" }));
  await expect(page.getByTestId("alert")).toContainText("Transfer of GHS 0.50 sent for approval");
  // Nothing moved yet.
  expect(cedis(await available(page, fromName))).toBe(fromBefore);

  const request = await (
    await portal.db()
  )
    .prepare("SELECT id FROM approval_requests WHERE kind = 'transfer' AND status = 'pending' ORDER BY made_at DESC LIMIT 1")
    .first<{ id: string }>();
  // Abena cannot decide her own request.
  await page.goto(`/approvals/transfer/${request!.id}`);
  await expect(page.getByText("You asked for this transfer: another person must decide it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve and move the money" })).toHaveCount(0);

  const kofi = await browser.newContext({ baseURL: portal.url });
  const session = await mintSession(await portal.db(), portal.url, "kofi.boateng@example.com", KUMASI);
  await kofi.addCookies(session.browserCookies);
  const kofiPage = await kofi.newPage();
  await kofiPage.goto(`/approvals/transfer/${request!.id}`);
  await hydrated(kofiPage);
  await expect(kofiPage).toHaveTitle("Transfer Request");
  await clickChecked(kofiPage, portal, kofiPage.getByRole("button", { name: "Approve and move the money" }));
  await expect(kofiPage.getByTestId("alert")).toContainText("Transfer of GHS 0.50 approved");
  await kofi.close();

  expect(cedis(await available(page, fromName))).toBe(fromBefore - 50);
  expect(cedis(await available(page, toName))).toBe(toBefore + 50);
  const history = page.getByRole("row").filter({ hasText: "Completed" });
  await page.goto("/money/merchant-accounts");
  await page.getByRole("link", { name: `Transfer history of ${fromName}` }).click();
  await expect(history.first()).toContainText("0.50");
  await expect(history.first()).toContainText("Abena Darko");
  await expect(history.first()).toContainText("Kofi Boateng");
});

test("an amount above the available balance, typed with commas, is refused by its field before anything is sent", async ({ page, portal }) => {
  // Thousands, so the amount is typed with a comma.
  await topUp(portal, 250_000);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/money/")) posts.push(request.url());
  });
  await page.goto("/money/merchant-funds?transfer=mer_kff_0001");
  await hydrated(page);
  const form = page.getByTestId("transfer-form");
  const availableText = /Available now: GHS ([\d,]+\.\d{2})\./.exec((await form.textContent()) ?? "")![1]!;
  const over = cedis(availableText) + 1;
  const typedOver = `${Math.trunc(over / 100).toLocaleString("en-US")}.${String(over % 100).padStart(2, "0")}`;
  expect(typedOver).toContain(",");
  await form.getByLabel("To").selectOption({ index: 1 });
  const amount = form.getByLabel("Amount (GHS)");
  await amount.fill(typedOver);
  const message = `This amount exceeds the available balance of GHS ${availableText}.`;
  await expect(form.getByRole("alert")).toHaveText(message);
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await form.getByRole("button", { name: "Send for approval" }).click();
  await expect(amount).toBeFocused();
  await expect(form.getByRole("alert")).toHaveText(message);
  // Exactly the balance, commas and all, is not over it.
  await amount.fill(availableText);
  await expect(form.getByRole("alert")).toHaveCount(0);
  expect(posts).toEqual([]);
});

test("a narration in Ghanaian letters and emoji reaches the checker, the history and its CSV; a line break in it is refused", async ({
  page,
  browser,
  portal,
}) => {
  const narration = "Ɔbaa Ŋkansah's float for Ɛjisu 🌍🇬🇭";
  await page.goto("/money/merchant-funds?transfer=mer_kff_0001");
  await hydrated(page);
  const form = page.getByTestId("transfer-form");
  await form.getByLabel("To").selectOption({ index: 1 });
  await form.getByLabel("Amount (GHS)").fill("0.25");
  const field = form.getByLabel("Narration (optional)");
  // A tab survives a text input (line breaks do not): it is what a pasted spreadsheet cell brings.
  await field.fill("Float\tfor Ɛjisu");
  // Refused before the fresh check: nothing is asked of the person for a form that cannot be sent.
  await form.getByRole("button", { name: "Send for approval" }).click();
  await expect(form.getByText("The narration holds a control character (a tab or a line break). Type it on one line.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  // The list below is dimmed while the page reloads its data after the answer: axe reads it once it is back.
  await expect(page.locator('.table-wrap[aria-busy="true"]')).toHaveCount(0);
  await lookAt(page, { path: "transfer-narration-refused-1280.png", fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
  await field.fill(narration);
  await clickChecked(page, portal, form.getByRole("button", { name: "Send for approval" }));
  await expect(page.getByTestId("alert")).toContainText("Transfer of GHS 0.25 sent for approval");

  const request = await (
    await portal.db()
  )
    .prepare(
      "SELECT r.id FROM approval_requests r JOIN transfers t ON t.id = r.target_id WHERE r.kind = 'transfer' AND r.status = 'pending' AND t.narration = ? LIMIT 1",
    )
    .bind(narration)
    .first<{ id: string }>();
  expect(request).not.toBeNull();
  const kofi = await browser.newContext({ baseURL: portal.url });
  const session = await mintSession(await portal.db(), portal.url, "kofi.boateng@example.com", KUMASI);
  await kofi.addCookies(session.browserCookies);
  const kofiPage = await kofi.newPage();
  for (const width of [1280, 390]) {
    await kofiPage.setViewportSize({ width, height: 900 });
    await kofiPage.goto(`/approvals/transfer/${request!.id}`);
    await expect(kofiPage.getByRole("region", { name: "The transfer" })).toContainText(`Narration${narration}`);
    await lookAt(kofiPage, { path: `transfer-request-narration-${width}.png`, fullPage: true });
  }
  expect(await axeViolations(kofiPage)).toEqual([]);
  await hydrated(kofiPage);
  await clickChecked(kofiPage, portal, kofiPage.getByRole("button", { name: "Approve and move the money" }));
  await expect(kofiPage.getByTestId("alert")).toContainText("Transfer of GHS 0.25 approved");
  await kofi.close();

  // Paid out to the settlement account (decision 052): the approval made the payout, sent at once through the rail
  // (the simulator here), and the history names it by the reference the merchant's statement shows.
  const payoutReference = /TRF-[A-Z0-9-]+-[0-9A-F]{16}/;
  const row = page.getByRole("row").filter({ hasText: narration });
  await expect
    .poll(
      async () => {
        await page.goto("/money/merchant-accounts/transfer-history/mer_kff_0001");
        return (await row.getByRole("cell").last().textContent()) ?? "";
      },
      { timeout: 20_000 },
    )
    .toMatch(/^(Paid|Failed, will retry)TRF-/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/money/merchant-accounts/transfer-history/mer_kff_0001");
    await expect(row).toContainText("0.25");
    await expect(row.getByRole("link", { name: payoutReference })).toBeVisible();
    // The long reference wraps in its cell: the page never scrolls sideways, on a phone either.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: `transfer-history-narration-${width}.png`, fullPage: true });
  }
  expect(await axeViolations(page)).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const csv = readFileSync(await download.path(), "utf8").split("\r\n");
  expect(csv[0]).toContain("Narration");
  expect(csv[0]).toContain("Payout,Payout reference,Rail reference,Paid out (UTC)");
  const line = csv.find((l) => l.includes(narration));
  expect(line).toContain("-0.25");
  expect(line).toMatch(payoutReference);

  // The reference opens the payout among the Settlement History's: a transfer's, with its one attempt.
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByRole("link", { name: payoutReference }).click();
  const detail = page.getByTestId("settlement-detail");
  await expect(detail).toContainText("Transfer");
  await expect(detail).toContainText("Net (GHS)0.25");
  await expect(detail).toContainText("Attempt 1");
  await expect(detail).toContainText("covers no payments of its own");
  await expect(page.getByRole("row").filter({ hasText: "Transfer payout" }).first()).toBeVisible();
  await lookAt(page, { path: "settlement-history-transfer-payout-1280.png" });
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(detail).toContainText("Attempt 1");
  // The payout's long reference wraps in the panel's title: nothing of the panel is cut off on a phone.
  expect(await detail.evaluate((panel) => panel.scrollWidth - panel.clientWidth)).toBeLessThanOrEqual(0);
  await lookAt(page, { path: "settlement-history-transfer-payout-390.png" });
  expect(await axeViolations(page)).toEqual([]);
});
