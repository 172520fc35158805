// Losing the connection while a form is sent (decision 015, SPEC section 8):
// the page stays with what was typed, the generic handler's alert says what
// happened, and trying again sends the form once, whether or not the first send
// had arrived.
import type { Page, Route } from "@playwright/test";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { mintCheckFor } from "./fresh-check";

// The generic handler logs what it shows, and Chromium logs the failed request.
test.use({ allowConsoleErrors: /^(Action Failed\. Please check connectivity and try again |Failed to load resource: net::ERR_)/ });

const CONNECTIVITY = "Action Failed. Please check connectivity and try again";

/**
 * Cuts the connection of the next post to `path`: before it arrives, or after it arrived and before the answer. The
 * route stays and lets everything after that one through: unrouting from inside the handler switched Chromium's
 * interception off while the page's prefetches were paused in it, and they then never finished (the next navigation
 * waited on them for good).
 */
async function cutNextPost(page: Page, path: string, when: "before it arrives" | "after it arrived"): Promise<{ sent: () => number }> {
  let sent = 0;
  const handler = async (route: Route) => {
    if (route.request().method() !== "POST" || sent > 0) return route.fallback();
    sent += 1;
    if (when === "after it arrived") await route.fetch();
    await route.abort(when === "after it arrived" ? "connectionreset" : "internetdisconnected");
  };
  await page.route(`**${path}.data*`, handler);
  return { sent: () => sent };
}

test("a new merchant whose answer was lost: the form stays, the alert says so, and sending again makes one request", async ({ page, portal }) => {
  const db = await portal.db();
  const requests = async () =>
    db
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND json_extract(after_json, '$.code') = 'MRC-0601'")
      .bind(KUMASI)
      .first<number>("n");
  await page.goto("/merchants/add-merchant");
  await hydrated(page);
  await page.getByLabel("Merchant code").fill("MRC-0601");
  await page.getByLabel("Registered name").fill("Ɔkyeame Ɛnterprise Limited");
  await page.getByLabel("Trading name").fill("Ɔkyeame 🍍 Store");
  await page.getByLabel("TIN", { exact: true }).fill("C0060160160");
  await page.getByLabel("Sector").fill("Groceries");
  await page.getByLabel("Town").fill("Kumasi");
  await page.getByLabel("Region").selectOption("Ashanti");
  await page.getByLabel("Address").fill("Plot 4, Bantama High Street, Kumasi");
  await page.getByLabel("Contact name").fill("Akua Frimpong");
  await page.getByLabel("Contact phone").fill("0244123456");
  await page.getByLabel("Contact email").fill("akua@okyeame.example.com");

  const cut = await cutNextPost(page, "/merchants/add-merchant", "after it arrived");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByTestId("alert")).toContainText(CONNECTIVITY);
  await expect(page.getByTestId("alert")).toHaveAttribute("data-kind", "danger");
  expect(cut.sent()).toBe(1);
  // Not the error page: the same form, with what was typed.
  await expect(page.getByRole("heading", { name: "Add Merchant" })).toBeVisible();
  await expect(page).toHaveURL(/\/merchants\/add-merchant$/);
  await expect(page.getByLabel("Registered name")).toHaveValue("Ɔkyeame Ɛnterprise Limited");
  await expect(page.getByLabel("Trading name")).toHaveValue("Ɔkyeame 🍍 Store");
  await expect(page.getByLabel("Region")).toHaveValue("Ashanti");
  // The alert is at the top, and the page went there to show it.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  // The first send did arrive: the request exists once.
  expect(await requests()).toBe(1);

  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page).toHaveURL(/\/merchants$/);
  await expect(page.getByText("Ɔkyeame Ɛnterprise Limited: Sent for approval")).toBeVisible();
  expect(await requests()).toBe(1);
});

test("a Team invitation that never left: the tab stays with what was typed, and the next send goes through once", async ({ page, portal }) => {
  const db = await portal.db();
  const invitations = async () =>
    db
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND json_extract(after_json, '$.email') = ?")
      .bind(KUMASI, "nkrumah.nme@example.com")
      .first<number>("n");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings?tab=team");
  await hydrated(page);
  const invite = page.getByRole("region", { name: "Invite an employee" });
  await invite.getByLabel("Full name").fill("Nkrumah Ŋmɛ");
  await invite.getByLabel("Work email").fill("nkrumah.nme@example.com");
  await invite.getByLabel("Mobile number").fill("024 765 4321");
  await invite.getByLabel("Gender").selectOption("male");
  await invite.getByLabel("Role").selectOption("Viewer");

  const cut = await cutNextPost(page, "/settings", "before it arrives");
  await invite.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByTestId("alert")).toContainText(CONNECTIVITY);
  expect(cut.sent()).toBe(1);
  await expect(invite.getByLabel("Full name")).toHaveValue("Nkrumah Ŋmɛ");
  await expect(invite.getByLabel("Mobile number")).toHaveValue("024 765 4321");
  expect(await invitations()).toBe(0);
  await lookAt(page, { path: test.info().outputPath("lost-connection-team-390.png"), fullPage: true });

  await invite.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText(/The invitation for Nkrumah Ŋmɛ is sent for approval/)).toBeVisible();
  expect(await invitations()).toBe(1);
});

test("an approval decided while the connection drops: the request page stays, and deciding again decides once", async ({ page, portal }) => {
  const db = await portal.db();
  // Esi asks for a merchant of its own for this test (earlier tests in this portal decide the seeded ones).
  const esi = await signedInCookie(portal, "esi.owusu@example.com", KUMASI);
  const asked = await fetch(`${portal.url}/merchants/add-merchant`, {
    method: "POST",
    headers: { ...esi, Origin: portal.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      code: "MRC-0602",
      name: "Ŋutifafa Cold Store",
      trading_name: "Ŋutifafa",
      tin: "C0060260260",
      sector: "Groceries",
      town: "Ho",
      region: "Volta",
      address: "Market Street, Ho",
      contact_name: "Ɛdem Kpodo",
      contact_phone: "0244123456",
      contact_email: "edem@nutifafa.example.com",
    }).toString(),
    redirect: "manual",
  });
  expect(asked.status).toBe(302);
  const request = await db
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND json_extract(after_json, '$.code') = 'MRC-0602'")
    .bind(KUMASI)
    .first<string>("id");
  expect(request).not.toBeNull();
  const decisions = async () =>
    db
      .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE business_id = ? AND entity_id = ? AND action = 'request.approve'")
      .bind(KUMASI, request)
      .first<number>("n");
  const path = `/approvals/merchant/${request}`;
  await page.goto(path);
  await hydrated(page);
  // Kofi checked it is him just before (the check's own tests are fresh-check.spec.ts).
  await mintCheckFor(page, portal, `decide:${request}`);
  const cut = await cutNextPost(page, path, "after it arrived");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("alert")).toContainText(CONNECTIVITY);
  expect(cut.sent()).toBe(1);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create merchant");
  await lookAt(page, { path: test.info().outputPath("lost-connection-approval-1280.png"), fullPage: true });
  expect(await decisions()).toBe(1);

  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
  expect(await decisions()).toBe(1);
});

test("a link followed with no connection says so, not the server error page, and Try again loads it", async ({ page }) => {
  await page.goto("/merchants");
  await hydrated(page);
  const offline = (route: Route) => route.abort("internetdisconnected");
  await page.route("**/transactions.data*", offline);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transactions" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No connection");
  await expect(page.getByTestId("error-message")).toHaveText(CONNECTIVITY);
  await expect(page.getByText("Internal Server Error")).toHaveCount(0);
  await expect(page.getByTestId("error-id")).toHaveCount(0);
  await lookAt(page, { path: test.info().outputPath("no-connection-1280.png") });

  await page.unroute("**/transactions.data*", offline);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Transactions");
});
