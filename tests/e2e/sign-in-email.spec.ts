// Unique-email sign-in as a person does it: email, phone, the code from the
// text message (the development outbox), then the business.
import { expect, hydrated, test } from "./fixtures";
import { latestCodeFor } from "./outbox";

test.use({ signedInAs: null });

test("email, phone, code and business take a person into the portal", async ({ page, request, context }) => {
  await page.goto("/login-option");
  await hydrated(page);
  const email = page.getByLabel("Email address");
  const go = page.getByRole("button", { name: "Continue" });

  await go.click();
  await expect(page.getByText("Enter your email address.")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await email.fill("ama.mensah@example");
  await go.click();
  await expect(page.getByText("Enter a valid email address, like name@company.com.")).toBeVisible();
  await email.fill("nobody.here@example.com");
  await go.click();
  await expect(page.getByText(/No portal account uses this email address/)).toBeVisible();

  await email.fill("  Ama.Mensah@Example.com ");
  await go.click();
  await expect(page).toHaveURL(/\/authenticate$/);
  await expect(page.getByText("Signing in as ama.mensah@example.com.")).toBeVisible();
  const phones = page.getByRole("radio");
  await expect(phones).toHaveCount(2);
  // Numbers are masked but for their last digits.
  await expect(page.getByText("233*****3456")).toBeVisible();
  await expect(page.locator("body")).not.toContainText("233244123456");
  await page.getByText("233*****6543").click();
  await page.getByRole("button", { name: "Send code" }).click();

  await expect(page).toHaveURL(/\/authenticate\/verify$/);
  await expect(page.getByText("We sent a 6-digit code to 233*****6543.")).toBeVisible();
  const code = await latestCodeFor(request, "233209876543");
  const codeField = page.getByLabel("One-time code");
  const verify = page.getByRole("button", { name: "Verify" });
  await codeField.fill("12345");
  await verify.click();
  await expect(page.getByText("Enter the 6-digit code from the text message.")).toBeVisible();
  await codeField.fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
  await verify.click();
  await expect(page.getByText("That code is not right. 4 tries left.")).toBeVisible();
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByText(/Please wait \d+ seconds before asking for a new code./)).toBeVisible();
  await codeField.fill(code);
  await verify.click();

  await expect(page).toHaveURL(/\/select-business$/);
  await expect(page).toHaveTitle("Select Business");
  await expect(page.getByRole("button", { name: /Accra Mobile Pay\s*Administrator/ })).toBeVisible();
  await page.getByRole("button", { name: /Kumasi Fresh Foods\s*Super Administrator/ }).click();
  // The business chosen, the dashboard opens.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("banner").getByLabel(/Business: Kumasi Fresh Foods/)).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "pp_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  // Signed in: the sign-in page sends the person on to the portal.
  await page.goto("/login-option");
  await expect(page).toHaveURL(/\/$/);
});

test("the later steps send a signed-out person back to the start", async ({ page }) => {
  for (const path of ["/authenticate", "/authenticate/verify", "/select-business"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
});

test("the sign-in steps work at 390 px wide", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/login-option");
  await expect(page.getByLabel("Email address")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a unique-email user whose session runs out goes back to /login-option at the next navigation", async ({ page, request, context }) => {
  // Esi has one phone and one business: the steps are short, and no other test asks codes for her.
  await page.goto("/login-option");
  await hydrated(page);
  await page.getByLabel("Email address").fill("esi.owusu@example.com");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/authenticate\/verify$/);
  await page.getByLabel("One-time code").fill(await latestCodeFor(request, "233201112223"));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/select-business$/);
  await page.getByRole("button", { name: /Kumasi Fresh Foods/ }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // The session cookie lives 12 hours beyond the session, so an ended one can say why (decision 026); the return URL weeks longer.
  const now = Date.now() / 1000;
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "pp_session")!;
  const stored = cookies.find((c) => c.name === "pp_return");
  expect(session.expires - now).toBeGreaterThan(23.9 * 3600);
  expect(session.expires - now).toBeLessThanOrEqual(24 * 3600);
  expect(stored).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(stored!.expires - now).toBeGreaterThan(29 * 24 * 3600);

  // A day passes. Playwright's clock (page.clock) cannot stand for them: it moves the
  // page's Date and timers, not Chromium's cookie store nor the Worker's clock. So the
  // session cookie is given the end it reaches then, and Chromium itself drops it.
  await context.addCookies([{ ...session, expires: Math.ceil(Date.now() / 1000) + 1 }]);
  await expect.poll(async () => (await context.cookies()).some((c) => c.name === "pp_session"), { timeout: 5_000 }).toBe(false);

  // The next navigation, in the app.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Merchants" }).click();
  await expect(page).toHaveURL(/\/login-option$/);
  await expect(page.getByLabel("Email address")).toBeVisible();
  // And a typed address, a whole document request, goes the same way.
  await page.goto("/reports");
  await expect(page).toHaveURL(/\/login-option$/);
});
