// The maker-checker flow (decision 005) end to end with the demo identities: Esi
// Owusu (Operations) asks for a merchant, a point of sale and a settlement
// account and cannot approve them; Kofi Boateng (Administrator) approves one
// and rejects one with a reason; the approved merchant appears, both decisions
// are in the audit log; Yaw Asante (Viewer) sees no create actions and is
// refused when he posts anyway.
import type { Browser, Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";
import { clickChecked } from "./fresh-check";

test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

async function pageAs(browser: Browser, portal: Portal, email: string, businessId: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: portal.url });
  const session = await mintSession(await portal.db(), portal.url, email, businessId);
  await context.addCookies(session.browserCookies);
  return context.newPage();
}

async function requestId(portal: Portal, kind: string, where: string): Promise<string> {
  const row = await (
    await portal.db()
  )
    .prepare(`SELECT id FROM approval_requests WHERE kind = ? AND maker_id = 'usr_esi_owusu' AND status = 'pending' AND ${where} ORDER BY made_at DESC LIMIT 1`)
    .bind(kind)
    .first<{ id: string }>();
  if (!row) throw new Error(`no pending ${kind} request (${where})`);
  return row.id;
}

test("Operations asks, cannot approve; an Administrator approves one and rejects one; a Viewer can do neither", async ({ page, browser, portal }) => {
  // Esi asks for a merchant...
  await page.goto("/merchants/add-merchant");
  await hydrated(page);
  await page.getByLabel("Merchant code").fill("MRC-0777");
  await page.getByLabel("Registered name").fill("Asafo Market Provisions Limited");
  await page.getByLabel("Trading name").fill("Asafo Provisions");
  await page.getByLabel("TIN", { exact: true }).fill("C0077700077");
  await page.getByLabel("Sector").fill("Groceries");
  await page.getByLabel("Town").fill("Kumasi");
  await page.getByLabel("Region").selectOption("Ashanti");
  await page.getByLabel("Address").fill("Asafo Market, Kumasi");
  await page.getByLabel("Contact name").fill("Yaa Asantewaa");
  await page.getByLabel("Contact phone").fill("0244777777");
  await page.getByLabel("Contact email").fill("yaa@asafo.example.com");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText(/Asafo Market Provisions Limited: Sent for approval/)).toBeVisible();

  // ...a point of sale...
  await page.goto("/merchants/mer_kff_0002/add-point-of-sale");
  await hydrated(page);
  await page.getByLabel("Name").fill("Suame Roundabout Kiosk");
  await page.getByLabel("Town").fill("Kumasi");
  await page.getByLabel("Region").selectOption("Ashanti");
  await page.getByLabel("Address").fill("Suame Roundabout");
  await page.getByLabel("Contact phone").fill("0244777778");
  await page.getByRole("button", { name: "Send for approval" }).click();
  // The form says "Sent for approval: …" before it is sent: wait for the flash that says it was.
  await expect(page.getByText(/Point of sale sent for approval/)).toBeVisible();

  // ...and a settlement account.
  await page.goto("/merchants/mer_kff_0002?account=new");
  await hydrated(page);
  await page.getByLabel("Bank or mobile-money network").selectOption("Telecel");
  await page.getByLabel("Account or wallet number").fill("0207777777");
  await page.getByLabel("Name on the account").fill("Suame Bread & Pastries");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText(/The new settlement account: Sent for approval/)).toBeVisible();

  const merchantRequest = await requestId(portal, "merchant", "json_extract(after_json, '$.code') = 'MRC-0777'");
  const posRequest = await requestId(portal, "point_of_sale", "json_extract(after_json, '$.name') = 'Suame Roundabout Kiosk'");
  await requestId(portal, "settlement_account", "json_extract(after_json, '$.account_number') = '0207777777'");

  // Esi cannot approve her own request: no buttons, and a post is refused.
  await page.goto(`/approvals/merchant/${merchantRequest}`);
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const selfApproval = await page.request.post(`/approvals/merchant/${merchantRequest}`, {
    form: { intent: "approve" },
    headers: { Origin: portal.url },
    maxRedirects: 0,
  });
  expect(selfApproval.status()).toBe(403);

  // Kofi approves the merchant and rejects the point of sale with a reason.
  const kofi = await pageAs(browser, portal, "kofi.boateng@example.com", KUMASI);
  await kofi.goto(`/approvals/merchant/${merchantRequest}`);
  await hydrated(kofi);
  await clickChecked(kofi, portal, kofi.getByRole("button", { name: "Approve" }));
  await expect(kofi).toHaveURL(/\/approvals$/);
  await kofi.goto(`/approvals/point-of-sale/${posRequest}`);
  await hydrated(kofi);
  await kofi.getByLabel("Reason for rejecting").fill("This kiosk is not on the lease yet.");
  await clickChecked(kofi, portal, kofi.getByRole("button", { name: "Reject" }));
  await expect(kofi).toHaveURL(/\/approvals$/);

  // The approved merchant is live; the rejected point of sale is not.
  await kofi.goto("/merchants?q=Asafo");
  await expect(kofi.getByRole("link", { name: /Asafo Market Provisions Limited/ })).toBeVisible();
  await kofi.goto("/merchants/mer_kff_0002");
  await expect(kofi.getByText("Suame Roundabout Kiosk")).toHaveCount(0);
  const audit = await (
    await portal.db()
  )
    .prepare("SELECT action, entity_id FROM audit_log WHERE action IN ('request.approve', 'request.reject') AND entity_id IN (?, ?) ORDER BY id")
    .bind(merchantRequest, posRequest)
    .all<{ action: string; entity_id: string }>();
  expect(audit.results).toEqual([
    { action: "request.approve", entity_id: merchantRequest },
    { action: "request.reject", entity_id: posRequest },
  ]);
  await kofi.context().close();

  // Yaw (Viewer, Accra Mobile Pay) sees no create actions and is refused when he posts anyway.
  const yaw = await pageAs(browser, portal, "yaw.asante@example.com", ACCRA);
  await yaw.goto("/merchants");
  await hydrated(yaw);
  await expect(yaw.getByRole("link", { name: "Add merchant" })).toHaveCount(0);
  const refused = await yaw.request.post("/merchants/add-merchant", {
    form: {
      code: "MRC-0999",
      name: "Not Allowed Ltd",
      trading_name: "Not Allowed",
      tin: "C0099900099",
      sector: "Groceries",
      town: "Accra",
      region: "Greater Accra",
      address: "1 Road",
      contact_name: "Yaw",
      contact_phone: "0244999999",
      contact_email: "yaw@example.com",
    },
    headers: { Origin: portal.url },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(403);
  expect(
    await (await portal.db()).prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE json_extract(after_json, '$.code') = 'MRC-0999'").first<number>("n"),
  ).toBe(0);
  await yaw.context().close();
});
