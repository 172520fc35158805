// After a send the server refuses (400 with messages), focus is on the error summary, or the first field in error, and
// it is on screen: one behaviour of every form (app/components/forms/form.tsx), checked on two forms at 390 px and 1280 px.
import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";

/** The focused element's text and whether it is inside the viewport. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const box = element.getBoundingClientRect();
    return {
      summary: element.hasAttribute("data-error-summary") || element.classList.contains("notice--danger"),
      invalid: element.getAttribute("aria-invalid") === "true",
      text: element.textContent ?? "",
      inView: box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0,
    };
  });
}

for (const width of [390, 1280]) {
  test(`a refused new merchant takes focus to the error summary, on screen (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/merchants/add-merchant");
    await hydrated(page);
    // The send button is at the bottom of a long form: the summary is off screen when it is pressed.
    await page.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Some fields need attention" })).toBeVisible();
    await expect.poll(() => focused(page)).toMatchObject({ summary: true, inView: true });
  });
}

test("a refused terminal action takes focus to the first field in error, on screen (390 px)", async ({ page, portal }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  const terminal = await (
    await portal.db()
  )
    .prepare("SELECT id FROM terminals WHERE business_id = 'bus_kumasi_fresh_foods' AND status = 'active' ORDER BY serial LIMIT 1")
    .first<{ id: string }>();
  await page.goto(`/pos-terminals/device-details/${terminal!.id}`);
  await hydrated(page);
  const block = page.locator("form").filter({ has: page.getByRole("button", { name: "Block terminal" }) });
  // The browser's own check would stop an empty reason before it is sent: a reason of spaces reaches the server.
  await block.getByLabel("Reason").fill("   ");
  await block.getByRole("button", { name: "Block terminal" }).click();
  await expect.poll(() => focused(page)).toMatchObject({ inView: true });
  const now = await focused(page);
  expect(now!.summary || now!.invalid).toBe(true);
});

test("the focus is on the refused field by the time its message shows: what is typed next goes where it is typed", async ({ page }) => {
  // Where the focus was when the first message of the refusal entered the page, noted as the page changed (a mutation
  // observer), before any other task of the page (a press, a key) could run.
  await page.addInitScript(() => {
    const noted: string[] = [];
    Object.assign(window, { focusWhenRefusalShowed: noted });
    new MutationObserver(() => {
      if (noted.length > 0) return;
      const refused = document.getElementById("main")?.querySelector('[data-error-summary], [aria-invalid="true"], .field-error');
      if (refused) noted.push(document.activeElement?.id || document.activeElement?.tagName || "nothing");
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto("/settings?tab=team");
  await hydrated(page);
  const invite = page.getByRole("region", { name: "Invite an employee" });
  await invite.getByLabel("Full name").fill("Akua Ɔforiwaa");
  await invite.getByLabel("Work email").fill("akua@example");
  await invite.getByRole("button", { name: "Send for approval" }).click();
  await expect(invite.getByLabel("Work email")).toHaveAccessibleDescription("Enter an email address like name@example.com.");
  expect(await page.evaluate(() => (window as unknown as { focusWhenRefusalShowed: string[] }).focusWhenRefusalShowed)).toEqual(["invite-email"]);
});
