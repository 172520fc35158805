// Passkeys as a person uses them (decision 024), in Chromium with its virtual authenticator (the DevTools
// WebAuthn domain): add one in Settings > Security, sign out, sign in with it instead of a code, remove it; and a
// sign-in answered with the removed passkey is refused in words. WebAuthn needs a secure context whose host can be
// a relying party id, so the portal is opened as http://localhost:<port> (its own origin and host outside
// production, functions/env.ts relyingPartyFor).
import type { CDPSession, Page } from "@playwright/test";
import { mintSession } from "../support/sign-in";
import { SoftwareAuthenticator } from "../support/software-authenticator";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked, mintCheckFor, passCheckDialog } from "./fresh-check";

test.use({ signedInAs: null });

const EMAIL = "yaw.asante@example.com";
const BUSINESS = "bus_accra_mobile_pay";
const LAPTOP = "Yaw's Ɔdɔ laptop 💻";

async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return cdp;
}

async function signInWithEmail(page: Page, base: string) {
  await page.goto(`${base}/login-option`);
  await hydrated(page);
  await page.getByLabel("Email address").fill(EMAIL);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
  await hydrated(page);
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await lookAt(page, { path: `tmp/screens/passkeys-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

// Other tests sign this person in with a code: whatever this test adds does not outlive it.
test.afterEach(async ({ portal }) => {
  await portal
    .core()
    .prepare("UPDATE passkeys SET removed_at = ? WHERE user_id IN (SELECT id FROM users WHERE email = ?) AND removed_at IS NULL")
    .bind(new Date().toISOString(), EMAIL)
    .run();
});

test("add a passkey, sign in with it instead of a code, remove it; the removed passkey is refused", async ({ page, context, portal }) => {
  test.setTimeout(90_000);
  const base = portal.url.replace("127.0.0.1", "localhost");
  const session = await mintSession(await portal.db(), base, EMAIL, BUSINESS);
  await context.addCookies(session.browserCookies);
  await virtualAuthenticator(page);

  // Settings > Security: none yet; a name that does not do is said before the device is asked; then one is added.
  await page.goto(`${base}/settings?tab=security`);
  await hydrated(page);
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  const name = page.getByLabel("Name of the new passkey");
  const add = page.getByRole("button", { name: "Add a passkey" });
  await add.click();
  await expect(page.getByRole("alert")).toHaveText("Name the passkey.");
  await name.fill(LAPTOP);
  // Adding a passkey asks for a fresh check first (fresh-check.spec.ts goes through it by code): made here as a code would.
  await add.click();
  await passCheckDialog(page, portal);
  await add.click();
  await expect(page.getByRole("status")).toContainText(`The passkey “${LAPTOP}” is added.`);
  const listed = page.getByTestId("passkey");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(LAPTOP);
  await expect(listed).toContainText("Never used");
  await shoot(page, "security");

  // Signed out, the sign-in offers the passkey first and keeps the code as the fallback.
  await context.clearCookies();
  await signInWithEmail(page, base);
  await expect(page.getByRole("heading", { name: "How do you want to sign in?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send code" })).toBeVisible();
  await shoot(page, "authenticate");
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page).toHaveURL(/\/select-business$/);
  await page.getByRole("button", { name: /Accra Mobile Pay/ }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`${base}/settings?tab=security`);
  await expect(page.getByTestId("passkey")).toContainText("Last used");

  // A second passkey (another device: the software authenticator, through the portal's own endpoint), so the
  // sign-in still offers a passkey once the laptop's is removed.
  const phone = await SoftwareAuthenticator.create();
  const endpoint = `${base}/authenticate/passkey`;
  const headers = { Origin: base };
  // A new passkey needs a fresh check (decision 027): made as a code would.
  await mintCheckFor(page, portal, "passkey:add");
  const asked = await page.request.post(endpoint, { headers, data: { intent: "register-options", name: "Phone" } });
  const { options } = (await asked.json()) as { options: Parameters<SoftwareAuthenticator["register"]>[0] };
  const stored = await page.request.post(endpoint, {
    headers,
    data: { intent: "register", name: "Phone", response: await phone.register(options, { origin: base }) },
  });
  expect(stored.status()).toBe(200);

  const laptop = await portal
    .core()
    .prepare("SELECT credential_id FROM passkeys WHERE name = ? AND removed_at IS NULL")
    .bind(LAPTOP)
    .first<{ credential_id: string }>();
  await page.reload();
  const laptopRow = page.getByTestId("passkey").filter({ hasText: LAPTOP });
  await laptopRow.getByText("Remove", { exact: true }).click();
  await expect(laptopRow.getByText(/It can no longer sign you in, and your other sessions are signed out at once/)).toBeVisible();
  await laptopRow.getByRole("button", { name: "Remove passkey" }).click();
  await expect(page.getByText("The passkey is removed.")).toBeVisible();
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await expect(page.getByTestId("passkey")).toContainText("Phone");

  // The browser still holds the laptop's passkey; a client that offers it anyway is refused in words.
  await context.clearCookies();
  await signInWithEmail(page, base);
  await page.route("**/authenticate/passkey", async (route) => {
    const body = route.request().postDataJSON() as { intent: string };
    if (body.intent !== "sign-in-options") return route.continue();
    const answer = await route.fetch();
    const json = (await answer.json()) as { options: { allowCredentials: { id: string; type: string }[] } };
    json.options.allowCredentials = [{ id: laptop!.credential_id, type: "public-key" }];
    await route.fulfill({ response: answer, json });
  });
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This passkey is not registered to your account, or it was removed. Use another passkey or a code by text message.",
  );
  await expect(page).toHaveURL(/\/authenticate$/);
  // The code by text message is still there.
  await expect(page.getByRole("button", { name: "Send code" })).toBeEnabled();
});

test("a passkey prompt the person does not complete is a message, not an error", async ({ page, context, portal }) => {
  const base = portal.url.replace("127.0.0.1", "localhost");
  const session = await mintSession(await portal.db(), base, "esi.owusu@example.com", "bus_kumasi_fresh_foods");
  await context.addCookies(session.browserCookies);
  // The device does not verify the person (they cancelled, or the fingerprint did not match).
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: false },
  });
  await page.goto(`${base}/settings?tab=security`);
  await hydrated(page);
  await page.getByLabel("Name of the new passkey").fill("Ɔfori's key");
  await clickChecked(page, portal, page.getByRole("button", { name: "Add a passkey" }));
  await expect(page.getByRole("alert")).toHaveText("The passkey request was cancelled or timed out. Try again when you are ready.");
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
});
