// npm run screenshots: the shell, the sign-in pages and settings (its Team tab too) at desktop
// width and at 390 px, into docs/screenshots/, from the built Worker (run
// `npm run build` first). Pages behind sign-in are shot as Ama Mensah.
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../tests/support/chromium";
import { eventsConsumers, startPortal } from "../tests/support/portal";
import { mintSession } from "../tests/support/sign-in";
import { prepareTemplateState } from "../tests/support/state";

const OUT = "docs/screenshots";
mkdirSync(OUT, { recursive: true });

const portal = await startPortal({ template: await prepareTemplateState(), queueConsumers: eventsConsumers({ maxRetries: 3 }) });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });

const SIGNED_OUT = new Set(["/login", "/login-option", "/select-business"]);

async function shot(name: string, width: number, path: string, before?: (page: Page) => Promise<void>, fullPage = false) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 800 }, deviceScaleFactor: 1 });
  if (!SIGNED_OUT.has(path)) {
    const session = await mintSession(await portal.db(), portal.url, "ama.mensah@example.com", "bus_kumasi_fresh_foods");
    await context.addCookies(session.browserCookies);
  }
  const page = await context.newPage();
  await page.goto(portal.url + path);
  if (!path.startsWith("/__dev/events")) await page.locator("html[data-hydrated]").waitFor();
  await before?.(page);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage });
  await context.close();
  console.log(`${OUT}/${name}.png`);
}

const showAlert = async (page: Page) => {
  await page.getByRole("button", { name: "Show success" }).click();
};

try {
  await shot("shell-desktop", 1280, "/__dev/ui", showAlert);
  await shot("shell-390", 390, "/__dev/ui", showAlert);
  await shot("drawer-390", 390, "/__dev/ui", async (page) => {
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.waitForTimeout(400); // let the drawer finish sliding in
  });
  await shot("not-found-desktop", 1280, "/merchants/42?tab=terminals");
  await shot("not-found-390", 390, "/merchants/42");
  await shot("standard-desktop", 1280, "/login");
  await shot("login-390", 390, "/login");
  await shot("settings-desktop", 1280, "/settings", (page) => page.getByLabel(/Switch business/).click());
  await shot("settings-390", 390, "/settings", (page) => page.getByLabel(/Account menu/).click());
  // The Team tab, whole page: the list, the invitations waiting and the invite form.
  await shot("settings-team-desktop", 1280, "/settings?tab=team", undefined, true);
  await shot("settings-team-390", 390, "/settings?tab=team", undefined, true);
  await shot("standard-390", 390, "/select-business");
  await shot("server-error-desktop", 1280, "/__dev/ui?fail=loader");
  await shot("modal-390", 390, "/__dev/ui", (page) => page.getByRole("button", { name: "Show response" }).click());
  // Approvals: the queue, and a request page with a changed field marked.
  const request = await (
    await portal.db()
  )
    .prepare("SELECT id FROM approval_requests WHERE kind = 'settlement_account' AND action = 'update' AND status = 'pending' LIMIT 1")
    .first<string>("id");
  await shot("approvals-desktop", 1280, "/approvals");
  await shot("approvals-390", 390, "/approvals");
  await shot("approval-request-desktop", 1280, `/approvals/settlement-account/${request}`);
  await shot("approval-request-390", 390, `/approvals/settlement-account/${request}`);
  // The visits above sent analytics events; give the queue a moment to store them.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await shot("events-desktop", 1280, "/__dev/events");
  await shot("login-option-desktop", 1280, "/login-option");
  // The unique-email sign-in at 390 px, step by step, with a refusal shown.
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${portal.url}/login-option`);
  await page.locator("html[data-hydrated]").waitFor();
  await page.getByLabel("Email address").fill("not-an-email");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Enter a valid email address").waitFor();
  await page.screenshot({ path: `${OUT}/login-option-390.png` });
  await page.getByLabel("Email address").fill("ama.mensah@example.com");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Send code" }).waitFor();
  await page.screenshot({ path: `${OUT}/authenticate-390.png` });
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("One-time code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByText(/not right|tries left/).waitFor();
  await page.screenshot({ path: `${OUT}/verify-390.png` });
  const outbox = (await (await page.request.get(`${portal.url}/__dev/outbox`, { headers: { Accept: "application/json" } })).json()) as {
    messages: { body: string }[];
  };
  await page.getByLabel("One-time code").fill(/\d{6}/.exec(outbox.messages[0]?.body ?? "")?.[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByRole("heading", { name: "Choose a business" }).waitFor();
  await page.screenshot({ path: `${OUT}/select-business-390.png` });
  await page.close();
  console.log("sign-in screenshots written");
  await shot("events-390", 390, "/__dev/events");
} finally {
  await browser.close();
  await portal.dispose();
}
