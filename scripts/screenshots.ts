// npm run screenshots: the shell at desktop width and at 390 px, into
// docs/screenshots/, from the built Worker (run `npm run build` first).
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../tests/support/chromium";
import { eventsConsumers, startPortal } from "../tests/support/portal";
import { prepareTemplateState } from "../tests/support/state";

const OUT = "docs/screenshots";
mkdirSync(OUT, { recursive: true });

const portal = await startPortal({ template: await prepareTemplateState(), queueConsumers: eventsConsumers({ maxRetries: 3 }) });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });

async function shot(name: string, width: number, path: string, before?: (page: Page) => Promise<void>) {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 844 : 800 }, deviceScaleFactor: 1 });
  await page.goto(portal.url + path);
  if (!path.startsWith("/__dev/events")) await page.locator("html[data-hydrated]").waitFor();
  await before?.(page);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: false });
  await page.close();
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
  await shot("standard-390", 390, "/select-business");
  await shot("server-error-desktop", 1280, "/__dev/ui?fail=loader");
  await shot("modal-390", 390, "/__dev/ui", (page) => page.getByRole("button", { name: "Show response" }).click());
  // The visits above sent analytics events; give the queue a moment to store them.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await shot("events-desktop", 1280, "/__dev/events");
  await shot("events-390", 390, "/__dev/events");
} finally {
  await browser.close();
  await portal.dispose();
}
