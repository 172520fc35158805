// Disputes end to end (decision 023), in Chromium: the processor opens a dispute through the Partner API and the merchant's
// available money drops by exactly its amount into "Held by disputes"; it appears first on /disputes with its days
// left; Abena Darko (Finance) writes the response, attaches a PDF and submits it before the deadline, after which the
// page is read-only; the processor closes it as won and the hold returns to available on Merchant Accounts.
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { api, makeKey } from "../support/partner-api";
import { KUMASI } from "../support/tenants";
import { EFUA, makeStaff } from "../support/platform";
import { mintSession } from "../support/sign-in";
import type { Page } from "@playwright/test";
import { axeViolations, expect, hydrated, test, lookAt } from "./fixtures";

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const cedis = (pesewas: number) => (pesewas / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The merchant's row on Merchant Accounts: its Available and Held by disputes cells, as shown. */
async function shownBalances(page: Page, code: string): Promise<{ available: string; held: string }> {
  await page.goto(`/money/merchant-accounts?q=${encodeURIComponent(code)}`);
  const row = page.getByRole("row").filter({ hasText: code });
  return {
    available: (await row.getByRole("cell").nth(2).textContent())!.trim(),
    held: (await row.getByRole("cell").nth(3).textContent())!.trim(),
  };
}

/** The page at 1280 and 390 px (loaded again at each width, so the mobile drawer starts closed), under tmp/. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.reload();
    await hydrated(page);
    await lookAt(page, { path: `tmp/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a dispute opened through the API is answered by Abena with a PDF, then won: the hold returns to available", async ({ page, portal }) => {
  test.setTimeout(90_000);
  const key = await makeKey(portal, KUMASI);
  const db = await portal.db();
  const { results } = await db
    .prepare(
      `SELECT t.reference, t.amount, m.code, m.name FROM transactions t JOIN merchants m ON m.id = t.merchant_id
       WHERE t.business_id = ? AND t.status = 'successful' AND t.cleared_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.transaction_id = t.id) ORDER BY t.amount LIMIT 50`,
    )
    .bind(KUMASI)
    .all<{ reference: string; amount: number; code: string; name: string }>();
  // A reference the API does not take for a card number (some seeded ones pass the Luhn check).
  const payment = results.find((p) => cardNumberPaths({ reference: p.reference }).length === 0)!;
  const before = await shownBalances(page, payment.code);

  const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const opened = await api(portal, key, "/api/v1/disputes", {
    payment_reference: payment.reference,
    reason_code: "13.1",
    amount: payment.amount,
    currency: "GHS",
    evidence_due_by: due,
  });
  expect(opened.status).toBe(201);
  const dispute = await opened.json<{ id: string }>();
  const held = await shownBalances(page, payment.code);
  expect(held.available).toBe(cedis(Number(before.available.replace(/,/g, "")) * 100 - payment.amount));
  expect(held.held).toBe(cedis(Number(before.held.replace(/,/g, "")) * 100 + payment.amount));

  // The dashboard says a dispute waits; its link opens the open ones, this one first (the nearest deadline).
  await page.goto("/");
  await expect(page.getByTestId("dashboard-disputes")).toContainText(/disputes? needs? a response/);
  await page.getByTestId("dashboard-disputes").click();
  await expect(page).toHaveURL(/\/disputes\?status=open$/);
  await expect(page).toHaveTitle("Disputes");
  const row = page.getByRole("row").filter({ hasText: payment.reference });
  await expect(row).toContainText("7 days left");
  await expect(row).toContainText(cedis(payment.amount));
  await screenshots(page, "disputes-list");

  await row.getByRole("link", { name: new RegExp(payment.reference) }).click();
  await expect(page).toHaveURL(new RegExp(`/disputes/${dispute.id}$`));
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Dispute" })).toBeVisible();
  await page.getByLabel("Response to the scheme or network").fill("The payer collected the goods in person at Adum: receipt 0042 signed by Ɔkɔmfo Ɛsi 🧾.");
  await page.getByRole("button", { name: "Save response" }).click();
  await expect(page.getByText("Response saved.")).toBeVisible();
  await page.getByLabel("Attach a file").setInputFiles({ name: "Receipt Ɔsu.pdf", mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText("Receipt Ɔsu.pdf attached.")).toBeVisible();
  const evidence = page.getByTestId("evidence");
  await expect(evidence.getByRole("link", { name: "Receipt Ɔsu.pdf" })).toBeVisible();
  await expect(evidence).toContainText("PDF");
  await screenshots(page, "dispute-answer");
  await page.getByRole("button", { name: "Submit the response" }).click();
  await expect(page.getByText("Response submitted: it can no longer be changed.")).toBeVisible();
  await expect(page.getByText(/The response was submitted by Abena Darko/)).toBeVisible();
  await expect(page.getByLabel("Response to the scheme or network")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Upload", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("response-text")).toContainText("Ɔkɔmfo Ɛsi 🧾");
  await screenshots(page, "dispute-detail");

  // The processor closes it as won: the hold is the merchant's available money again.
  const closed = await api(portal, key, `/api/v1/disputes/${dispute.id}/close`, { outcome: "won" });
  expect(closed.status).toBe(200);
  expect(await shownBalances(page, payment.code)).toEqual(before);
  await page.goto(`/disputes/${dispute.id}`);
  await expect(page.getByText("The dispute was closed as won.")).toBeVisible();
});

test("the platform's overview says as many disputes due for a business as its dashboard says need a response", async ({ page, browser, portal }) => {
  // Two disputes due weeks ahead: they need a response now, whatever the deadline.
  const key = await makeKey(portal, KUMASI);
  const { results } = await (
    await portal.db()
  )
    .prepare(
      `SELECT t.reference, t.amount FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.cleared_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.transaction_id = t.id) ORDER BY t.amount DESC LIMIT 50`,
    )
    .bind(KUMASI)
    .all<{ reference: string; amount: number }>();
  const payments = results.filter((p) => cardNumberPaths({ reference: p.reference }).length === 0).slice(0, 2);
  for (const [index, payment] of payments.entries()) {
    const due = new Date(Date.now() + (20 + index) * 86_400_000).toISOString().slice(0, 10);
    const opened = await api(portal, key, "/api/v1/disputes", {
      payment_reference: payment.reference,
      reason_code: "13.1",
      amount: 1,
      currency: "GHS",
      evidence_due_by: due,
    });
    expect(opened.status).toBe(201);
  }
  await page.goto("/");
  const onDashboard = Number(await page.getByTestId("dashboard-disputes").locator("strong").textContent());
  expect(onDashboard).toBeGreaterThanOrEqual(2);

  await makeStaff(portal.core(), EFUA);
  const platform = await browser.newContext({ baseURL: portal.url });
  await platform.addCookies((await mintSession(await portal.db(), portal.url, EFUA.email, null)).browserCookies);
  const staffPage = await platform.newPage();
  for (const width of [1280, 390]) {
    await staffPage.setViewportSize({ width, height: 900 });
    await staffPage.goto(`/platform?q=${encodeURIComponent("Kumasi Fresh Foods")}`);
    const table = staffPage.getByRole("table", { name: "Businesses on the platform" });
    const column = (await table.getByRole("columnheader").allInnerTexts()).findIndex((header) => header.trim() === "Disputes due");
    expect(column).toBeGreaterThan(0);
    const row = table.getByRole("row").filter({ hasText: "Kumasi Fresh Foods" });
    await expect(row.getByRole("cell").nth(column)).toHaveText(String(onDashboard));
    await lookAt(staffPage, { path: `tmp/platform-disputes-due-${width}.png`, fullPage: true });
  }
  expect(await axeViolations(staffPage)).toEqual([]);
  await platform.close();
});
