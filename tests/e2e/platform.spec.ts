// Platform operators, as the acquirer's staff meet the portal on a fresh deployment (decision 039): `npm run
// platform:admin` makes Efua, who signs in with her code and lands on the platform; she onboards a cooperative and a
// second administrator approves it; its Super Administrator finds an empty, working business, asks for a merchant and a
// point of sale, and its second administrator approves them; the switch's platform key pushes a payment a business's
// people see on their dashboard; suspension stops that business's people and its own key but not the switch's payments;
// Platform Support reads a request and cannot decide it.
import { spawn } from "node:child_process";
import type { BrowserContext, Page } from "@playwright/test";
import { makeKey, momoPayment, partiesOf } from "../support/partner-api";
import type { Portal } from "../support/portal";
import { ADJOA, makeStaff } from "../support/platform";
import { mintSession } from "../support/sign-in";
import { ACCRA } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";
import { clickChecked } from "./fresh-check";
import { latestCodeFor } from "./outbox";

test.use({ signedInAs: null });
test.describe.configure({ mode: "serial" });

const EFUA = { email: "efua.mensah@acquirer.example.com", phone: "024 510 0001", msisdn: "233245100001", name: "Efua Mensah" };
const KWAME = { email: "kwame.ofori@acquirer.example.com", phone: "024 510 0002", name: "Kwame Ofori" };
const COOPERATIVE = "Tamale Shea Ɛkuo Cooperative";
const SUPER_ADMIN = { name: "Abdul-Rahman Issah", email: "abdul.issah@tamaleshea.example.com", phone: "020 555 0101" };
const SECOND_ADMIN = { name: "Ŋmɛ Adjei Wumbei", email: "wumbei@tamaleshea.example.com", phone: "020 555 0102" };

/** `npm run platform:admin` on the portal's own state folder, as a deployer runs it; its exit code and output. */
function platformAdmin(portal: Portal, person: { email: string; phone: string; name: string }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "npx",
      ["tsx", "scripts/platform-admin.ts", "--email", person.email, "--phone", person.phone, "--name", person.name, "--persist-to", portal.stateDir],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** A browser context signed in as `email` (in `businessId`, or before choosing one), as the fixture signs one in. */
async function signedIn(context: BrowserContext, portal: Portal, email: string, businessId: string | null): Promise<Page> {
  const session = await mintSession(await portal.db(), portal.url, email, businessId);
  await context.addCookies(session.browserCookies);
  return context.newPage();
}

async function cooperativeId(portal: Portal): Promise<string> {
  const row = await portal.core().prepare("SELECT id FROM businesses WHERE trading_name = ?").bind(COOPERATIVE).first<{ id: string }>();
  if (!row) throw new Error(`${COOPERATIVE} is not on the platform`);
  return row.id;
}

test("npm run platform:admin makes Efua, who signs in with her code and lands on the platform", async ({ page, request, portal }) => {
  const made = await platformAdmin(portal, EFUA);
  expect(made.code, made.out).toBe(0);
  expect((await platformAdmin(portal, EFUA)).out).toMatch(/already a Platform Administrator/);
  const refused = await platformAdmin(portal, { ...KWAME, phone: "12345" });
  expect(refused.code).toBe(2);
  expect(await portal.core().prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(KWAME.email).first<{ n: number }>()).toEqual({ n: 0 });

  await page.goto("/login-option");
  await hydrated(page);
  await page.getByLabel("Email address").fill(EFUA.email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/authenticate$/);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("One-time code").fill(await latestCodeFor(request, EFUA.msisdn));
  await page.getByRole("button", { name: "Verify" }).click();

  await expect(page).toHaveURL(/\/platform$/);
  await expect(page.getByRole("heading", { level: 1, name: "Platform" })).toBeVisible();
  await expect(page.getByRole("banner").getByLabel(/Platform operations, Platform Administrator/)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Platform Requests" })).toBeVisible();
});

test("Efua onboards a cooperative, which exists only once a second administrator approves it", async ({ browser, portal }) => {
  expect((await platformAdmin(portal, KWAME)).code).toBe(0);
  const efua = await signedIn(await browser.newContext(), portal, EFUA.email, null);
  await efua.goto("/platform");
  await efua.getByRole("link", { name: "Onboard a business" }).click();
  await expect(efua.getByRole("heading", { level: 1, name: "Onboard a business" })).toBeVisible();
  await hydrated(efua);

  await efua.getByLabel("Legal name").fill(`${COOPERATIVE} Limited`);
  await efua.getByLabel("Trading name").fill(COOPERATIVE);
  await efua.getByLabel("Business identifier").fill("CS160152013");
  await efua.getByLabel("Sector").fill("Agriculture");
  await efua.getByLabel("Town").fill("Tamale");
  await efua.getByLabel("Region").selectOption("Northern");
  await efua.getByLabel("Contact number").fill("037 202 2345");
  await efua.getByLabel("Contact email").fill("office@tamaleshea.example.com");
  const first = efua.getByRole("group", { name: "Super Administrator" });
  await first.getByLabel("Full name").fill(SUPER_ADMIN.name);
  await first.getByLabel("Email").fill(SUPER_ADMIN.email);
  await first.getByLabel("Mobile number").fill(SUPER_ADMIN.phone);
  const second = efua.getByRole("group", { name: "Administrator", exact: true });
  await second.getByLabel("Full name").fill(SECOND_ADMIN.name);
  await second.getByLabel("Email").fill(SECOND_ADMIN.email);
  await second.getByLabel("Mobile number").fill(SECOND_ADMIN.phone);
  await efua.getByRole("button", { name: "Send for approval" }).click();

  await expect(efua).toHaveURL(/\/platform\/requests\/preq_[\w-]+$/);
  const requestUrl = new URL(efua.url()).pathname;
  await expect(efua.getByRole("heading", { level: 1, name: `Onboard ${COOPERATIVE}` })).toBeVisible();
  await expect(efua.getByTestId("own-request")).toBeVisible();
  await expect(efua.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await efua.goto("/platform");
  await expect(efua.getByRole("link", { name: COOPERATIVE })).toHaveCount(0);

  const kwame = await signedIn(await browser.newContext(), portal, KWAME.email, null);
  await kwame.goto(requestUrl);
  await hydrated(kwame);
  await clickChecked(kwame, portal, kwame.getByRole("button", { name: "Approve", exact: true }));
  await expect(kwame).toHaveURL(/\/platform\/requests$/);
  await expect(kwame.getByText(`Approved: Onboard ${COOPERATIVE}.`)).toBeVisible();
  await kwame.goto("/platform");
  await expect(kwame.getByRole("link", { name: new RegExp(COOPERATIVE) })).toBeVisible();
});

test("its Super Administrator finds an empty business, asks for a merchant and a point of sale, and its Administrator approves them", async ({
  browser,
  portal,
}) => {
  const businessId = await cooperativeId(portal);
  const abdul = await signedIn(await browser.newContext(), portal, SUPER_ADMIN.email, businessId);
  await abdul.goto("/");
  await expect(abdul.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(abdul.getByRole("banner").getByText(COOPERATIVE)).toBeVisible();
  await abdul.goto("/merchants");
  await expect(abdul.getByText("No merchants yet")).toBeVisible();

  await abdul.goto("/merchants/add-merchant");
  await hydrated(abdul);
  await abdul.getByLabel("Merchant code").fill("TSC-0001");
  await abdul.getByLabel("Registered name").fill("Ɛkuo Shea Butter Processors");
  await abdul.getByLabel("Trading name").fill("Ɛkuo Shea Butter");
  await abdul.getByLabel("TIN", { exact: true }).fill("C0098765432");
  await abdul.getByLabel("Sector").fill("Agriculture");
  await abdul.getByLabel("Town").fill("Tamale");
  await abdul.getByLabel("Region").selectOption("Northern");
  await abdul.getByLabel("Address").fill("Plot 9, Kalpohin, Tamale");
  await abdul.getByLabel("Contact name").fill("Mariam Alhassan");
  await abdul.getByLabel("Contact phone").fill("0244 765 432");
  await abdul.getByLabel("Contact email").fill("mariam@ekuoshea.example.com");
  await abdul.getByRole("button", { name: "Send for approval" }).click();
  await expect(abdul).toHaveURL(/\/merchants$/);

  const wumbei = await signedIn(await browser.newContext(), portal, SECOND_ADMIN.email, businessId);
  const approve = async (kind: string) => {
    await wumbei.goto(`/approvals?kind=${kind}`);
    await wumbei.getByRole("table").getByRole("link", { name: "Open the request" }).first().click();
    // The queue has "Approve chosen" too: wait for the request's own page before deciding on it.
    await expect(wumbei).toHaveURL(new RegExp(`/approvals/${kind}/[\\w-]+$`));
    await hydrated(wumbei);
    await clickChecked(wumbei, portal, wumbei.getByRole("button", { name: "Approve", exact: true }));
    // Decided: the request's page gives way to the queue with what it did (the request's URL also has /approvals).
    await expect(wumbei.getByText(/^Approved: /)).toBeVisible();
    await expect(wumbei).not.toHaveURL(new RegExp(`/approvals/${kind}/`));
  };
  await approve("merchant");
  await abdul.goto("/merchants");
  await abdul
    .getByRole("link", { name: /Ɛkuo Shea Butter/ })
    .first()
    .click();
  await expect(abdul.getByRole("heading", { level: 1, name: /Ɛkuo Shea Butter/ })).toBeVisible();

  await abdul.getByRole("link", { name: "Add point of sale" }).click();
  await hydrated(abdul);
  await abdul.getByLabel("Name").fill("Kalpohin Shed");
  await abdul.getByLabel("Address").fill("Kalpohin Market, Tamale");
  await abdul.getByLabel("Contact phone").fill("024 412 3456");
  await abdul.getByRole("button", { name: "Send for approval" }).click();
  // The form itself says "Sent for approval: …" before it is sent: wait for the flash that says it was.
  await expect(abdul.getByText(/Point of sale sent for approval/)).toBeVisible();
  await approve("point-of-sale");
  await abdul.reload();
  await expect(abdul.getByRole("link", { name: /Kalpohin Shed/ })).toBeVisible();
});

test("the switch's key pushes payments a business's people see; suspension stops its people and its own key, not the switch; Support cannot decide", async ({
  browser,
  request,
  portal,
}) => {
  const efua = await signedIn(await browser.newContext(), portal, EFUA.email, null);
  await efua.goto("/platform/keys");
  await hydrated(efua);
  const create = efua.getByRole("region", { name: "Create key" });
  await create.getByLabel("Name").fill("The switch 🔁");
  await clickChecked(efua, portal, create.getByRole("button", { name: "Create key" }));
  const key = (await efua.getByTestId("new-key-secret").textContent())!.trim();
  expect(key).toMatch(/^pp_platform_/);

  const parties = await partiesOf(portal, ACCRA);
  const push = (payment: Record<string, unknown>) =>
    request.post("/api/v1/payments", { headers: { Authorization: `Bearer ${key}`, "PP-Business": ACCRA }, data: payment });
  const seen = momoPayment(parties[0]!, { amount: 43_210 });
  expect((await push(seen)).status()).toBe(202);

  const yaw = await signedIn(await browser.newContext(), portal, "yaw.asante@example.com", ACCRA);
  await expect(async () => {
    await yaw.goto("/");
    await expect(yaw.getByText(seen.reference as string)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  const ownKey = await makeKey(portal, ACCRA);
  const kwame = await signedIn(await browser.newContext(), portal, KWAME.email, null);
  const decide = async (intent: "suspend" | "reactivate", why: string) => {
    await efua.goto(`/platform/businesses/${ACCRA}/lifecycle`);
    await hydrated(efua);
    await efua.getByLabel("Why").fill(why);
    await efua.getByRole("button", { name: `Ask to ${intent}` }).click();
    await expect(efua).toHaveURL(/\/platform\/requests\/preq_[\w-]+$/);
    const url = new URL(efua.url()).pathname;
    await kwame.goto(url);
    await hydrated(kwame);
    await clickChecked(kwame, portal, kwame.getByRole("button", { name: "Approve", exact: true }));
    await expect(kwame).toHaveURL(/\/platform\/requests$/);
    return url;
  };
  try {
    await decide("suspend", "Know-your-customer papers expired");
    await yaw.goto("/transactions");
    await expect(yaw).toHaveURL(/\/login/);
    expect((await request.post("/api/v1/payments", { headers: { Authorization: `Bearer ${ownKey}` }, data: momoPayment(parties[0]!) })).status()).toBe(403);
    const during = momoPayment(parties[0]!, { amount: 5_555 });
    expect((await push(during)).status()).toBe(202);
    await expect
      .poll(
        async () =>
          (await portal.businessDb(ACCRA).prepare("SELECT count(*) AS n FROM transactions WHERE reference = ?").bind(during.reference).first<{ n: number }>())
            ?.n,
      )
      .toBe(1);

    // Platform Support reads the next request and is told who decides it.
    await makeStaff(portal.core(), ADJOA);
    await efua.goto(`/platform/businesses/${ACCRA}/lifecycle`);
    await efua.getByLabel("Why").fill("Papers renewed");
    await efua.getByRole("button", { name: "Ask to reactivate" }).click();
    await expect(efua).toHaveURL(/\/platform\/requests\/preq_[\w-]+$/);
    const adjoa = await signedIn(await browser.newContext(), portal, ADJOA.email, null);
    await adjoa.goto(new URL(efua.url()).pathname);
    await expect(adjoa.getByText("Only a Platform Administrator can approve or reject requests.")).toBeVisible();
    await expect(adjoa.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await kwame.goto(new URL(efua.url()).pathname);
    await hydrated(kwame);
    await clickChecked(kwame, portal, kwame.getByRole("button", { name: "Approve", exact: true }));
    await expect(kwame).toHaveURL(/\/platform\/requests$/);
    const back = await signedIn(await browser.newContext(), portal, "yaw.asante@example.com", ACCRA);
    await back.goto("/");
    await expect(back.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  } finally {
    // Other files of this worker share the portal: Accra is active again whatever happened above.
    await portal
      .core()
      .batch([
        portal.core().prepare("UPDATE business_shards SET lifecycle = 'active' WHERE business_id = ?").bind(ACCRA),
        portal.core().prepare("UPDATE businesses SET status = 'active' WHERE id = ?").bind(ACCRA),
      ]);
    await portal.businessDb(ACCRA).prepare("UPDATE businesses SET status = 'active' WHERE id = ?").bind(ACCRA).run();
  }
});
