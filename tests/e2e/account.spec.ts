// The signed-in person in the top bar: who they are, switching business
// without signing in again, signing out; and /settings: profile, business
// profile, sessions and "sign out everywhere".
import { mintSession } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { expect, holdBackCode, hydrated, test } from "./fixtures";

const AMA = { email: "ama.mensah@example.com", businessId: KUMASI };

test.describe("as Ama Mensah, who works for two businesses", () => {
  test.use({ signedInAs: AMA });

  // One page reads the profiles, then switches business: the switch changes the session, so it comes last (decision
  // 003). Each is a step named as its test was, with soft checks.
  test("settings shows the profiles, and the top bar switches business without a new sign-in", async ({ page }) => {
    await test.step("settings shows the profile and the business profile of SPEC section 3", async () => {
      await page.goto("/settings");
      await expect.soft(page).toHaveTitle("Settings");
      const profile = page.getByRole("region", { name: "Your profile" });
      await expect.soft(profile).toContainText("Ama Mensah");
      await expect.soft(profile).toContainText("ama.mensah@example.com");
      // The phone is masked but for its last digits.
      await expect.soft(profile).toContainText(/233\*+\d{4}/);
      await expect.soft(profile).not.toContainText("233244123456");
      await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Business" }).click();
      const business = page.getByRole("region", { name: "Business profile" });
      for (const label of ["Business name", "Business identifier", "Contact number", "Contact email", "Town", "Region", "Sector", "Your access level"]) {
        await expect.soft(business.getByText(label, { exact: true })).toBeVisible();
      }
    });

    await test.step("the top bar shows the business and the person, and switches business without a new sign-in", async () => {
      await page.goto("/settings");
      await hydrated(page);
      const topbar = page.getByRole("banner");
      const switcher = topbar.getByLabel("Business: Kumasi Fresh Foods, Super Administrator. Switch business");
      await expect.soft(switcher).toContainText("Kumasi Fresh Foods");
      await expect.soft(switcher).toContainText("Super Administrator");
      await topbar.getByLabel("Signed in as Ama Mensah. Account menu").click();
      await expect.soft(topbar.getByText("ama.mensah@example.com")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect.soft(topbar.getByText("ama.mensah@example.com")).toBeHidden();

      await switcher.click();
      await topbar.getByRole("button", { name: /Accra Mobile Pay\s*Administrator/ }).click();
      // The switch lands on the dashboard of the other business.
      await expect.soft(topbar.getByLabel("Business: Accra Mobile Pay, Administrator. Switch business")).toBeVisible();
      await expect.soft(page).toHaveURL(/\/$/);
      await page.goto("/settings?tab=business");
      await expect.soft(page.getByRole("region", { name: "Business profile" })).toContainText("Accra Mobile Pay");
      await expect.soft(page.getByRole("region", { name: "Business profile" })).toContainText("Administrator");
    });
  });

  test("another session can be signed out from here, and it is refused at its next request", async ({ page, portal, browser }) => {
    const other = await mintSession(await portal.db(), portal.url, AMA.email, ACCRA);
    const elsewhere = await browser.newContext({ baseURL: portal.url });
    await elsewhere.addCookies(other.browserCookies);
    const otherPage = await elsewhere.newPage();
    await otherPage.goto("/settings");
    await expect(otherPage).toHaveURL(/\/settings$/);

    await page.goto("/settings?tab=security");
    await hydrated(page);
    const sessions = page.getByTestId("session");
    await expect(sessions.filter({ hasText: "This session" })).toHaveCount(1);
    const theOther = sessions.filter({ hasText: "Accra Mobile Pay" }).filter({ hasNotText: "This session" }).first();
    await theOther.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByTestId("alert")).toContainText("That session is signed out.");

    await otherPage.goto("/settings");
    await expect(otherPage).toHaveURL(/\/login-option$/);
    await elsewhere.close();
  });

  test("sign out everywhere ends this session and every other one", async ({ page, portal, browser }) => {
    const other = await mintSession(await portal.db(), portal.url, AMA.email, KUMASI);
    const elsewhere = await browser.newContext({ baseURL: portal.url });
    await elsewhere.addCookies(other.browserCookies);
    const otherPage = await elsewhere.newPage();

    await page.goto("/settings?tab=security");
    await hydrated(page);
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/login-option$/);
    await expect(page.getByTestId("alert")).toContainText("You are signed out on every device, this one included.");
    // This browser's session cookie is gone, its return URL stays (SPEC 4 does not clear it): the email channel again.
    // The other one's is refused and cleared, and goes the same way.
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login-option$/);

    await otherPage.goto("/settings");
    await expect(otherPage).toHaveURL(/\/login-option$/);
    const audit = await (
      await portal.db()
    )
      .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'auth.sign_out_everywhere' AND actor_id = 'usr_ama_mensah'")
      .first<{ n: number }>();
    expect(audit?.n).toBe(1);
    await elsewhere.close();
  });

  test("the Security tab hydrates once its code is here; pressed before, Sign out everywhere is the browser's own send, with its submission id", async ({
    page,
  }) => {
    // The tab's code is held back: the page stays the server's HTML, hydrated as a whole only once the code comes
    // (app/components/code-on-demand.tsx). A press meanwhile is the browser's own send; here it gets no page back
    // (204), so the page stays.
    const code = await holdBackCode(page, "security");
    await page.goto("/settings?tab=security");
    // The browser's entry asks for the code the document shows once it has set up the submission ids, and hydrates
    // once it is here.
    await code.asked;
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    const browserSend = new Promise<URLSearchParams>((resolve) => {
      void page.route(
        (url) => url.pathname === "/settings",
        async (route) => {
          if (route.request().method() !== "POST" || !route.request().isNavigationRequest()) return route.fallback();
          resolve(new URLSearchParams(route.request().postData() ?? ""));
          await route.fulfill({ status: 204 });
        },
      );
    });
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    const form = await browserSend;
    expect(form.get("intent")).toBe("sign-out-everywhere");
    // The id that makes a second send of the same form run once (lost-connection.spec.ts).
    expect(form.get("submission")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // It went with the send, not into the page: a field added to HTML React has not hydrated yet broke that
    // hydration (React #418 and #422, which the console check of fixtures.ts fails on).
    await expect(page.locator('input[name="submission"]')).toHaveCount(0);

    code.release();
    await hydrated(page);
    // Hydrated, the button is the portal's: the send goes through Remix and the person is signed out.
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/login-option$/);
    await expect(page.getByTestId("alert")).toContainText("You are signed out on every device, this one included.");
  });
});

// One business only, then signing out (which ends the session, so it comes last), in one page.
test("one business only: the top bar names it; signing out from its menu leaves nothing behind", async ({ page, context }) => {
  await test.step("one business only: the top bar names it, and its menu offers only the business's test mode (decision 045)", async () => {
    await page.goto("/settings");
    await hydrated(page);
    const topbar = page.getByRole("banner");
    await expect.soft(topbar.getByText("Kumasi Fresh Foods")).toBeVisible();
    await topbar.getByLabel(/Switch business/).click();
    await expect.soft(topbar.getByText("Switch business")).toHaveCount(0);
    // Beside it only the top bar's search.
    await expect.soft(topbar.getByRole("button")).toHaveText(["Search", /^Test mode/]);
  });

  await test.step("sign out from the account menu leaves nothing behind", async () => {
    await page.goto("/settings");
    await hydrated(page);
    const topbar = page.getByRole("banner");
    await topbar.getByLabel("Signed in as Kofi Boateng. Account menu").click();
    await topbar.getByRole("button", { name: "Sign out" }).click();
    await expect.soft(page).toHaveURL(/\/login-option$/);
    expect.soft((await context.cookies()).find((c) => c.name === "pp_session")).toBeUndefined();
    // The return URL outlives the session (SPEC 4 does not clear it on logout): back to the email channel.
    expect.soft((await context.cookies()).find((c) => c.name === "pp_return")).toBeDefined();
    await page.goto("/settings");
    await expect.soft(page).toHaveURL(/\/login-option$/);
  });
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 }, signedInAs: AMA });

  test("the top bar and settings fit without sideways scrolling", async ({ page }) => {
    await page.goto("/settings");
    await hydrated(page);
    const topbar = page.getByRole("banner");
    await expect(topbar.getByLabel("Signed in as Ama Mensah. Account menu")).toBeVisible();
    await topbar.getByLabel(/Switch business/).click();
    await expect(topbar.getByRole("button", { name: /Accra Mobile Pay/ })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
