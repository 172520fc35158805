// The screens finance lives in, as a person reads them: one date style for each kind of place, day fields that read
// and take days day first whatever the browser's language, money lists that stay tables on a laptop (rows compared
// down their columns), and charts with axes whose every column can be read by keyboard and screen reader.
import type { Page } from "@playwright/test";
import { KUMASI } from "../support/tenants";
import { ADJOA, makeStaff } from "../support/platform";
import { api, makeKey, momoPayment, partiesOf } from "../support/partner-api";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";

const SHOTS = "test-results/screens";

/** Every date written on the page's main part: the style it is written in and the kind of place it stands in. */
async function datesShown(page: Page): Promise<{ place: string; style: string; text: string }[]> {
  return page.evaluate(() => {
    // Longest first: a sentence's 'DD MMM YYYY, h:mm A' begins with a day's 'DD MMM YYYY'.
    const styles: [string, string][] = [
      ["detail", String.raw`\d{2} [A-Z][a-z]{2}, \d{4} ▪ \d{1,2}:\d{2} [AP]M`],
      ["prose", String.raw`\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [AP]M`],
      ["table", String.raw`\d{2}/\d{2}/\d{4}, \d{1,2}:\d{2} [AP]M`],
      ["day", String.raw`\d{2} [A-Z][a-z]{2} \d{4}`],
      ["other", String.raw`\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|[A-Z][a-z]{2} \d{1,2}, \d{4}`],
    ];
    const any = new RegExp(styles.map(([, source]) => `(${source})`).join("|"), "g");
    const found: { place: string; style: string; text: string }[] = [];
    const walker = document.createTreeWalker(document.getElementById("main")!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      if (element.closest("script, style, [hidden], .visually-hidden")) continue;
      const place = element.closest("td, th") ? "table" : element.closest("dd") ? "detail" : "prose";
      for (const match of node.textContent!.matchAll(any)) {
        const index = match.slice(1).findIndex(Boolean);
        found.push({ place, style: styles[index]![0], text: match[0] });
      }
    }
    return found;
  });
}

test.describe("dates", () => {
  test("a device's page writes its dates one way in its table cells and one way in its detail fields", async ({ page }) => {
    await page.goto("/pos-terminals/device-details/trm_kff_00004");
    await hydrated(page);
    const dates = await datesShown(page);
    expect(dates.filter((d) => d.place === "table").length).toBeGreaterThan(0);
    expect(dates.filter((d) => d.place === "detail").length).toBeGreaterThan(0);
    for (const date of dates) expect(`${date.text} in a ${date.place}: ${date.style}`).toBe(`${date.text} in a ${date.place}: ${date.place}`);
    expect(new Set(dates.map((d) => d.style)).size).toBe(2);
    await lookAt(page, { path: `${SHOTS}/device-details-dates-1280.png`, fullPage: true });
  });

  test("a merchant's page does the same, its recent payments and change history included", async ({ page }) => {
    await page.goto("/merchants/mer_kff_0001");
    await hydrated(page);
    const dates = await datesShown(page);
    expect(dates.length).toBeGreaterThan(2);
    for (const date of dates) {
      const expected = date.place === "prose" ? ["prose", "day"] : [date.place];
      expect(expected, `${date.text} in a ${date.place}`).toContain(date.style);
    }
  });
});

test.describe("day fields, in a browser set to US English", () => {
  test.use({ locale: "en-US", timezoneId: "America/New_York" });

  test("read and take the day first, reach the server as YYYY-MM-DD, and refuse a day that cannot be", async ({ page }) => {
    await page.goto("/transactions?range=custom&from=2026-03-01&to=2026-03-10");
    await hydrated(page);
    const from = page.getByRole("textbox", { name: "From" });
    const to = page.getByRole("textbox", { name: "To" });
    await expect(from).toHaveValue("01/03/2026");
    await expect(to).toHaveValue("10/03/2026");
    await expect(from).toHaveAttribute("placeholder", "DD/MM/YYYY");

    // Typed day first, as Ghana writes a day: the 5th of March, not the 3rd of May.
    await from.fill("05/03/2026");
    await to.fill("7/3/2026");
    await to.press("Enter");
    await expect(page).toHaveURL(/from=2026-03-05&to=2026-03-07/);
    await expect(page.getByText("Payments from 05 Mar 2026 to 07 Mar 2026 (Africa/Accra).")).toBeVisible();
    await expect(to).toHaveValue("07/03/2026");

    // The keyboard moves a day a step at a time.
    await from.focus();
    await page.keyboard.press("ArrowUp");
    await expect(from).toHaveValue("06/03/2026");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(from).toHaveValue("04/03/2026");

    // A day that cannot be is said so beside the field, and nothing is sent.
    await from.fill("31/02/2026");
    await from.press("Enter");
    await expect(page.getByText("There is no 31 Feb 2026: Feb 2026 has 28 days.")).toBeVisible();
    await expect(from).toHaveAttribute("aria-invalid", "true");
    await expect(from).toBeFocused();
    await expect(page).toHaveURL(/from=2026-03-05&to=2026-03-07/);
    await lookAt(page, { path: `${SHOTS}/day-field-refused-1280.png` });
    await from.fill("5 Mar 2026");
    await expect(page.getByText("There is no 31 Feb 2026")).toHaveCount(0);

    // The calendar button is in the tab order, next to its field.
    await from.focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Choose the From day on a calendar" })).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("a day chosen on the calendar is written day first in the field", async ({ page }) => {
    await page.goto("/transactions?range=custom&from=2026-03-01&to=2026-03-10");
    await hydrated(page);
    // The browser's own calendar cannot be driven here: its choice arrives as the picker's change.
    await page.locator('#period-from ~ input[type="date"]').fill("2026-03-09");
    await expect(page.getByRole("textbox", { name: "From" })).toHaveValue("09/03/2026");
  });
});

test.describe("money lists at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 }, signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

  test("merchant funds is a table: rows compared down their columns, the merchant held in sight, amounts on the right", async ({ page }) => {
    await page.goto("/money/merchant-funds?range=30d");
    await hydrated(page);
    await expectComparableTable(page, "Merchant funds", "Available (GHS)");
    await lookAt(page, { path: `${SHOTS}/merchant-funds-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    // Still a table one pixel above the phone layout's edge; cards from 980 px down.
    await page.setViewportSize({ width: 981, height: 800 });
    await expectComparableTable(page, "Merchant funds", "Available (GHS)");
    await page.setViewportSize({ width: 980, height: 800 });
    await expectCards(page, "Merchant funds");
  });
});

test.describe("the platform overview", () => {
  test.use({ signedInAs: { email: ADJOA.email, businessId: null } });
  test.beforeAll(async ({ portal }) => {
    await makeStaff(portal.core(), ADJOA);
    // A payment today, so a row's "Payments today" holds a count and its sum.
    const [parties] = await partiesOf(portal, KUMASI);
    expect((await api(portal, await makeKey(portal, KUMASI), "/api/v1/payments", momoPayment(parties!))).status).toBe(202);
  });
  /** Opens the overview once today's payment has reached it (the Partner API writes it from a queue). */
  const openWithToday = async (page: Page) => {
    await expect
      .poll(async () => {
        await page.goto("/platform");
        return page.getByText(/^GHS [\d,]+\.\d{2}$/).count();
      })
      .toBeGreaterThan(0);
    await hydrated(page);
  };

  test.describe("at 1280 px", () => {
    test.use({ viewport: { width: 1280, height: 800 } });
    test("is a table of businesses, compared down their columns", async ({ page }) => {
      await openWithToday(page);
      await expectComparableTable(page, "Businesses on the platform", "Parked");
      await lookAt(page, { path: `${SHOTS}/platform-1280.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  test.describe("at 390 px", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test("is cards whose labels and values do not overlap", async ({ page }) => {
      await openWithToday(page);
      await expectCards(page, "Businesses on the platform");
      await lookAt(page, { path: `${SHOTS}/platform-390.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});

test.describe("merchant funds at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });
  test("is cards whose labels and values do not overlap", async ({ page }) => {
    await page.goto("/money/merchant-funds?range=30d");
    await hydrated(page);
    await expectCards(page, "Merchant funds");
    await lookAt(page, { path: `${SHOTS}/merchant-funds-390.png`, fullPage: true });
  });
});

/** A table laid out as one: its header row shown, a column's cells one above the other, the first column sticky, amounts right-aligned. */
async function expectComparableTable(page: Page, name: string, amountHeader: string) {
  const table = page.getByRole("table", { name });
  await expect(table.getByRole("columnheader", { name: amountHeader })).toBeVisible();
  const layout = await table.evaluate((element, header) => {
    const heads = [...element.querySelectorAll("thead th")];
    const column = heads.findIndex((th) => th.textContent?.trim() === header);
    const rows = [...element.querySelectorAll("tbody tr")];
    const cells = rows.map((row) => row.children[column] as HTMLElement);
    const first = rows.map((row) => row.children[0] as HTMLElement);
    return {
      rows: rows.length,
      display: getComputedStyle(rows[0]!).display,
      lefts: new Set(cells.map((cell) => Math.round(cell.getBoundingClientRect().left))).size,
      rightEdges: cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return Math.round(cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight) - range.getBoundingClientRect().right);
      }),
      align: getComputedStyle(cells[0]!).textAlign,
      sticky: [...first, heads[0] as HTMLElement].map((cell) => `${getComputedStyle(cell).position} ${getComputedStyle(cell).left}`),
    };
  }, amountHeader);
  expect(layout.rows).toBeGreaterThan(1);
  expect(layout.display).toBe("table-row");
  // One column: every row's cell starts at the same x.
  expect(layout.lefts).toBe(1);
  expect(layout.align).toBe("right");
  for (const gap of layout.rightEdges) expect(Math.abs(gap)).toBeLessThanOrEqual(1);
  expect(new Set(layout.sticky)).toEqual(new Set(["sticky 0px"]));
}

/** Each row a card: every cell's value to the right of its label, not over it. */
async function expectCards(page: Page, name: string) {
  const table = page.getByRole("table", { name });
  await expect(table).toBeVisible();
  const overlaps = await table.evaluate((element) => {
    const found: string[] = [];
    const rows = [...element.querySelectorAll("tbody tr")];
    if (rows.length === 0 || getComputedStyle(rows[0]!).display !== "block") return ["rows are not cards"];
    for (const cell of element.querySelectorAll<HTMLElement>("tbody td")) {
      const label = getComputedStyle(cell, "::before");
      const labelWidth = parseFloat(getComputedStyle(cell).gridTemplateColumns.split(" ")[0] ?? "0");
      const labelRight = cell.getBoundingClientRect().left + parseFloat(getComputedStyle(cell).paddingLeft) + labelWidth;
      if (label.content === "none" || !labelWidth) found.push(`${cell.dataset.label}: no label column`);
      // The label as the browser sets it in its track: one that cannot wrap runs on over the value.
      const probe = document.createElement("span");
      probe.textContent = cell.dataset.label ?? "";
      Object.assign(probe.style, {
        position: "absolute",
        visibility: "hidden",
        display: "block",
        width: `${labelWidth}px`,
        font: label.font,
        whiteSpace: label.whiteSpace,
        overflowWrap: label.overflowWrap,
      });
      cell.appendChild(probe);
      if (probe.scrollWidth > labelWidth + 1)
        found.push(`${cell.dataset.label}: the label runs ${Math.round(probe.scrollWidth - labelWidth)} px into its value`);
      probe.remove();
      const range = document.createRange();
      range.selectNodeContents(cell);
      for (const box of range.getClientRects())
        if (box.width > 0 && box.left < labelRight)
          found.push(`${cell.dataset.label}: "${cell.textContent?.trim()}" at ${Math.round(box.left)} under its label (to ${Math.round(labelRight)})`);
    }
    return found;
  });
  expect(overlaps).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test.describe("charts", () => {
  for (const [screen, path, name] of [
    ["the dashboard", "/", /Value of successful payments per day, last 30 days/],
    ["reports", "/reports?range=30d", /Value of successful payments per day, \d{2} [A-Z][a-z]{2} \d{4} to/],
  ] as const) {
    test(`${screen}: axes with labels, and every column's value read by keyboard and screen reader`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      const chart = page.getByRole("group", { name });
      // Axes: amounts up the side (from 0.00), days along the bottom, each named.
      const figure = page.locator("figure").filter({ has: chart });
      await expect(figure.getByText("GHS", { exact: true })).toBeVisible();
      await expect(figure.getByText("0.00", { exact: true })).toBeVisible();
      await expect(figure.getByText(/^[A-Z][a-z]{2} \d{2}$/).first()).toBeVisible();
      // Each column is an image named with its day and value: 30 days.
      const columns = chart.getByRole("img", { name: /^\d{2} [A-Z][a-z]{2} \d{4}: GHS [\d,]+\.\d{2} \([\d,]+ payments?\)$/ });
      await expect(columns).toHaveCount(30);
      // One stop in the tab order: the newest column; the arrows go along, and its value is written out, not only on hover.
      await page.keyboard.press("Tab");
      for (let presses = 0; presses < 150 && !(await columns.last().evaluate((c) => c === document.activeElement)); presses++) await page.keyboard.press("Tab");
      await expect(columns.last()).toBeFocused();
      const newest = await columns.last().getAttribute("aria-label");
      await expect(figure.getByText(newest!, { exact: true })).toBeVisible();
      await page.keyboard.press("ArrowLeft");
      await expect(columns.nth(28)).toBeFocused();
      await lookAt(figure, { path: `${SHOTS}/chart-${screen.replace(/\W+/g, "-")}-1280.png` });
      const before = await columns.nth(28).getAttribute("aria-label");
      await expect(figure.getByText(before!, { exact: true })).toBeVisible();
      await page.keyboard.press("Home");
      await expect(columns.first()).toBeFocused();
      await page.keyboard.press("End");
      await expect(columns.last()).toBeFocused();
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test.describe("at 390 px", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test("the dashboard's chart keeps its axes and fits", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const figure = page.locator("figure").filter({ has: page.getByRole("group", { name: /Value of successful payments per day/ }) });
      await expect(figure.getByText("GHS", { exact: true })).toBeVisible();
      await lookAt(figure, { path: `${SHOTS}/dashboard-chart-390.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
