// Work-account and Google sign-in in Chromium against REAL OpenID providers
// (oidc-provider, configured like Microsoft Entra ID and like Google) run by the
// test: the popup, the blocked-popup redirect, the user closing the popup or
// cancelling, interaction required, user_switch, no network, cookies blocked,
// and a provider nobody can reach.
import type { APIRequestContext, Page } from "@playwright/test";
import type { AnalyticsEvent } from "#app/lib/analytics/analytics";
import { eventsConsumers, startPortal, type Portal } from "../support/portal";
import { closedPort, startOidcProvider, type LocalProvider } from "../support/oidc-provider";
import { mintSession } from "../support/sign-in";
import { E2E_TEMPLATE_STATE, prepareTemplateState } from "../support/state";
import { expect, hydrated, test as base } from "./fixtures";

const TENANT = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const USER_SWITCH =
  "User attempted to switch accounts in the native broker, which is not allowed. All new accounts must sign-in through the standard web flow first, please try again.";

interface Providers {
  microsoft: LocalProvider;
  google: LocalProvider;
}

/** A portal with these vars, on a port known in advance (the providers must know its redirect URIs). */
async function portalWith(vars: Record<string, string>, port?: number): Promise<Portal> {
  const template = await prepareTemplateState(E2E_TEMPLATE_STATE);
  return startPortal({ template, port, vars, queueConsumers: eventsConsumers({ maxRetries: 3 }) });
}

const test = base.extend<object, { providers: Providers; portalOrigin: string }>({
  portalOrigin: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => use(`http://127.0.0.1:${await closedPort()}`),
    { scope: "worker" },
  ],
  providers: [
    async ({ portalOrigin }, use) => {
      const callback = (provider: string) => [`${portalOrigin}/auth/oidc/${provider}/callback`];
      const microsoft = await startOidcProvider({
        kind: "microsoft",
        tenantId: TENANT,
        clients: [{ clientId: "portal-microsoft", clientSecret: "microsoft-secret", redirectUris: callback("microsoft") }],
        accounts: [{ id: "kofi-work", claims: { tid: TENANT, preferred_username: "kofi.boateng@example.com", name: "Kofi Boateng" } }],
      });
      const google = await startOidcProvider({
        kind: "google",
        clients: [{ clientId: "portal-google", clientSecret: "google-secret", redirectUris: callback("google") }],
        accounts: [
          { id: "ama", claims: { email: "ama.mensah@example.com", email_verified: true, name: "Ama Mensah" } },
          { id: "stranger", claims: { email: "stranger@example.com", email_verified: true, name: "A Stranger" } },
        ],
      });
      await use({ microsoft, google });
      await microsoft.close();
      await google.close();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  portal: [
    async ({ providers, portalOrigin }, use) => {
      const portal = await portalWith(
        {
          MICROSOFT_ISSUER: providers.microsoft.configuredIssuer,
          MICROSOFT_CLIENT_ID: "portal-microsoft",
          MICROSOFT_CLIENT_SECRET: "microsoft-secret",
          GOOGLE_ISSUER: providers.google.configuredIssuer,
          GOOGLE_CLIENT_ID: "portal-google",
          GOOGLE_CLIENT_SECRET: "google-secret",
          // Not a size: the popup opens at SPEC's default 483x600.
          SIGN_IN_POPUP_SIZE: "wide",
        },
        Number(new URL(portalOrigin).port),
      );
      await use(portal);
      await portal.dispose();
    },
    { scope: "worker", timeout: 120_000 },
  ],
});

test.use({ signedInAs: null });
// The provider hosts these tests make unreachable, or the network they switch off.
test.use({ allowConsoleErrors: /^Failed to load resource: net::ERR_(NAME_NOT_RESOLVED|INTERNET_DISCONNECTED)$/ });

const workAccount = (page: Page) => page.getByRole("button", { name: "Sign in with work account" });
const google = (page: Page) => page.getByRole("button", { name: "Sign in with Google" });

/** The provider's own pages: its login form (any password), then its consent page. */
async function signInAtProvider(window: Page, account: string): Promise<void> {
  await window.locator('input[name="login"]').fill(account);
  await window.locator('input[name="password"]').fill("any password");
  await window.getByRole("button", { name: "Sign-in" }).click();
  await window.getByRole("button", { name: "Continue" }).click();
}

/** The analytics events stored since `since` (the relay with no events service keeps them for /__dev/events). */
async function eventsSince(request: APIRequestContext, since: number): Promise<AnalyticsEvent[]> {
  const response = await request.get("/__dev/events?limit=500", { headers: { Accept: "application/json" } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { events: { event: AnalyticsEvent }[] };
  return body.events.map((stored) => stored.event).filter((event) => event.occurredAt >= since);
}

/** The SignInFailed events' channel and code since `since`, once `count` of them have arrived. */
async function signInFailures(request: APIRequestContext, since: number, count: number): Promise<unknown[]> {
  const failures = async () => (await eventsSince(request, since)).filter((e) => e.eventId === "SignInFailed").map((e) => e.eventValue.value);
  await expect.poll(async () => (await failures()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
  return failures();
}

async function openLogin(page: Page): Promise<void> {
  await page.goto("/login");
  await hydrated(page);
}

test("work account in a popup of the default size: the popup hands over and the person goes on to the code", async ({ page }) => {
  await page.addInitScript(() => {
    const open = window.open.bind(window);
    window.open = (...args: Parameters<typeof window.open>) => {
      (window as unknown as { __popupFeatures?: string }).__popupFeatures = String(args[2]);
      return open(...args);
    };
  });
  await openLogin(page);
  await expect(page).toHaveTitle("Login");
  const popupOpened = page.waitForEvent("popup");
  await workAccount(page).click();
  const popup = await popupOpened;
  await expect(page.getByRole("button", { name: "Signing in…" })).toHaveAttribute("aria-busy", "true");
  expect(await page.evaluate(() => (window as unknown as { __popupFeatures?: string }).__popupFeatures)).toMatch(/width=483,height=600/);
  await popup.waitForURL(/\/interaction\//);

  // One sign-in at a time (SPEC section 4): a second one, by Google, the same button or email, is refused
  // with a message, opens no other window, and leaves this one running.
  const popups: Page[] = [];
  page.context().on("page", (opened) => popups.push(opened));
  await google(page).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("A sign-in is already in progress.");
  await page.getByRole("button", { name: "Signing in…" }).click();
  await page.getByRole("link", { name: "Sign in with your email" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("sign-in-error")).toHaveText("A sign-in is already in progress.");
  expect(popups, "no second sign-in window").toEqual([]);
  expect(popup.isClosed()).toBe(false);

  // Entra's account picker: the provider asks for the account (prompt=select_account).
  await signInAtProvider(popup, "kofi-work");
  await expect(page).toHaveURL(/\/authenticate$/);
  expect(popup.isClosed(), "the portal closed the popup").toBe(true);
  await expect(page.getByText("Signing in as kofi.boateng@example.com.")).toBeVisible();
});

test("Google when pop-ups are blocked: the whole page goes to the provider and comes back", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await openLogin(page);
  await google(page).click();
  await page.waitForURL(/\/interaction\//);
  await signInAtProvider(page, "ama");
  await expect(page).toHaveURL(/\/authenticate$/);
  await expect(page.getByText("Signing in as ama.mensah@example.com.")).toBeVisible();
});

test("the events of the pages before a business is chosen carry the session's email", async ({ page, request }) => {
  const since = Date.now() - 1000;
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await openLogin(page);
  await google(page).click();
  await page.waitForURL(/\/interaction\//);
  await signInAtProvider(page, "ama");
  await expect(page).toHaveURL(/\/authenticate$/);
  await hydrated(page);
  const views = async () => (await eventsSince(request, since)).filter((e) => e.eventId === "PageView" && e.sectionName === "Authenticate");
  await expect.poll(async () => (await views()).length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect((await views())[0]).toMatchObject({ userEmail: "ama.mensah@example.com", extrasObject: { businessName: null, businessId: null } });
});

// One login page is refused in turns, none of which signs anyone in (decision 003): a user_switch refusal (first, while
// the provider knows nobody in this browser), the popup closed, cancelled at the provider or by an account with no
// portal user; the narrow window last, the only step that changes it. Each is a step named as its test was, with soft checks. A sign-in that lands, a page script, the
// connection and JavaScript off keep their own context.
test("refusals that sign nobody in leave the login page ready for the next try", async ({ page, providers }) => {
  await test.step("a user_switch refusal shows SPEC's message word for word", async () => {
    providers.google.failNextInteraction("user_switch");
    await openLogin(page);
    await google(page).click();
    await expect.soft(page.getByTestId("sign-in-error")).toHaveText(USER_SWITCH);
    await expect.soft(google(page)).toBeEnabled();
  });

  await test.step("closing the popup: the buttons come back and the message says what happened", async () => {
    await openLogin(page);
    const popupOpened = page.waitForEvent("popup");
    await google(page).click();
    const popup = await popupOpened;
    await popup.waitForURL(/\/interaction\//);
    await popup.close();
    await expect.soft(page.getByTestId("sign-in-error")).toHaveText("The sign-in window was closed before sign-in finished. Please try again.");
    await expect.soft(google(page)).toBeEnabled();
    await expect.soft(workAccount(page)).toBeEnabled();
    await expect.soft(page).toHaveURL(/\/login$/);
    expect.soft((await page.context().cookies()).find((c) => c.name === "pp_session")).toBeUndefined();
  });

  await test.step("cancelling at the provider and an account with no portal user are told apart", async () => {
    await openLogin(page);
    let popupOpened = page.waitForEvent("popup");
    await google(page).click();
    let popup = await popupOpened;
    await popup.waitForURL(/\/interaction\//);
    await popup.getByRole("link", { name: "[ Cancel ]" }).click();
    await expect.soft(page.getByTestId("sign-in-error")).toHaveText("Sign-in was cancelled.");

    popupOpened = page.waitForEvent("popup");
    await google(page).click();
    popup = await popupOpened;
    await popup.waitForURL(/\/interaction\//);
    await signInAtProvider(popup, "stranger");
    await expect
      .soft(page.getByTestId("sign-in-error"))
      .toHaveText("No portal account uses this email address. Check it, or ask your administrator to invite you.");
    await expect.soft(page).toHaveURL(/\/login$/);
  });

  await test.step("the login page at 390 px wide", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openLogin(page);
    await expect.soft(workAccount(page)).toBeVisible();
    await expect.soft(page.getByRole("link", { name: "Sign in with your email" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(overflow).toBeLessThanOrEqual(0);
  });
});

test("failures only the browser sees are analytics events: the popup closed, a second sign-in, no network", async ({ page, context, request }) => {
  const since = Date.now() - 1000;
  await openLogin(page);
  const popupOpened = page.waitForEvent("popup");
  await workAccount(page).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/interaction\//);
  await google(page).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("A sign-in is already in progress.");
  await popup.close();
  await expect(page.getByTestId("sign-in-error")).toHaveText("The sign-in window was closed before sign-in finished. Please try again.");
  await context.setOffline(true);
  await workAccount(page).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("No network connection. Check your connection and try again.");
  // Back online, the queue sends what waited.
  await context.setOffline(false);
  // The three of this test, whatever an earlier test's page sent within the same second.
  await expect
    .poll(() => signInFailures(request, since, 3), { timeout: 10_000 })
    .toEqual(
      expect.arrayContaining([
        { channel: "google", code: "in_progress", message: "A sign-in is already in progress." },
        { channel: "microsoft", code: "popup_closed", message: "The sign-in window was closed before sign-in finished. Please try again." },
        { channel: "microsoft", code: "no_network", message: "No network connection. Check your connection and try again." },
      ]),
    );
  const closed = (await eventsSince(request, since)).find((e) => e.eventId === "SignInFailed" && e.eventDescription.endsWith("popup_closed"));
  expect(closed).toMatchObject({ eventType: "Error", sectionName: "Login", userEmail: null });
});

test("interaction required in the popup falls back to the full-page flow", async ({ page, providers }) => {
  providers.microsoft.failNextInteraction("interaction_required");
  await openLogin(page);
  const popupOpened = page.waitForEvent("popup");
  await workAccount(page).click();
  const popup = await popupOpened;
  // The page itself is now at the provider, and the popup is gone.
  await page.waitForURL(/\/interaction\//);
  expect(popup.isClosed()).toBe(true);
  await signInAtProvider(page, "kofi-work");
  await expect(page).toHaveURL(/\/authenticate$/);
});

test("no network: nothing opens at the provider and the person is told to check the connection", async ({ page, context }) => {
  await openLogin(page);
  await context.setOffline(true);
  await workAccount(page).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("No network connection. Check your connection and try again.");
  await expect(workAccount(page)).toBeEnabled();
  await context.setOffline(false);
});

test("a redirect that could not keep its state (cookies blocked) is refused", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
    Object.defineProperty(Navigator.prototype, "cookieEnabled", { get: () => false });
  });
  await openLogin(page);
  await google(page).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText(
    "Sign-in by redirect needs cookies, which this browser is blocking for the portal. Allow cookies (or pop-ups) for this site and try again.",
  );
  await expect(page).toHaveURL(/\/login$/);
});

test("without JavaScript the button is a form that takes the page to the provider", async ({ browser, portal }) => {
  const context = await browser.newContext({ baseURL: portal.url, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with Google" }).click();
  await page.waitForURL(/\/interaction\//);
  await context.close();
});

test("a signed-in person who opens /login goes to the portal", async ({ page, portal, context }) => {
  const session = await mintSession(await portal.db(), portal.url, "kofi.boateng@example.com", "bus_kumasi_fresh_foods");
  await context.addCookies(session.browserCookies);
  await page.goto("/login");
  await expect(page).not.toHaveURL(/\/login$/);
});

test.describe("a provider nobody can reach", () => {
  const unreachable = test.extend<object, { portal: Portal }>({
    portal: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const portal = await portalWith({
          GOOGLE_ISSUER: `http://127.0.0.1:${await closedPort()}`,
          GOOGLE_CLIENT_ID: "portal-google",
          GOOGLE_CLIENT_SECRET: "google-secret",
        });
        await use(portal);
        await portal.dispose();
      },
      { scope: "worker", timeout: 120_000 },
    ],
  });

  unreachable("the popup closes and SPEC's connectivity message shows; the work account says it is not configured", async ({ page }) => {
    await openLogin(page);
    await expect(page.getByRole("button", { name: "Work account sign-in is not configured" })).toBeDisabled();
    const popupOpened = page.waitForEvent("popup");
    await google(page).click();
    const popup = await popupOpened;
    await expect(page.getByTestId("sign-in-error")).toHaveText("Action Failed. Please check connectivity and try again");
    expect(popup.isClosed(), "the blank popup is closed again").toBe(true);
    await expect(google(page)).toBeEnabled();
  });
});
