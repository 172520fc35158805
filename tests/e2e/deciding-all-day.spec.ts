// A checker's whole day without a lockout, in Chromium (decisions 027 and 049): Kofi decides 50 of Esi's requests in
// the hour with each factor in turn, every decision under a real check, alone on its page or in a bulk decision whose
// check names its requests. By passkey (Chromium's virtual authenticator): 2 alone, then 25 and 23 chosen in the queue.
// By authenticator app: he signs in with the app's code instead of waiting for a text message, then decides two
// chosen pages of 25, a code (a time step) each. By SMS: he signs in with a code, decides 20 alone (opened from the
// queue), each with a code typed, then 25 and 5 chosen; the checks' codes and typed codes are their own, so he is
// never locked out (before, the 20th typed code was refused) and he can still sign in again.
// The hour is the counters' own window: the day starts with Kofi's counters empty and runs in minutes, nothing waits.
// The screens it touches are looked at, at 1280 and 390 px, and axe finds nothing on them.
import type { Locator, Page } from "@playwright/test";
import { requestChange } from "#server/approvals/approvals.db";
import type { AuthDeps } from "#server/auth/deps";
import type { VerifiedSession } from "#server/auth/guards";
import { confirmEnrolment, startEnrolment } from "#server/authenticator/authenticator-app";
import { configOf } from "#server/env";
import { appCode } from "../support/authenticator-app";
import type { Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { NOT_A_NOTICE } from "../support/sms-texts";

const KOFI = "kofi.boateng@example.com";
const KOFI_ID = "usr_kofi_boateng";
const KOFI_PHONE = "233244556677";
const WAITING = "/approvals?view=waiting";

test.use({ signedInAs: null });
test.describe.configure({ timeout: 240_000 });

interface Asked {
  id: string;
  name: string;
}

let day = 0;

/** `count` new merchants asked for by Esi, for Kofi to decide: the fastest path the tests have (the change engine, no page). */
async function esiAsks(count: number): Promise<Asked[]> {
  day += 1;
  const tag = `${Date.now() % 100_000}${day}`;
  const asked: Asked[] = [];
  for (let i = 0; i < count; i += 1) {
    const n = `${tag}${String(i).padStart(2, "0")}`;
    const name = `Ɔdikro Ɛsi Foods ${n}`;
    const id = await requestChange(ESI_KUMASI, META, {
      kind: "merchant",
      action: "create",
      after: {
        code: `MER-D${n}`,
        name,
        trading_name: `Ɔdikro ${n}`,
        tin: `C${String(6_500_000_000 + Number(n) * 10)}`,
        sector: "Retail",
        town: "Kumasi",
        region: "Ashanti",
        address: "5 Adum Road",
        contact_name: "Ɔdikro Ɛsi",
        contact_phone: "233244000777",
        contact_email: "odikro@example.com",
      },
    });
    asked.push({ id, name });
  }
  return asked;
}

/**
 * The hour starts: Kofi's code counters and typed-code windows are empty (other tests in this worker used his), and
 * he has no passkey or authenticator app until the day sets one up.
 */
async function newHour(portal: Portal): Promise<void> {
  const at = new Date().toISOString();
  await portal
    .core()
    .batch([
      portal.core().prepare("DELETE FROM otp_counters WHERE key IN (?, ?, ?, ?)").bind(KOFI_PHONE, KOFI_ID, `check:${KOFI_PHONE}`, `check:${KOFI_ID}`),
      portal.core().prepare("DELETE FROM rate_windows WHERE client LIKE ?").bind(`%:account:${KOFI_ID}`),
      portal.core().prepare("UPDATE passkeys SET removed_at = ? WHERE user_id = ? AND removed_at IS NULL").bind(at, KOFI_ID),
      portal.core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ? AND removed_at IS NULL").bind(at, KOFI_ID),
    ]);
}

// The worker's other tests find Kofi as they would have: the day's codes, messages and factors gone.
test.afterEach(async ({ portal }) => {
  await newHour(portal);
  await portal.core().prepare("DELETE FROM dev_outbox WHERE to_msisdn = ?").bind(KOFI_PHONE).run();
});

async function statuses(portal: Portal, asked: Asked[]): Promise<string[]> {
  const db = await portal.db();
  const rows = await Promise.all(
    asked.map(({ id }) => db.prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?").bind(id, KUMASI).first<{ status: string }>()),
  );
  return rows.map((row) => row?.status ?? "missing");
}

/** How the check dialog is passed: a passkey, the app's next code, or a code texted and read from the phone. */
type Factor = (dialog: Locator) => Promise<void>;

const byPasskey: Factor = async (dialog) => {
  await dialog.getByRole("button", { name: "Use your passkey" }).click();
};

/**
 * The codes an authenticator app shows, one time step each (30 s): a step is taken once, and the portal takes one step
 * either side of now, so the next code is the step after the last one used, never earlier than the one before now.
 */
function authenticatorApp(secret: string) {
  let last = Math.floor(Date.now() / 30_000) - 2;
  return () => {
    const now = Math.floor(Date.now() / 30_000);
    last = Math.max(last + 1, now - 1);
    if (last > now + 1) throw new Error("The app has no new code before the next 30 seconds");
    return appCode(secret, last * 30_000);
  };
}

function byApp(nextCode: () => string): Factor {
  return async (dialog) => {
    await dialog.getByRole("button", { name: "Use your authenticator app" }).click();
    await dialog.getByLabel("Code from your authenticator app").fill(nextCode());
    await dialog.getByRole("button", { name: "Confirm" }).click();
  };
}

/** The phone: each code that arrives is read once (the newest message to Kofi, not the one before). */
function kofisPhone(page: Page) {
  let lastRead = "";
  return async (): Promise<string> => {
    let code = "";
    await expect
      .poll(async () => {
        const outbox = (await (await page.request.get("/__dev/outbox", { headers: { Accept: "application/json" } })).json()) as {
          messages: { id?: number; to: string; body: string }[];
        };
        const newest = outbox.messages.find((message) => message.to === KOFI_PHONE)?.body ?? "";
        code = newest === lastRead ? "" : (/\b(\d{6})\b/.exec(newest)?.[1] ?? "");
        if (code) lastRead = newest;
        return code;
      })
      .toMatch(/^\d{6}$/);
    return code;
  };
}

function bySms(read: () => Promise<string>): Factor {
  return async (dialog) => {
    await dialog.getByRole("button", { name: /^Text a code to 233\*+6677$/ }).click();
    const field = dialog.getByLabel(/^Code sent to/);
    await expect(field).toBeFocused();
    await field.fill(await read());
    await dialog.getByRole("button", { name: "Confirm" }).click();
  };
}

const checkDialog = (page: Page) => page.getByRole("dialog", { name: "Confirm it is you" });

/** One request decided on its own page, under a check for it alone (`base`: the portal's address, when not the default). */
async function decideAlone(page: Page, asked: Asked, pass: Factor, base = ""): Promise<void> {
  // From the queue, as a checker goes: the request's row opens its page (no page load); else the page itself.
  const row = page.getByRole("link", { name: new RegExp(`^${asked.name}`) });
  if (await row.count()) await row.click();
  else await page.goto(`${base}/approvals/merchant/${asked.id}`);
  await expect(page).toHaveURL(new RegExp(`/approvals/merchant/${asked.id}$`));
  await hydrated(page);
  await page.getByRole("button", { name: "Approve" }).click();
  const dialog = checkDialog(page);
  await expect(dialog).toContainText("To decide this request, confirm it is you.");
  await pass(dialog);
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByText("Approved: the merchant change has taken effect.")).toBeVisible();
}

/**
 * Requests ticked in the queue and approved together, under one check that names them; the queue says how many and
 * no longer offers them. `look`: the dialog is looked at, at 1280 and 390 px, with axe.
 */
async function decideChosen(page: Page, chosen: Asked[], pass: Factor, options: { base?: string; look?: string } = {}): Promise<void> {
  if (!page.url().endsWith(WAITING)) {
    await page.goto(`${options.base ?? ""}${WAITING}`);
    await hydrated(page);
  }
  const box = (asked: Asked) => page.getByRole("checkbox", { name: `Choose ${asked.name}` });
  for (const asked of chosen) await box(asked).check();
  await page.getByRole("button", { name: "Approve chosen" }).click();
  const dialog = checkDialog(page);
  await expect(dialog).toContainText("To decide the requests you chose, confirm it is you.");
  const covers = dialog.getByTestId("check-covers");
  await expect(covers.getByRole("heading")).toHaveText(`This check covers these ${chosen.length} requests:`);
  // Each one named, and nothing else (in the order of their ids).
  await expect(covers.getByRole("listitem")).toHaveCount(chosen.length);
  expect((await covers.getByRole("listitem").allInnerTexts()).sort()).toEqual(chosen.map((asked) => asked.name).sort());
  if (options.look) await looked(page, options.look);
  await pass(dialog);
  await expect(dialog).toBeHidden();
  await expect(box(chosen[0]!)).toHaveCount(0);
  await expect(page.getByText(`Approved ${chosen.length} requests.`)).toBeVisible();
}

/** Signs Kofi in by email as a person does, up to the code step. */
async function toTheCodeStep(page: Page): Promise<void> {
  await page.goto("/login-option");
  await hydrated(page);
  await page.getByLabel("Email address").fill(KOFI);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
}

/** After the code step: his business, then the dashboard. */
async function intoKumasi(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/select-business$/);
  await page.getByRole("button", { name: /Kumasi Fresh Foods/ }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
}

async function looked(page: Page, name: string): Promise<void> {
  await lookAt(page, { path: `${name}-1280.png` });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  // The navigation slides away as the window narrows: the picture is taken with it gone.
  await lookAt(page, { path: `${name}-390.png`, animations: "disabled" });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("by passkey: 50 decisions, 2 alone and 48 in two named bulk decisions, each under a check by the passkey", async ({ page, context, portal }) => {
  await newHour(portal);
  const asked = await esiAsks(50);
  // WebAuthn needs a host that can be a relying party: the portal as http://localhost:<port> (passkeys.spec.ts).
  const base = portal.url.replace("127.0.0.1", "localhost");
  await context.addCookies((await mintSession(await portal.db(), base, KOFI, KUMASI)).browserCookies);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  // Setting the passkey up is checked by what he already has (as tests make that check); the decisions are not.
  await page.goto(`${base}/settings?tab=security`);
  await hydrated(page);
  await page.getByLabel("Name of the new passkey").fill("Kofi's Ɛkuu phone 📱");
  await clickChecked(page, portal, page.getByRole("button", { name: "Add a passkey" }));
  await expect(page.getByRole("status")).toContainText("is added.");

  const sentBefore = await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n");
  for (const one of asked.slice(0, 2)) await decideAlone(page, one, byPasskey, base);
  await decideChosen(page, asked.slice(25), byPasskey, { base, look: "check-covers-passkey" });
  await decideChosen(page, asked.slice(2, 25), byPasskey, { base });
  expect(await statuses(portal, asked)).toEqual(Array(50).fill("approved"));
  // Four checks, one passkey, no text message.
  expect(await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")).toBe(sentBefore);
  const checks = await portal
    .core()
    .prepare("SELECT count(*) AS n FROM fresh_checks WHERE user_id = ? AND method = 'passkey' AND used_at IS NOT NULL AND created_at > ?")
    .bind(KOFI_ID, new Date(Date.now() - 10 * 60_000).toISOString())
    .first<number>("n");
  expect(checks).toBe(4);
});

test("by authenticator app: signs in with the app's code instead of waiting for the text, then 50 decisions in two named bulk decisions", async ({
  page,
  portal,
}) => {
  await newHour(portal);
  const asked = await esiAsks(50);
  // The app was set up an hour ago (on Settings → Security, through the portal's own steps at that hour's time).
  const hourAgo = Date.now() - 60 * 60_000;
  const deps: AuthDeps = {
    db: portal.core(),
    businessDb: (businessId, shard) => ({ businessId, db: portal.database(shard) }),
    config: configOf({ ENVIRONMENT: "development" }).auth,
    meta: META,
    now: () => hourAgo,
  };
  const then = await mintSession(await portal.db(), portal.url, KOFI, KUMASI, { createdAt: hourAgo });
  const setUpIn = { sid: then.sid, sub: KOFI_ID, email: KOFI, stage: "business_chosen" } as VerifiedSession;
  const enrolment = await startEnrolment(deps, setUpIn);
  if ("refused" in enrolment) throw new Error(enrolment.refused);
  const secret = enrolment.secret.replace(/ /g, "");
  expect(await confirmEnrolment(deps, setUpIn, KUMASI, enrolment.id, appCode(secret, hourAgo))).toEqual({ ok: true });
  const app = authenticatorApp(secret);
  const sentBefore = await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n");

  await toTheCodeStep(page);
  await expect(page.getByRole("heading", { name: "How do you want to sign in?" })).toBeVisible();
  await looked(page, "sign-in-choice-app");
  await expect(page.getByRole("link", { name: "Use your authenticator app" })).toHaveAttribute("href", "/authenticate/verify?with=app");
  // He asks for a text first; rather than wait for it, he gives the app's code at the same step.
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/authenticate\/verify$/);
  await looked(page, "sign-in-code-or-app");
  await page.getByRole("link", { name: "Use your authenticator app instead" }).click();
  await expect(page).toHaveURL(/\/authenticate\/verify\?with=app$/);
  await expect(page.getByRole("link", { name: "Use the code sent to 233*****6677 instead" })).toBeVisible();
  const field = page.getByLabel("Code from your authenticator app");
  await field.fill("12345");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Enter the 6-digit code your authenticator app shows.")).toBeVisible();
  await looked(page, "sign-in-app-code");
  await field.fill(app());
  await page.getByRole("button", { name: "Verify" }).click();
  await intoKumasi(page);

  await decideChosen(page, asked.slice(25), byApp(app), { look: "check-covers-app" });
  await decideChosen(page, asked.slice(0, 25), byApp(app));
  expect(await statuses(portal, asked)).toEqual(Array(50).fill("approved"));
  // 50 decided without a text message: the one sent was the sign-in code he did not wait for.
  expect(await portal.core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")).toBe((sentBefore ?? 0) + 1);
});

test("by SMS: signs in with a code, 20 decisions alone with a code each and 30 in two named bulk decisions; no lockout, and sign-in still has its codes", async ({
  page,
  browser,
  portal,
}) => {
  await newHour(portal);
  const asked = await esiAsks(50);
  const phone = kofisPhone(page);
  await toTheCodeStep(page);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/authenticate\/verify$/);
  await page.getByLabel("One-time code").fill(await phone());
  await page.getByRole("button", { name: "Verify" }).click();
  await intoKumasi(page);

  // 20 codes typed in a few minutes after sign-in's: more than the 20 in 10 minutes that checks once shared with it.
  // The newest first, each opened from the queue; then the others ticked, a page and the rest.
  await page.goto(WAITING);
  for (const one of asked.slice(30).reverse()) await decideAlone(page, one, bySms(phone));
  const smsLeft = (left: number) => async (dialog: Locator) => {
    await expect(dialog.getByTestId("codes-left")).toHaveText(`${left} of 30 codes left this hour.`);
    await bySms(phone)(dialog);
  };
  await decideChosen(page, asked.slice(5, 30), smsLeft(10));
  await decideChosen(page, asked.slice(0, 5), smsLeft(9));
  expect(await statuses(portal, asked)).toEqual(Array(50).fill("approved"));

  // His next sign-in, elsewhere, has its own codes: neither sent nor typed ones were used up by the day's checks.
  const elsewhere = await browser.newContext({ baseURL: portal.url, extraHTTPHeaders: { "CF-Connecting-IP": "198.18.250.9" } });
  const later = await elsewhere.newPage();
  await toTheCodeStep(later);
  await later.getByRole("button", { name: "Send code" }).click();
  await expect(later).toHaveURL(/\/authenticate\/verify$/);
  await expect(later.getByRole("link", { name: "Use your authenticator app instead" })).toHaveCount(0);
  await later.getByLabel("One-time code").fill(await kofisPhone(later)());
  await later.getByRole("button", { name: "Verify" }).click();
  await intoKumasi(later);
  await elsewhere.close();
});
