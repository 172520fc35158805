// Analytics from the browser (SPEC sections 3, 7, 8): events are built with every
// field, sent one at a time to POST /api/events, relayed by the queue consumer
// and, with no events service configured, stored where /__dev/events shows them.
import type { APIRequestContext, Page } from "@playwright/test";
import type { AnalyticsEvent } from "#app/lib/analytics/analytics";
import { requestChange } from "#server/approvals/approvals.db";
import { ESI_KUMASI, META } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

// The errors these tests throw, break and report on purpose.
test.use({ allowConsoleErrors: /Ledger widget exploded|reading 'amount'|Deliberate render failure|ERR_INTERNET_DISCONNECTED/ });

interface Stored {
  hash: string;
  receivedAt: string;
  event: AnalyticsEvent;
}

async function storedSince(request: APIRequestContext, since: number): Promise<AnalyticsEvent[]> {
  const response = await request.get("/__dev/events?limit=500", { headers: { Accept: "application/json" } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { events: Stored[] };
  return body.events.map((s) => s.event).filter((e) => e.occurredAt >= since);
}

async function eventually(request: APIRequestContext, since: number, match: (e: AnalyticsEvent) => boolean): Promise<AnalyticsEvent[]> {
  await expect.poll(async () => (await storedSince(request, since)).filter(match).length, { timeout: 10_000 }).toBeGreaterThan(0);
  return (await storedSince(request, since)).filter(match);
}

const queued = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem("pp:analytics:queue") ?? "[]") as { hash: string; event: { clientEventId: string; eventId: string } }[]);

// One page walks the events that do not depend on what another page sent (decision 003): each check is a step named
// as its test was, with soft checks, and counts only what was stored since the step began. The error page comes last.
// What a queue, a reload, the connection or a page life's memory of an error holds keeps its own context.
test("page views, navigations, a refused form and errors are events with every field", async ({ page, request }) => {
  await test.step("a page view carries every field of SPEC section 3", async () => {
    const since = Date.now() - 1000;
    await page.goto("/__dev/ui");
    await hydrated(page);
    const [view] = await eventually(request, since, (e) => e.eventId === "PageView" && e.sectionName === "UIkit");
    expect.soft(view).toMatchObject({
      eventType: "Regular",
      eventDescription: "Viewed UI kit",
      eventValue: { type: "String", value: "/__dev/ui" },
      appPlatform: "Web",
      appBuildNumber: "0.2.0",
      appVersion: "0.2.0",
      appId: "partners-portal",
      appName: "Partners Portal",
      userCountry: "GH",
      // Who is signed in (the fixture: Kofi Boateng in Kumasi Fresh Foods), as the session says.
      userEmail: "kofi.boateng@example.com",
      userName: "Kofi Boateng",
      userId: "233244556677",
      userGender: "male",
      extrasObject: { businessName: "Kumasi Fresh Foods", businessId: "bus_kumasi_fresh_foods" },
    });
    expect.soft(view!.appOs).toMatch(/^Chrome \d+$/);
    expect.soft(view!.clientEventId).toMatch(/^[0-9a-f-]{36}$/);
  });

  await test.step("navigations are page views and Duration events", async () => {
    const since = Date.now() - 1000;
    await page.goto("/merchants");
    await hydrated(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
    await expect.soft(page).toHaveURL(/\/reports$/);
    const views = await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/reports");
    expect.soft(views[0]!.sectionName).toBe("Reports");
    const [duration] = await eventually(request, since, (e) => e.eventId === "NavigationDuration");
    expect.soft(duration).toMatchObject({ eventType: "Duration", eventValue: { type: "Double" } });
    expect.soft((duration!.eventValue as { value: number }).value).toBeGreaterThanOrEqual(0);
    await eventually(request, since, (e) => e.eventId === "PageLoadDuration" && e.eventType === "Duration");
  });

  await test.step("a form refused with 400 is no page view; the next navigation is", async () => {
    const since = Date.now() - 1000;
    const viewsOf = async (path: string) =>
      (await storedSince(request, since)).filter((e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === path);
    await page.goto("/merchants/add-merchant");
    await hydrated(page);
    await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/merchants/add-merchant");
    const send = page.getByRole("button", { name: "Send for approval" });
    await send.click();
    await expect.soft(page.getByLabel("Registered name")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Contact email").fill("akua@bantama");
    await send.click();
    await expect.soft(page.locator("#merchant-contact_email-error")).toHaveText("Enter a valid email address, like name@company.com.");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
    // Events go in order: once the next page's view has arrived, nothing sent before it is still on its way.
    await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/reports");
    expect.soft(await viewsOf("/merchants/add-merchant")).toHaveLength(1);
  });

  await test.step("a thrown error nobody catches is an UncaughtException too", async () => {
    const since = Date.now() - 1000;
    await page.goto("/__dev/ui");
    await hydrated(page);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new TypeError("Cannot read properties of undefined (reading 'amount')");
      });
    });
    const [event] = await eventually(request, since, (e) => e.eventId === "UncaughtException" && e.eventDescription.includes("reading 'amount'"));
    expect.soft(event).toMatchObject({ eventType: "Exception", eventValue: { type: "Object", value: { name: "TypeError" } } });
  });

  await test.step("an error caught by the error page is reported too", async () => {
    const since = Date.now() - 1000;
    await page.goto("/__dev/ui");
    await hydrated(page);
    await page.getByRole("button", { name: "Browser failure" }).click();
    await expect.soft(page.getByTestId("error-id")).toHaveText(/^C-/);
    await eventually(request, since, (e) => e.eventId === "UncaughtException" && e.eventDescription === "Deliberate render failure from the UI kit");
  });
});

test("an uncaught error is an Exception event, sent once per page life", async ({ page, request }) => {
  const since = Date.now() - 1000;
  await page.goto("/__dev/ui");
  await hydrated(page);
  await page.evaluate(() => {
    for (let i = 0; i < 3; i += 1) setTimeout(() => void Promise.reject(new Error("Ledger widget exploded")));
  });
  await eventually(request, since, (e) => e.eventId === "UncaughtException" && e.eventDescription === "Ledger widget exploded");
  // Events go in order: once a later one has arrived, no copy of the error is still on its way.
  await page.getByRole("link", { name: "Unknown page" }).click();
  await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/no-such-page");
  const copies = (await storedSince(request, since)).filter((e) => e.eventDescription === "Ledger widget exploded");
  expect(copies).toHaveLength(1);
  expect(copies[0]).toMatchObject({ eventType: "Exception", eventValue: { type: "Object", value: { name: "Error", message: "Ledger widget exploded" } } });
});

test("a failed request is an Error event with its status name, URL, method and message, once", async ({ page, request }) => {
  const since = Date.now() - 1000;
  await page.goto("/__dev/ui");
  await hydrated(page);
  await page.evaluate(async () => {
    await fetch("/builds/latest.json?t=soon");
    await fetch("/builds/latest.json?t=soon");
  });
  const [failure] = await eventually(request, since, (e) => e.eventId === "RequestFailed" && e.eventDescription.includes("latest.json"));
  expect(failure).toMatchObject({
    eventType: "Error",
    eventDescription: "400 Bad Request: GET /builds/latest.json?t=soon",
    eventValue: {
      type: "Object",
      value: { statusName: "400 Bad Request", status: 400, method: "GET", url: "/builds/latest.json?t=soon", message: "t must be a timestamp in milliseconds" },
    },
  });
  await page.getByRole("link", { name: "Unknown page" }).click();
  await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/no-such-page");
  const sameFailure = (e: AnalyticsEvent) => e.eventId === "RequestFailed" && e.eventDescription === "400 Bad Request: GET /builds/latest.json?t=soon";
  expect((await storedSince(request, since)).filter(sameFailure)).toHaveLength(1);
  // The client navigation to an unknown page was itself a failed (404) data request.
  await eventually(request, since, (e) => e.eventId === "RequestFailed" && e.eventDescription.startsWith("404 Not Found: GET /no-such-page.data"));
});

test("events survive a reload before they are sent, and go once the network returns, each exactly once", async ({ page, request, context }) => {
  const since = Date.now() - 1000;
  await page.route("**/api/events", (route) => route.abort("internetdisconnected"));
  await page.goto("/__dev/ui");
  await hydrated(page);
  await expect.poll(async () => (await queued(page)).length).toBeGreaterThan(0);
  const before = (await queued(page)).map((q) => q.event.clientEventId);

  await page.reload();
  await hydrated(page);
  // The events made before the reload are still waiting, with the new page's own.
  await expect.poll(async () => (await queued(page)).map((q) => q.event.clientEventId)).toEqual(expect.arrayContaining(before));
  const waiting = (await queued(page)).map((q) => q.event.clientEventId);

  await page.unroute("**/api/events");
  await context.setOffline(true);
  await context.setOffline(false); // the "online" event: the queue resumes
  await expect.poll(async () => (await queued(page)).length, { timeout: 10_000 }).toBe(0);
  await expect
    .poll(
      async () => {
        const ids = (await storedSince(request, since)).map((e) => e.clientEventId);
        return waiting.every((id) => ids.filter((x) => x === id).length === 1);
      },
      { timeout: 10_000 },
    )
    .toBe(true);
});

test("an Error event is sent once across page loads in the same browser", async ({ page, request }) => {
  const since = Date.now() - 1000;
  const sameFailure = (e: AnalyticsEvent) => e.eventId === "RequestFailed" && e.eventDescription === "400 Bad Request: GET /builds/latest.json?t=twice";
  for (let load = 0; load < 2; load += 1) {
    if (load === 0) await page.goto("/__dev/ui");
    else await page.reload();
    await hydrated(page);
    await page.evaluate(async () => {
      await fetch("/builds/latest.json?t=twice");
    });
    await eventually(request, since, sameFailure);
  }
  // Events go in order: once the next page's view has arrived, no copy of the error is still on its way.
  await page.getByRole("link", { name: "Unknown page" }).click();
  await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/no-such-page");
  expect((await storedSince(request, since)).filter(sameFailure)).toHaveLength(1);
});

test("a 428 asking for a fresh check is no RequestFailed event", async ({ page, request }) => {
  const since = Date.now() - 1000;
  const n = `${Date.now() % 100_000}`;
  const id = await requestChange(ESI_KUMASI, META, {
    kind: "merchant",
    action: "create",
    after: {
      code: `MER-A${n}`,
      name: `Adwoa Analytics Foods ${n}`,
      trading_name: `Adwoa Analytics ${n}`,
      tin: `C${String(6_200_000_000 + Number(n))}`,
      sector: "Retail",
      town: "Kumasi",
      region: "Ashanti",
      address: "4 Bantama Road",
      contact_name: "Adwoa Mensah",
      contact_phone: "233244000555",
      contact_email: "adwoa@example.com",
    },
  });
  await page.goto(`/approvals/merchant/${id}`);
  await hydrated(page);
  const asked = page.waitForResponse((response) => response.status() === 428);
  await page.getByRole("button", { name: "Approve" }).click();
  await asked;
  await expect(page.getByRole("dialog", { name: "Confirm it is you" })).toBeVisible();
  await page.getByRole("dialog", { name: "Confirm it is you" }).getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  // Events go in order: once the next page's view has arrived, nothing sent before it is still on its way.
  await eventually(request, since, (e) => e.eventId === "PageView" && e.eventValue.type === "String" && e.eventValue.value === "/reports");
  // Only this page's requests: a failure an earlier test provoked may be stored within the same second.
  const failures = (await storedSince(request, since)).filter(
    (e) => e.eventId === "RequestFailed" && (e.eventDescription.startsWith("428") || e.eventDescription.includes(id)),
  );
  expect(failures.map((e) => e.eventDescription)).toEqual([]);
});
