// Alerts, the response modal, the generic error handler and flash messages
// (SPEC sections 3, 8 and 9), driven through the UI kit page.
import { expect, hydrated, test } from "./fixtures";

// The generic error handler logs what it shows (SPEC section 8); these tests call it on purpose.
test.use({
  allowConsoleErrors:
    /^(Message from data|Message from response data|Message of the error|The fallback message|Action Failed\. Please check connectivity and try again) /,
});

test.beforeEach(async ({ page }) => {
  await page.goto("/__dev/ui");
  await hydrated(page);
});

test("each alert kind shows when set and goes on reset", async ({ page }) => {
  const alert = page.getByTestId("alert");
  for (const [kind, role] of [
    ["danger", "alert"],
    ["warning", "alert"],
    ["success", "status"],
    ["info", "status"],
  ] as const) {
    await page.getByRole("button", { name: `Show ${kind}` }).click();
    await expect(alert).toHaveAttribute("data-kind", kind);
    await expect(alert).toContainText(`A ${kind} alert.`);
    await expect(page.getByRole(role).filter({ has: alert })).toHaveCount(1);
  }
  await page.getByRole("button", { name: "Reset alert" }).click();
  await expect(alert).toHaveCount(0);

  await page.getByRole("button", { name: "Show info" }).click();
  await alert.getByRole("button", { name: "Dismiss" }).click();
  await expect(alert).toHaveCount(0);
});

test("a priority alert stays 12 000 ms, then goes by itself", async ({ page }) => {
  await page.clock.install();
  await page.goto("/__dev/ui");
  await hydrated(page);
  // Stop the page's time flowing by itself: on a busy machine the real seconds between the
  // click and the checks would add to runFor's and close it early.
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.getByRole("button", { name: "Priority alert" }).click();
  const alert = page.getByTestId("alert");
  await expect(alert).toHaveAttribute("data-priority", "true");
  await page.clock.runFor(11_900);
  await expect(alert).toBeVisible();
  await page.clock.runFor(200);
  await expect(alert).toHaveCount(0);
});

test("a plain alert goes with the next navigation; a priority alert stays through it", async ({ page }) => {
  const alert = page.getByTestId("alert");
  await page.getByRole("button", { name: "Show success" }).click();
  await page.getByRole("link", { name: "Unknown page" }).click();
  await expect(page.getByTestId("error-message")).toBeVisible();
  await expect(alert).toHaveCount(0);

  await page.goBack();
  await page.getByRole("button", { name: "Priority alert" }).click();
  await page.getByRole("link", { name: "Unknown page" }).click();
  await expect(page.getByTestId("error-message")).toBeVisible();
  await expect(alert).toContainText("A priority alert stays 12 seconds.");
});

test("the response modal opens as a dialog and closes on OK or Escape", async ({ page }) => {
  await page.getByRole("button", { name: "Show response" }).click();
  const dialog = page.getByRole("dialog", { name: "Request submitted" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("The change waits for a second person to approve it.");
  await expect(dialog.getByRole("button", { name: "OK" })).toBeFocused();
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Show response" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Reset cleared it: it opens again on the next set.
  await page.getByRole("button", { name: "Show response" }).click();
  await expect(dialog).toBeVisible();
});

test("a priority response closes itself after 12 000 ms", async ({ page }) => {
  await page.clock.install();
  await page.goto("/__dev/ui");
  await hydrated(page);
  // Stop the page's time flowing by itself: on a busy machine the real seconds between the
  // click and the checks would add to runFor's and close it early.
  await page.clock.pauseAt(Date.now() + 60_000);
  await page.getByRole("button", { name: "Priority response" }).click();
  const dialog = page.getByTestId("response-modal");
  await expect(dialog).toBeVisible();
  await page.clock.runFor(11_900);
  await expect(dialog).toBeVisible();
  await page.clock.runFor(200);
  await expect(dialog).toBeHidden();
});

test.describe("the generic error handler", () => {
  // One page for every way an error carries its message (decision 003): the alert is reset before each, and each is a
  // step whose checks are soft, so one that fails does not hide the others.
  test("shows each error's message as a danger alert: data.message, response.data.message, error.message, the fallback, none", async ({ page }) => {
    const alert = page.getByTestId("alert");
    for (const [button, message] of [
      ["data.message", "Message from data"],
      ["response.data.message", "Message from response data"],
      ["error.message", "Message of the error"],
      ["fallback", "The fallback message"],
      ["no message", "Action Failed. Please check connectivity and try again"],
    ] as const) {
      await test.step(`${button}: shows "${message}" as a danger alert`, async () => {
        await page.getByRole("button", { name: "Reset alert" }).click();
        await expect(alert).toHaveCount(0);
        await page.getByRole("button", { name: button, exact: true }).click();
        await expect.soft(alert, button).toHaveAttribute("data-kind", "danger");
        await expect.soft(alert.locator(".notice__message"), button).toHaveText(message);
      });
    }
  });

  test("scrolls smoothly to the top where the alert is", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 400 });
    const button = page.getByRole("button", { name: "no message", exact: true });
    await button.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByTestId("alert")).toBeInViewport();
  });
});

test("a flash message set before a redirect shows once on the next page", async ({ page }) => {
  await page.getByLabel("Kind").selectOption("success");
  await page.getByLabel("Message").fill("Merchant submitted for approval");
  await page.getByRole("button", { name: "Submit and redirect" }).click();
  const alert = page.getByTestId("alert");
  await expect(alert).toHaveAttribute("data-kind", "success");
  await expect(alert).toContainText("Merchant submitted for approval");

  await page.reload();
  await hydrated(page);
  await expect(alert).toHaveCount(0);
});

test("a bad flash form keeps the user's place and says what is wrong next to the field", async ({ page }) => {
  await page.getByLabel("Message").fill("   ");
  await page.getByRole("button", { name: "Submit and redirect" }).click();
  await expect(page.getByText("Type a message")).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("alert")).toHaveCount(0);
});
