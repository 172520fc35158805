// The Partner API end to end (decisions 016 and 044), in Chromium: Kofi Boateng (Administrator) makes an API
// key and a webhook endpoint on the Developers tab, the traffic simulator
// (`npm run simulate`, the real script) sends payments through the public API
// with that key, a payment shows on the dashboard and in the transactions list,
// and the endpoint's delivery log shows its delivery. A Viewer sees no
// Developers tab and is refused (403) when he posts to it.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { KEY_PATTERN } from "#server/partner-api/keys";
import { startWebhookReceiver } from "../support/fake-webhook-receiver";
import { disableEndpoints } from "../support/partner-api";
import { ACCRA, KOFI_KUMASI, KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked } from "./fresh-check";

const ROOT = resolve(import.meta.dirname, "../..");

/** Runs `npm run simulate` (the script itself) against this portal with the key Kofi made; resolves to its output. */
function simulate(portalUrl: string, stateDir: string, key: string, seconds: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn("npx", ["tsx", "scripts/simulate.ts", "--url", portalUrl, "--rate", "4", "--seconds", String(seconds), "--seed", "12"], {
      cwd: ROOT,
      env: { ...process.env, PP_API_KEY: key, PP_STATE_DIR: stateDir },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done(output) : fail(new Error(`simulate exited ${code}:\n${output}`))));
  });
}

test("a key, an endpoint, the simulator: payments reach the dashboard, the list and the endpoint", async ({ page, portal }) => {
  test.setTimeout(120_000);
  const receiver = await startWebhookReceiver();
  try {
    await page.goto("/settings?tab=developers");
    await hydrated(page);

    // Kofi starts on the endpoint, for payment.succeeded, at a receiver on this machine (http://localhost: development only)...
    const add = page.getByRole("region", { name: "Add a webhook endpoint" });
    await add.getByLabel("URL").fill(receiver.url("/portal-hooks"));
    await add.getByLabel("Description (optional)").fill("Till system Ɛsi 🧾");
    await add.getByLabel("payment.succeeded").check();

    // ...makes the key meanwhile, shown once...
    const create = page.getByRole("region", { name: "Create key" });
    await create.getByLabel("Name").fill("Simulator Ɔsono 🐘");
    await clickChecked(page, portal, create.getByRole("button", { name: "Create key" }));
    const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
    expect(secret).toMatch(KEY_PATTERN);

    // ...and what he typed for the endpoint is still there (the key's send did not empty another form).
    await expect(add.getByLabel("URL")).toHaveValue(receiver.url("/portal-hooks"));
    await expect(add.getByLabel("payment.succeeded")).toBeChecked();
    await clickChecked(page, portal, add.getByRole("button", { name: "Add endpoint" }));
    const endpoint = page
      .getByRole("list", { name: "Webhook endpoints" })
      .getByRole("listitem")
      .filter({ hasText: receiver.url("/portal-hooks") });
    await expect(endpoint).toBeVisible();
    await expect(endpoint.getByText("Till system Ɛsi 🧾")).toBeVisible();
    const logHref = await endpoint.getByRole("link", { name: "Delivery log" }).getAttribute("href");

    const todayCount = async () => Number((await page.getByTestId("today-count").locator(".figure__value").textContent())?.replace(/,/g, "") ?? "0");
    await page.goto("/");
    const countBefore = await todayCount();
    const output = await simulate(portal.url, portal.stateDir, secret, 5);
    expect(output).toMatch(/accepted [1-9]\d*/);
    const db = await portal.db();
    const sent = await db
      .prepare("SELECT reference FROM transactions WHERE business_id = ? AND reference LIKE 'SIM%' ORDER BY created_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<string>("reference");
    expect(sent, "a simulated payment written by the consumer").toBeTruthy();

    // The dashboard's today so far has moved, and its latest payments show it.
    await page.goto("/");
    await expect
      .poll(async () => {
        await page.reload();
        return todayCount();
      })
      .toBeGreaterThan(countBefore);

    // The transactions list finds it by reference.
    await page.goto(`/transactions?range=today&q=${encodeURIComponent(sent!)}`);
    await expect(page.getByRole("table").getByText(sent!)).toBeVisible();

    // The endpoint heard of it, and its delivery log says so.
    await expect.poll(() => receiver.to("/portal-hooks").length, { timeout: 20_000 }).toBeGreaterThan(0);
    const announced = JSON.parse(receiver.to("/portal-hooks")[0]!.body) as { type: string; data: { reference: string } };
    expect(announced.type).toBe("payment.succeeded");
    await page.goto(logHref!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Delivery Log");
    const deliveries = page.getByRole("list", { name: "Deliveries, newest first" });
    await expect(deliveries.getByRole("heading", { name: "payment.succeeded" }).first()).toBeVisible();
    await expect(deliveries.getByText("Delivered").first()).toBeVisible();
    await lookAt(page, { path: test.info().outputPath("delivery-log-1280.png"), fullPage: true });
  } finally {
    await disableEndpoints(portal, KOFI_KUMASI);
    await receiver.close();
  }
});

test.describe("as Yaw Asante (Viewer)", () => {
  test.use({ signedInAs: { email: "yaw.asante@example.com", businessId: ACCRA } });
  test("sees no Developers tab and gets 403 posting to it", async ({ page }) => {
    await page.goto("/settings");
    await expect(page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Developers" })).toHaveCount(0);
    const response = await page.request.post("/settings?tab=developers", {
      form: { intent: "create-key", name: "Sneaky" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(response.status()).toBe(403);
  });
});
