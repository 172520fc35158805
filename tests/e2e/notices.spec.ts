// Notifications as the people of Kumasi Fresh Foods live them (decision 053): Esi asks for a merchant; Ama's and
// Kofi's emails are in the dev outbox with a link; Kofi, signed out, follows his, signs in and lands on the request;
// approving it sends Esi her notice (the bell and the email); Ama's waiting notice is gone from her bell, and her list
// says it was decided. The bell's count follows on navigation, with no reload. Looked at, and axe, at 1280 and 390 px.
import type { Browser, Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { fanOut } from "#server/notifications/fan-out.db";
import { KUMASI } from "../support/tenants";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { latestCodeFor } from "./outbox";

test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  headers: Record<string, string>;
}

async function emailsNaming(page: Page, marker: string, count: number): Promise<OutboxEmail[]> {
  let found: OutboxEmail[] = [];
  await expect
    .poll(async () => {
      const outbox = (await (await page.request.get("/__dev/outbox?limit=500", { headers: { Accept: "application/json" } })).json()) as {
        emails: OutboxEmail[];
      };
      found = outbox.emails.filter((email) => email.text.includes(marker));
      return found.length;
    })
    .toBeGreaterThanOrEqual(count);
  return found;
}

async function pageAs(browser: Browser, portal: Portal, email: string | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: portal.url });
  if (email) await context.addCookies((await mintSession(await portal.db(), portal.url, email, KUMASI)).browserCookies);
  return context.newPage();
}

/** The bell's unread count, as its name says it. */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.getByTestId("notice-bell").getAttribute("aria-label")) ?? "";
  return /none unread/.test(label) ? 0 : Number(/(\d+)\+? unread/.exec(label)?.[1] ?? "NaN");
}

test("a request reaches its checkers by email and bell; the link lands on it after sign-in; the decision tells its maker", async ({
  page,
  browser,
  portal,
}) => {
  // What waited before this test (the seed's requests) is told first, as the 5-minute run would have.
  const kumasi = { businessId: KUMASI, db: portal.businessDb(KUMASI) };
  while ((await fanOut(kumasi)) > 0);
  // Ama and Esi start with nothing unread (the tests before this one decided many of Esi's requests).
  await kumasi.db
    .prepare("UPDATE notifications SET read_at = ? WHERE business_id = ? AND user_id IN ('usr_ama_mensah', 'usr_esi_owusu') AND read_at IS NULL")
    .bind(new Date().toISOString(), KUMASI)
    .run();
  // Nobody starts at their hourly email cap (the tests before this one sent Ama and Kofi many emails).
  await kumasi.db
    .prepare("UPDATE notification_deliveries SET sent_at = ? WHERE business_id = ? AND sent_at > ?")
    .bind(new Date(Date.now() - 2 * 3_600_000).toISOString(), KUMASI, new Date(Date.now() - 3_600_000).toISOString())
    .run();
  const ama = await pageAs(browser, portal, "ama.mensah@example.com");
  await ama.goto("/merchants");
  await hydrated(ama);
  const amaBefore = await bellCount(ama);
  expect(amaBefore).toBe(0);

  // Esi asks for a merchant.
  await page.goto("/merchants/add-merchant");
  await hydrated(page);
  const name = "Ɔdɔ Ŋkwa Provisions 🍊 Limited";
  await page.getByLabel("Merchant code").fill("MRC-0878");
  await page.getByLabel("Registered name").fill(name);
  await page.getByLabel("Trading name").fill("Ɔdɔ Provisions");
  await page.getByLabel("TIN", { exact: true }).fill("C0087800087");
  await page.getByLabel("Sector").fill("Groceries");
  await page.getByLabel("Town").fill("Kumasi");
  await page.getByLabel("Region").selectOption("Ashanti");
  await page.getByLabel("Address").fill("Kejetia Market, Kumasi");
  await page.getByLabel("Contact name").fill("Yaa Asantewaa");
  await page.getByLabel("Contact phone").fill("0244878787");
  await page.getByLabel("Contact email").fill("yaa@odo.example.com");
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByText(new RegExp(`${name}: Sent for approval`))).toBeVisible();

  // Ama's and Kofi's emails, each with its own link and the one-click unsubscribe; none for Esi, who asked.
  const emails = await emailsNaming(page, name, 2);
  expect(new Set(emails.map((email) => email.to))).toEqual(new Set(["ama.mensah@example.com", "kofi.boateng@example.com"]));
  for (const email of emails) {
    expect(email.subject).toBe("A request waits for your decision");
    expect(email.text).toContain(`Esi Owusu asks to add a merchant: ${name}.`);
    expect(email.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  }
  const kofisLink = new URL(/Open in Partners Portal: (\S+)/.exec(emails.find((email) => email.to === "kofi.boateng@example.com")!.text)![1]!);
  // The email as a mail client shows it, the dev outbox listing it, and its unsubscribe page (a GET only asks).
  const kofisEmail = emails.find((email) => email.to === "kofi.boateng@example.com")!;
  const unsubscribe = new URL(/^<(.+)>$/.exec(kofisEmail.headers["List-Unsubscribe"]!)![1]!).pathname;
  for (const width of [1280, 390]) {
    const look = await browser.newPage({ baseURL: portal.url, viewport: { width, height: 900 } });
    await look.goto(`/__dev/outbox/email/${kofisEmail.id}`);
    await expect(look.getByRole("link", { name: "Open in Partners Portal" })).toBeVisible();
    await lookAt(look, { path: `notice-email-${width}.png`, fullPage: true });
    await look.goto("/__dev/outbox");
    await expect(look.getByRole("region", { name: "Email to kofi.boateng@example.com" }).first()).toBeVisible();
    await lookAt(look, { path: `dev-outbox-${width}.png` });
    await look.goto(unsubscribe);
    await expect(look.getByRole("button", { name: /^Stop/ })).toBeVisible();
    await lookAt(look, { path: `unsubscribe-${width}.png`, fullPage: true });
    expect(await axeViolations(look)).toEqual([]);
    await look.close();
  }

  // Ama's bell counts it at her next page, without a reload.
  await ama.getByRole("navigation").getByRole("link", { name: "Transactions" }).click();
  await expect(ama).toHaveURL(/\/transactions/);
  await expect.poll(() => bellCount(ama)).toBe(amaBefore + 1);

  // Kofi, signed out, follows his link: sign-in first, then the request itself.
  // The tests before this one sign Kofi in often: his phone's hourly codes start afresh, as an hour later they would.
  await portal.core().prepare("DELETE FROM otp_counters WHERE key IN (?, ?)").bind("233244556677", "usr_kofi_boateng").run();
  const kofi = await pageAs(browser, portal, null);
  await kofi.context().setExtraHTTPHeaders({ "CF-Connecting-IP": "198.19.41.1" });
  await kofi.goto(kofisLink.pathname);
  await expect(kofi).toHaveURL(/\/login$/);
  await kofi.getByRole("link", { name: /email/i }).click();
  await kofi.getByLabel("Email address").fill("kofi.boateng@example.com");
  await kofi.getByRole("button", { name: "Continue" }).click();
  await expect(kofi).toHaveURL(/\/authenticate$/);
  await kofi.getByRole("button", { name: "Send code" }).click();
  await expect(kofi).toHaveURL(/\/authenticate\/verify$/);
  await kofi.getByLabel("One-time code").fill(await latestCodeFor(kofi.request, "233244556677"));
  await kofi.getByRole("button", { name: "Verify" }).click();
  await kofi.getByRole("button", { name: /Kumasi Fresh Foods/ }).click();
  await expect(kofi).toHaveURL(/\/approvals\/merchant\/apr_/);
  await expect(kofi.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(kofi.getByText(name).first()).toBeVisible();
  await hydrated(kofi);

  // He approves it.
  await clickChecked(kofi, portal, kofi.getByRole("button", { name: "Approve" }));
  await expect(kofi.getByText(/approved/i).first()).toBeVisible();

  // Esi's notice: her email, and her bell at her next page, leading to the request.
  const decided = await emailsNaming(page, `Kofi Boateng approved your request to add a merchant: ${name}.`, 1);
  expect(decided.map((email) => [email.to, email.subject])).toEqual([["esi.owusu@example.com", "Your request was approved"]]);
  await page.getByRole("navigation").getByRole("link", { name: "Merchants" }).click();
  await expect(page).toHaveURL(/\/merchants/);
  await expect.poll(() => bellCount(page)).toBeGreaterThanOrEqual(1);
  await page.getByTestId("notice-bell").click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  const esisNotice = page.getByRole("link", { name: new RegExp(`Your request was approved.*${name}`) });
  await expect(esisNotice).toBeVisible();

  // Ama's waiting notice is gone from her bell at her next page; her list says the request was decided.
  await ama.getByRole("navigation").getByRole("link", { name: "Merchants" }).click();
  await expect(ama).toHaveURL(/\/merchants/);
  await expect.poll(() => bellCount(ama)).toBe(amaBefore);
  await ama.getByTestId("notice-bell").click();
  const amasRow = ama.getByRole("row").filter({ hasText: name });
  await expect(amasRow).toContainText("Decided");

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Loaded at that width, as a phone would (not mid-way through the drawer's slide).
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId("notice-bell")).toBeVisible();
    await lookAt(page, { path: `notifications-${width}.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `no sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }

  // Following it opens the request, and marks it read.
  await esisNotice.click();
  await expect(page).toHaveURL(/\/approvals\/merchant\/apr_/);
  await ama.context().close();
  await kofi.context().close();
});

test("Settings → Profile says which notices come by email and SMS, keeps a change, and keeps security notices on", async ({ page }) => {
  await page.goto("/settings");
  await hydrated(page);
  const card = () => page.getByRole("region", { name: "Notifications" });
  const waiting = card().getByLabel("Email: A dispute's response is due in 3 days, and again in 1 day", { exact: true });
  await expect(waiting).toBeChecked();
  await expect(card().getByLabel("SMS: A dispute's response is due in 3 days, and again in 1 day", { exact: true })).not.toBeChecked();
  // Security notices are always sent: shown on, and not to be changed.
  const security = card().getByLabel("SMS: A passkey, phone or authenticator app was added or removed (always sent)");
  await expect(security).toBeChecked();
  await expect(security).toBeDisabled();
  await waiting.uncheck();
  await card().getByLabel("SMS: A dispute's response is due in 3 days, and again in 1 day", { exact: true }).check();
  await card().getByRole("button", { name: "Save notification choices" }).click();
  await expect(page.getByText("Saved: your notification choices are kept.")).toBeVisible();
  await expect(card().getByLabel("Email: A dispute's response is due in 3 days, and again in 1 day", { exact: true })).not.toBeChecked();
  await expect(card().getByLabel("SMS: A dispute's response is due in 3 days, and again in 1 day", { exact: true })).toBeChecked();
  await expect(card().getByLabel("Email: My request was approved", { exact: true })).toBeChecked();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await hydrated(page);
    await lookAt(page, { path: `settings-notifications-${width}.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }
  await card().getByLabel("Email: A dispute's response is due in 3 days, and again in 1 day", { exact: true }).check();
  await card().getByLabel("SMS: A dispute's response is due in 3 days, and again in 1 day", { exact: true }).uncheck();
  await card().getByRole("button", { name: "Save notification choices" }).click();
  await expect(page.getByText("Saved: your notification choices are kept.")).toBeVisible();
});
