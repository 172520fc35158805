// Fresh checks in end-to-end tests of the actions behind one (decision 027). The check itself, by code and by
// passkey, is tested in fresh-check.spec.ts and passkeys.spec.ts; the other tests make the check the dialog asks for
// the way tests/support/fresh-check.ts mints one (a text message per decision would also run into the hourly limits
// on codes), close the dialog and send the form again, as a person does after checking.
import { expect, type Locator, type Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintFreshCheck } from "../support/fresh-check";
import { PLATFORM_CHECKS } from "#server/auth/fresh-check";

/** Makes a check for `binding` in the page's session, as a passkey or a code would. */
export async function mintCheckFor(page: Page, portal: Portal, binding: string): Promise<void> {
  const session = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("pp_session"));
  if (!session) throw new Error("Not signed in");
  const claims = JSON.parse(Buffer.from(session.value.split(".")[1]!, "base64url").toString()) as { activeBusiness: string | null };
  // A platform action's check is the platform's, whatever business the person chose (decision 039).
  const owner = binding.startsWith("platform:") ? PLATFORM_CHECKS : claims.activeBusiness;
  if (!owner) throw new Error("A check is made in a business");
  await mintFreshCheck(portal.core(), `pp_session=${session.value}`, owner, binding);
}

/** The check dialog is open: make the check it asks for and close it (the form is then sent again by the test). */
export async function passCheckDialog(page: Page, portal: Portal): Promise<void> {
  // The one that is open (a page may hold more than one: Settings has the page's and the passkey form's).
  const dialog = page.locator("dialog[data-testid=fresh-check][open]");
  await expect(dialog).toHaveAttribute("data-binding", /.+/);
  await mintCheckFor(page, portal, (await dialog.getAttribute("data-binding"))!);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).not.toBeVisible();
}

/** Clicks `button`; the check dialog opens; makes the check it asks for, closes it and clicks again. */
export async function clickChecked(page: Page, portal: Portal, button: Locator): Promise<void> {
  await button.click();
  await passCheckDialog(page, portal);
  await button.click();
}
