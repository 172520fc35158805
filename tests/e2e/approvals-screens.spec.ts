// The approvals queue and request pages in Chromium: a checker approves one of
// Esi's merchant requests and rejects another, the maker is offered no decision
// on her own, and both screens fit 390 px.
import type { Page } from "@playwright/test";
import { requestChange } from "#server/approvals/approvals.db";
import { ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked } from "./fresh-check";

const ESI = { email: "esi.owusu@example.com", businessId: KUMASI };

async function pendingInNavigation(page: Page): Promise<number> {
  return Number(await page.getByTestId("pending-approvals").first().textContent());
}

async function seededMerchantRequest(db: D1Database, action: "create" | "update") {
  const row = await db
    .prepare(
      "SELECT id, target_id, after_json FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND action = ? AND maker_id = 'usr_esi_owusu' AND status = 'pending' LIMIT 1",
    )
    .bind(KUMASI, action)
    .first<{ id: string; target_id: string; after_json: string }>();
  if (!row) throw new Error(`no pending merchant ${action} by Esi in the seed`);
  return { id: row.id, targetId: row.target_id, after: JSON.parse(row.after_json) as Record<string, string> };
}

test("a checker approves one of Esi's merchant requests and rejects another with a reason", async ({ page, portal }) => {
  const db = await portal.db();
  const create = await seededMerchantRequest(db, "create");
  const update = await seededMerchantRequest(db, "update");

  await page.goto("/approvals");
  await hydrated(page);
  const before = await pendingInNavigation(page);
  await page
    .getByRole("navigation", { name: "Kinds of request" })
    .getByRole("link", { name: /^Merchants/ })
    .click();
  await expect(page).toHaveURL(/kind=merchant/);
  await page.getByRole("link", { name: new RegExp(create.after.name!) }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create merchant");
  await expect(page.getByRole("row", { name: /Trading name/ })).toContainText(create.after.trading_name!);
  await clickChecked(page, portal, page.getByRole("button", { name: "Approve" }));
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
  await expect(page.getByTestId("pending-approvals").first()).toHaveText(String(before - 1));

  await page.goto(`/approvals/merchant/${update.id}`);
  await hydrated(page);
  await expect(page.locator("[data-changed=true]")).toHaveCount(Object.keys(update.after).length);
  // A rejection without a reason is refused next to the field.
  await page.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByLabel("Reason for rejecting")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#reason-error")).toHaveText(/Give a reason for rejecting/);
  await page.getByLabel("Reason for rejecting").fill("The contact person has not signed the form yet.");
  await clickChecked(page, portal, page.getByRole("button", { name: "Reject" }));
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText(/Rejected: Esi Owusu can read your reason/)).toBeVisible();
  await expect(page.getByTestId("pending-approvals").first()).toHaveText(String(before - 2));

  // The decided request is read-only and shows the decision.
  await page.goto(`/approvals/merchant/${update.id}`);
  await expect(page.getByTestId("decision")).toContainText("Kofi Boateng");
  await expect(page.getByTestId("decision")).toContainText("The contact person has not signed the form yet.");
  await expect(page.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);

  // The approved merchant is live; the rejected change is not.
  await page.goto(`/merchants?q=${encodeURIComponent(create.after.name!)}`);
  await expect(page.getByRole("link", { name: new RegExp(create.after.name!) })).toBeVisible();
  const contact = await db.prepare("SELECT contact_name FROM merchants WHERE id = ?").bind(update.targetId).first<string>("contact_name");
  expect(contact).not.toBe(update.after.contact_name);

  // The audit log holds both decisions, by Kofi.
  const { results } = await db
    .prepare("SELECT action, entity_id FROM audit_log WHERE entity = 'approval_request' AND actor_id = 'usr_kofi_boateng' AND entity_id IN (?, ?) ORDER BY id")
    .bind(create.id, update.id)
    .all<{ action: string; entity_id: string }>();
  expect(results).toEqual([
    { action: "request.approve", entity_id: create.id },
    { action: "request.reject", entity_id: update.id },
  ]);
});

test("a request whose record changed meanwhile turns stale and can no longer be approved", async ({ page, portal }) => {
  const db = await portal.db();
  const request = await db
    .prepare(
      "SELECT id, target_id FROM approval_requests WHERE business_id = ? AND kind = 'settlement_account' AND action = 'deactivate' AND status = 'pending' LIMIT 1",
    )
    .bind(KUMASI)
    .first<{ id: string; target_id: string }>();
  await page.goto(`/approvals/settlement-account/${request!.id}`);
  await hydrated(page);
  await expect(page.getByRole("row", { name: /Status/ })).toContainText("Inactive");
  // Another change lands on the account while the checker reads the request.
  await db.prepare("UPDATE settlement_accounts SET version = version + 1 WHERE id = ?").bind(request!.target_id).run();
  await clickChecked(page, portal, page.getByRole("button", { name: "Approve" }));
  await expect(page.getByRole("alert").filter({ hasText: "The request is now stale" })).toBeVisible();
  await expect(page.getByTestId("request-status")).toHaveText("Stale");
  await expect(page.getByTestId("stale-notice")).toBeVisible();
  await expect(page.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
});

test("what waits for a checker opens from the navigation; two ticked requests are approved with one check", async ({ page, portal }) => {
  const db = await portal.db();
  const chosen: { id: string; name: string }[] = [];
  for (const n of [1, 2]) {
    const name = `Ɛkuba Ŋmɔ Foods 🌶️ ${n}`;
    const after = {
      ...{ code: `MER-E2E${n}`, name, trading_name: name, tin: `C${7_200_000_000 + n}`, sector: "Retail", town: "Kumasi", region: "Ashanti" },
      ...{ address: "3 Bantama Road", contact_name: "Ɛfua Ŋkansa", contact_phone: "233244000444", contact_email: "efua@example.com" },
    };
    chosen.push({ id: await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after }), name });
  }
  await page.goto("/");
  await hydrated(page);
  const before = await pendingInNavigation(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Approvals/ })
    .click();
  await expect(page).toHaveURL(/\/approvals\?view=waiting$/);
  await expect(page.getByRole("navigation", { name: "Whose requests" }).getByRole("link", { name: /Waiting for me/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("pending-approvals").first()).toHaveText(String(before));

  await page
    .getByRole("navigation", { name: "Kinds of request" })
    .getByRole("link", { name: /^Merchants/ })
    .click();
  await expect(page).toHaveURL(/view=waiting&kind=merchant|kind=merchant&view=waiting/);
  for (const request of chosen) await page.getByRole("checkbox", { name: `Choose ${request.name}` }).check();
  await clickChecked(page, portal, page.getByRole("button", { name: "Approve chosen" }));
  await expect(page.getByRole("status").filter({ hasText: "Approved 2 requests." })).toBeVisible();
  await expect(page).toHaveURL(/view=waiting/);
  await expect(page.getByTestId("pending-approvals").first()).toHaveText(String(before - 2));
  for (const request of chosen) {
    expect(await db.prepare("SELECT status FROM approval_requests WHERE id = ?").bind(request.id).first<string>("status")).toBe("approved");
    await expect(page.getByRole("checkbox", { name: `Choose ${request.name}` })).toHaveCount(0);
  }
});

test.describe("as the maker", () => {
  test.use({ signedInAs: ESI });

  // Both only read: one page, a step each named as its test was, with soft checks (decision 003).
  test("Operations decides nothing, and sees her own request without Approve or Reject", async ({ page, portal }) => {
    await test.step("Operations decides nothing: no count in the navigation, no boxes to tick, every request listed", async () => {
      await page.goto("/approvals?view=waiting");
      await hydrated(page);
      await expect.soft(page.getByTestId("pending-approvals")).toHaveCount(0);
      await expect.soft(page.getByRole("navigation", { name: "Whose requests" })).toHaveCount(0);
      await expect.soft(page.getByRole("checkbox")).toHaveCount(0);
      await expect.soft(page.getByRole("table")).toBeVisible();
    });

    await test.step("Esi (Operations) sees her own request without Approve or Reject", async () => {
      const own = await (
        await portal.db()
      )
        .prepare(
          "SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'point_of_sale' AND maker_id = 'usr_esi_owusu' AND status = 'pending' LIMIT 1",
        )
        .bind(KUMASI)
        .first<string>("id");
      await page.goto("/approvals?kind=point-of-sale");
      await hydrated(page);
      await page.locator(`a[href="/approvals/point-of-sale/${own}"]`).click();
      await expect.soft(page.getByTestId("own-request")).toBeVisible();
      await expect.soft(page.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
    });
  });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the queue and a request page fit without sideways scrolling", async ({ page, portal }) => {
    await page.goto("/approvals");
    await hydrated(page);
    await expect(page.getByRole("navigation", { name: "Kinds of request" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: test.info().outputPath("approvals-390.png"), fullPage: true });
    const update = await (
      await portal.db()
    )
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'settlement_account' AND action = 'update' AND status = 'pending' LIMIT 1")
      .bind(KUMASI)
      .first<string>("id");
    await page.goto(`/approvals/settlement-account/${update}`);
    await hydrated(page);
    await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await lookAt(page, { path: test.info().outputPath("request-390.png"), fullPage: true });
  });
});
