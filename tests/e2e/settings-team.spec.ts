// /settings' tabs and the Team tab in the browser, as Kofi Boateng (Administrator
// of Kumasi Fresh Foods): inviting and changing a role go to approval, Super
// Administrator is never offered, his own row has no actions; the tabs work by
// keyboard and without JavaScript, and the Team tab fits 390 px.
import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";

const tabs = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });

// The tabs are walked by keyboard before the invitation, in one page (decision 003): the invitation waits for approval
// and adds no employee, and comes last. Each is a step named as its test was, with soft checks.
test("the tabs work by keyboard; Kofi invites an employee, and it waits for approval", async ({ page, portal }) => {
  await test.step("the tabs work by keyboard and mark the current one", async () => {
    await page.goto("/settings");
    await hydrated(page);
    const nav = tabs(page);
    await expect.soft(nav.getByRole("link")).toHaveText(["Profile", "Business", "Team", "Security", "Developers", "Audit"]);
    await expect.soft(nav.getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Profile" }).focus();
    await page.keyboard.press("Tab");
    await expect.soft(nav.getByRole("link", { name: "Business" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect.soft(nav.getByRole("link", { name: "Team" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect.soft(page).toHaveURL(/\/settings\?tab=team$/);
    await expect.soft(nav.getByRole("link", { name: "Team" })).toHaveAttribute("aria-current", "page");
    await expect.soft(nav.getByRole("link", { name: "Profile" })).not.toHaveAttribute("aria-current", /.*/);
    await expect.soft(page.getByRole("table", { name: "Employees" })).toBeVisible();
    await nav.getByRole("link", { name: "Team" }).focus();
    await page.keyboard.press("Tab");
    await expect.soft(nav.getByRole("link", { name: "Security" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect.soft(page.getByRole("region", { name: "Security" })).toBeVisible();
    await expect.soft(page.getByRole("table", { name: "Employees" })).toHaveCount(0);
  });

  await test.step("Kofi invites an employee; it is sent for approval and waits there", async () => {
    await page.goto("/settings?tab=team");
    await hydrated(page);
    await expect.soft(tabs(page).getByRole("link", { name: "Team" })).toHaveAttribute("aria-current", "page");
    await expect.soft(page.getByText("sent for approval: another person must approve each")).toBeVisible();

    const invite = page.getByRole("region", { name: "Invite an employee" });
    // An Administrator is offered only the roles he may grant.
    const roles = await invite.getByLabel("Role").locator("option").allTextContents();
    expect.soft(roles).toEqual(["Choose a role", "Administrator", "Operations", "Finance", "Viewer"]);

    // Errors sit by their fields, and what was typed stays.
    await invite.getByLabel("Full name").fill("Kwame Nkrumah");
    await invite.getByLabel("Work email").fill("kwame@example");
    await invite.getByRole("button", { name: "Send for approval" }).click();
    await expect.soft(invite.getByLabel("Work email")).toHaveAccessibleDescription("Enter an email address like name@example.com.");
    await expect.soft(invite.getByText("Enter a mobile number.")).toBeVisible();
    await expect.soft(invite.getByText("Choose a role.")).toBeVisible();
    await expect.soft(invite.getByLabel("Full name")).toHaveValue("Kwame Nkrumah");

    await invite.getByLabel("Work email").fill("kwame.nkrumah@example.com");
    await invite.getByLabel("Mobile number").fill("0244 100 200");
    await invite.getByLabel("Gender").selectOption("male");
    await invite.getByLabel("Role").selectOption("Operations");
    await invite.getByRole("button", { name: "Send for approval" }).click();
    await expect.soft(page.getByTestId("alert")).toContainText("The invitation for Kwame Nkrumah is sent for approval.");
    await expect.soft(page).toHaveURL(/\/settings\?tab=team$/);
    const waiting = page.getByRole("region", { name: "Invitations waiting for approval" });
    await expect.soft(waiting).toContainText("Kwame Nkrumah");
    await expect.soft(waiting).toContainText("kwame.nkrumah@example.com · Operations");
    // The form is empty again, and nobody became an employee yet.
    await expect.soft(invite.getByLabel("Full name")).toHaveValue("");
    await expect.soft(page.getByRole("row", { name: /Kwame Nkrumah/ })).toHaveCount(0);
    const user = await (await portal.db()).prepare("SELECT 1 FROM users WHERE email = 'kwame.nkrumah@example.com'").first();
    expect.soft(user).toBeNull();
  });
});

test("his own row has no actions; a role change goes to approval and shows on the row", async ({ page }) => {
  await page.goto("/settings?tab=team");
  await hydrated(page);
  const own = page.getByRole("row", { name: /Kofi Boateng/ });
  await expect(own).toContainText("You");
  await expect(own.getByRole("button")).toHaveCount(0);
  await expect(own.getByRole("combobox")).toHaveCount(0);
  // Nor on a Super Administrator's row: he cannot take away what he cannot grant.
  await expect(page.getByRole("row", { name: /Ama Mensah/ }).getByRole("button")).toHaveCount(0);
  // Phones of others are masked.
  await expect(page.getByRole("row", { name: /Abena Darko/ })).toContainText(/233\*+3332/);

  const esi = page.getByRole("row", { name: /Esi Owusu/ });
  await expect(esi.getByLabel("New role for Esi Owusu").locator("option")).toHaveText(["Administrator", "Operations", "Finance", "Viewer"]);
  await esi.getByLabel("New role for Esi Owusu").selectOption("Viewer");
  await esi.getByRole("button", { name: "Change role of Esi Owusu" }).click();
  await expect(page.getByTestId("alert")).toContainText("sent for approval");
  await expect(esi).toContainText("Role change to Viewer waiting for approval");
  await expect(esi).toContainText("Operations");
  await expect(esi.getByRole("button")).toHaveCount(0);
});

test.describe("as Esi Owusu (Operations)", () => {
  test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: "bus_kumasi_fresh_foods" } });

  test("there is no Team tab, and its URL is refused", async ({ page }) => {
    await page.goto("/settings");
    await expect(tabs(page).getByRole("link")).toHaveText(["Profile", "Business", "Security"]);
    const response = await page.goto("/settings?tab=team");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  });
});

test("on a slow link, corrections typed after a refusal are what the next send carries, and can be sent at once", async ({ page }) => {
  await page.goto("/settings?tab=team");
  await hydrated(page);
  // The page's catching up after the refusal (its data read again) is held back, as over a weak connection.
  let sent = 0;
  let release = () => {};
  let held = new Promise<void>((resolve) => (release = resolve));
  // (A read goes as settings.data?tab=team&_routes=…, one per route whose data it reads.)
  const tabData = (url: URL) => url.pathname === "/settings.data" && url.searchParams.get("tab") === "team";
  await page.route(tabData, async (route) => {
    if (route.request().method() === "GET") await held;
    else sent += 1;
    await route.continue();
  });
  const invite = page.getByRole("region", { name: "Invite an employee" });
  const send = invite.getByRole("button", { name: "Send for approval" });
  await invite.getByLabel("Full name").fill("Akua Ɔforiwaa");
  await invite.getByLabel("Work email").fill("akua@example");
  await send.click();
  await expect(invite.getByLabel("Work email")).toHaveAccessibleDescription("Enter an email address like name@example.com.");
  // The refusal is in; only the page's data is still coming. The focus is on the refused field, and the button is no
  // longer "Sending…": nothing of Akua's is on its way, and the corrections can go as soon as they are typed.
  await expect(invite.getByLabel("Work email")).toBeFocused();
  await expect(send).toBeEnabled();
  await invite.getByLabel("Work email").fill("akua.oforiwaa@example.com");
  await invite.getByLabel("Mobile number").fill("0244 100 321");
  await invite.getByLabel("Gender").selectOption("female");
  await invite.getByLabel("Role").selectOption("Viewer");
  await invite.getByLabel("Role").focus();
  // The late answer comes in: what is in the fields must still be what was typed, not what the refusal sent back, and
  // the focus must stay where the person is, not go back to the field that was refused.
  const loading = page.getByRole("progressbar", { includeHidden: true });
  await expect(loading).toHaveClass(/progress--busy/);
  release();
  await expect(loading).not.toHaveClass(/progress--busy/);
  await expect(invite.getByLabel("Role")).toBeFocused();
  await expect(invite.getByLabel("Work email")).toHaveValue("akua.oforiwaa@example.com");
  await expect(invite.getByLabel("Mobile number")).toHaveValue("0244 100 321");
  // Accepted, the page it leads to is held back in turn: until it is here the button stays "Sending…" and disabled, so
  // a second press is not a second invitation.
  held = new Promise<void>((resolve) => (release = resolve));
  await send.click();
  await expect(invite.getByRole("button", { name: "Sending…" })).toBeDisabled();
  release();
  await expect(page.getByTestId("alert")).toContainText("The invitation for Akua Ɔforiwaa is sent for approval.");
  expect(sent).toBe(2);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the tabs and the invitation form still work", async ({ page }) => {
    await page.goto("/settings");
    await tabs(page).getByRole("link", { name: "Team" }).click();
    await expect(page).toHaveURL(/\/settings\?tab=team$/);
    const invite = page.getByRole("region", { name: "Invite an employee" });
    await invite.getByLabel("Full name").fill("Ekow Mensah");
    await invite.getByLabel("Work email").fill("esi.owusu@example.com");
    await invite.getByLabel("Mobile number").fill("0201234567");
    await invite.getByLabel("Gender").selectOption("male");
    await invite.getByLabel("Role").selectOption("Viewer");
    await invite.getByRole("button", { name: "Send for approval" }).click();
    await expect(
      page.getByRole("region", { name: "Invite an employee" }).getByText("This email already belongs to an employee of this business."),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Invite an employee" }).getByLabel("Full name")).toHaveValue("Ekow Mensah");
  });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the Team tab fits without sideways scrolling", async ({ page }) => {
    await page.goto("/settings?tab=team");
    await hydrated(page);
    await expect(page.getByRole("table", { name: "Employees" })).toBeVisible();
    await expect(tabs(page).getByRole("link", { name: "Security" })).toBeInViewport({ ratio: 1 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole("region", { name: "Invite an employee" }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});
