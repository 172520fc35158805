// Session limits as a person meets them (decision 026): after 30 minutes without activity or 12
// hours after sign-in the next page is the sign-in page saying why, and signing in again comes back to that page.
// The server's view of time comes from the minted session rows.
import type { APIRequestContext, Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintSession, type MintTimes } from "../support/sign-in";
import { expect, hydrated, test } from "./fixtures";
import { latestCodeFor } from "./outbox";

test.use({ signedInAs: null });

const KUMASI = "bus_kumasi_fresh_foods";
const MINUTE = 60_000;

async function signedInWith(page: Page, portal: Portal, email: string, times: MintTimes): Promise<void> {
  const session = await mintSession(await portal.db(), portal.url, email, KUMASI, times);
  await page.context().addCookies(session.browserCookies);
}

async function firstPhone(portal: Portal, email: string): Promise<string> {
  const row = await (
    await portal.db()
  )
    .prepare("SELECT p.msisdn FROM user_phones p JOIN users u ON u.id = p.user_id WHERE u.email = ? ORDER BY p.created_at, p.msisdn LIMIT 1")
    .bind(email)
    .first<{ msisdn: string }>();
  return row!.msisdn;
}

/** Email, the first phone, the code, the business: the sign-in a person does again. */
async function signInAgain(page: Page, request: APIRequestContext, portal: Portal, email: string): Promise<void> {
  await hydrated(page);
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/authenticate\/verify$/);
  await page.getByLabel("One-time code").fill(await latestCodeFor(request, await firstPhone(portal, email)));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/select-business$/);
  await page.getByRole("button", { name: /Kumasi Fresh Foods/ }).click();
}

test("31 minutes idle: the sign-in page says so, and signing in again comes back to the list as it was", async ({ page, request, portal }) => {
  const email = "kofi.boateng@example.com";
  await signedInWith(page, portal, email, { createdAt: Date.now() - 2 * 60 * MINUTE, lastActiveAt: Date.now() - 31 * MINUTE });
  await page.goto("/merchants?status=active");
  await expect(page).toHaveURL(/\/login-option\?ended=idle$/);
  await expect(page.getByTestId("signed-out-notice")).toHaveText("You were signed out after 30 minutes without activity.");
  await signInAgain(page, request, portal, email);
  await expect(page).toHaveURL(/\/merchants\?status=active$/);
  await expect(page.getByRole("heading", { name: "Merchants", level: 1 })).toBeVisible();
});

test("12 hours after sign-in, though active a minute ago: signed out with the 12-hour message, then back", async ({ page, request, portal }) => {
  const email = "esi.owusu@example.com";
  await signedInWith(page, portal, email, { createdAt: Date.now() - 12 * 60 * MINUTE, lastActiveAt: Date.now() - MINUTE });
  await page.goto("/merchants?status=active");
  await expect(page).toHaveURL(/\/login-option\?ended=absolute$/);
  await expect(page.getByTestId("signed-out-notice")).toHaveText("You were signed out: a session lasts 12 hours. Sign in again.");
  await signInAgain(page, request, portal, email);
  await expect(page).toHaveURL(/\/merchants\?status=active$/);
});

test("an active session stays, page after page", async ({ page, portal }) => {
  await signedInWith(page, portal, "kofi.boateng@example.com", { createdAt: Date.now() - 11 * 60 * MINUTE, lastActiveAt: Date.now() - 29 * MINUTE });
  await page.goto("/merchants?status=active");
  await expect(page.getByRole("heading", { name: "Merchants", level: 1 })).toBeVisible();
  await hydrated(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
