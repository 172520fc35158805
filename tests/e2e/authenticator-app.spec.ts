// The authenticator app in Chromium (decision 049): Kofi sets one up on Settings → Security (after a check by what he
// already has), types the key shown under the QR code into "his app" (the test computes its codes with node:crypto),
// confirms it with a current code, then approves one of Esi's requests with a code from it in the check dialog: the
// request is approved with no text message sent. Both screens are looked at, at 1280 and 390 px, and axe finds nothing.
import { requestChange } from "#server/approvals/approvals.db";
import { appCode } from "../support/authenticator-app";
import { ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { NOT_A_NOTICE } from "../support/sms-texts";

async function esiAsks(): Promise<string> {
  const n = `${Date.now() % 100_000}`;
  return requestChange(ESI_KUMASI, META, {
    kind: "merchant",
    action: "create",
    after: {
      code: `MER-A${n}`,
      name: `Ɔsaberima Apps Foods ${n}`,
      trading_name: `Ɔsaberima ${n}`,
      tin: `C${String(6_300_000_000 + Number(n))}`,
      sector: "Retail",
      town: "Kumasi",
      region: "Ashanti",
      address: "9 Bantama Road",
      contact_name: "Ɔsaberima Ɛsi",
      contact_phone: "233244000555",
      contact_email: "osaberima@example.com",
    },
  });
}

test("an authenticator app set up on Settings → Security makes the check for an approval, with no text message", async ({ page, portal }) => {
  await page.goto("/settings?tab=security");
  await hydrated(page);
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Authenticator app" }) });
  await clickChecked(page, portal, page.getByRole("button", { name: "Set up an authenticator app" }));

  const qr = page.getByRole("img", { name: "QR code to scan with your authenticator app" });
  await expect(qr).toBeVisible();
  const secret = (await page.getByTestId("authenticator-secret").textContent())!.trim();
  expect(secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const setUp = page.locator(".authenticator-setup");
  await lookAt(setUp, { path: "authenticator-setup-1280.png" });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await lookAt(setUp, { path: "authenticator-setup-390.png", animations: "disabled" });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The first code, as the app shows it, turns it on.
  const enrolCode = appCode(secret);
  await page.getByLabel("Enter the 6-digit code the app shows").fill(enrolCode);
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  await expect(page.getByText("Your authenticator app is set up: use its codes to confirm it is you.")).toBeVisible();
  await expect(page.getByTestId("authenticator")).toContainText(/Added .+ · Last used/);
  await expect(page.getByTestId("authenticator-secret")).toHaveCount(0);
  await lookAt(section, { path: "authenticator-listed-1280.png" });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await lookAt(section, { path: "authenticator-listed-390.png", animations: "disabled" });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  const sentBefore = await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n");
  const id = await esiAsks();
  await page.goto(`/approvals/merchant/${id}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Approve" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(dialog).toBeVisible();
  // No passkey: the authenticator app first, then the text message.
  const ways = dialog.getByRole("button", { name: /^(Use your authenticator app|Text a code to .+)$/ });
  await expect(ways).toHaveText(["Use your authenticator app", /^Text a code to /]);
  await lookAt(page, { path: "authenticator-dialog-1280.png" });
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Use your authenticator app" }).click();
  const field = dialog.getByLabel("Code from your authenticator app");
  await expect(field).toBeFocused();
  // The step the set-up took is taken: the code it used is refused, the next one (within the window) does.
  await field.fill(enrolCode);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("That code was already used. Wait for the next one in your authenticator app.");
  await field.fill(appCode(secret, Date.now() + 30_000));
  await page.setViewportSize({ width: 390, height: 844 });
  await lookAt(page, { path: "authenticator-dialog-390.png", animations: "disabled" });
  expect(await axeViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
  const row = await (
    await portal.db()
  )
    .prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?")
    .bind(id, KUMASI)
    .first<{ status: string }>();
  expect(row?.status).toBe("approved");
  expect(await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")).toBe(sentBefore);
});
