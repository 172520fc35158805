// Fresh checks in end-to-end tests of the actions behind one (issue 15, point 2). The check itself, by code and by
// passkey, is tested in fresh-check.spec.ts and passkeys.spec.ts; the other tests make the check the dialog asks for
// the way tests/support/fresh-check.ts mints one (a text message per decision would also run into the hourly limits
// on codes), close the dialog and send the form again, as a person does after checking.
import { expect, type Locator, type Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintFreshCheck } from "../support/fresh-check";

/** Clicks `button`; when the check dialog opens, makes the check it asks for and clicks again. */
export async function clickChecked(page: Page, portal: Portal, button: Locator): Promise<void> {
  await button.click();
  const dialog = page.getByTestId("fresh-check");
  await expect(dialog).toHaveAttribute("data-binding", /.+/);
  const binding = (await dialog.getAttribute("data-binding"))!;
  const session = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("pp_session"));
  if (!session) throw new Error("Not signed in");
  const cookie = `pp_session=${session.value}`;
  const businessId = (JSON.parse(Buffer.from(session.value.split(".")[1]!, "base64url").toString()) as { activeBusiness: string }).activeBusiness;
  await mintFreshCheck(portal.core(), cookie, businessId, binding);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).not.toBeVisible();
  await button.click();
}
