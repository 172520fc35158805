// The cold archive on /transactions (docs/archive.md), as Ama Mensah (Administrator of Accra Mobile Pay) meets it:
// the archived months with their counts, a payment found there by its exact reference, and an archived month
// downloaded as CSV with its merchants' names (ɛ, ɔ, ŋ) intact; at 1280 and 390 px wide.
import { readFileSync } from "node:fs";
import { monthOf } from "#server/archive/format";
import { runArchive } from "#server/archive/job";
import { applyIngest } from "#server/payments/ingest.db";
import type { PaymentItem } from "#server/payments/ingest-plan";
import { ACCRA, businessOf } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";

const now = Date.now();
const today = new Date(now);
const OLD = monthOf(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 15, 1));
const reference = (i: number) => `AE${OLD.replace("-", "")}${String(i).padStart(5, "0")}`;

test.describe.configure({ mode: "serial" });
test.use({ signedInAs: { email: "ama.mensah@example.com", businessId: ACCRA } });

test.beforeAll(async ({ portal }) => {
  const db = await portal.db();
  const { results: places } = await db
    .prepare(
      `SELECT MIN(p.id) AS id, p.merchant_id AS merchantId FROM points_of_sale p JOIN merchants m ON m.id = p.merchant_id
       WHERE p.business_id = ? AND m.name IN ('Nyamekyɛ Chemists Enterprise', 'Oyiwaladɔŋŋ Supermarket Limited') GROUP BY m.id ORDER BY m.name`,
    )
    .bind(ACCRA)
    .all<{ id: string; merchantId: string }>();
  expect(places).toHaveLength(2);
  const payments: PaymentItem[] = Array.from({ length: 6 }, (_, i) => {
    const place = places[i % 2]!;
    const card = i % 3 !== 0;
    return {
      reference: reference(i),
      merchantId: place.merchantId,
      pointOfSaleId: place.id,
      terminalId: null,
      channel: card ? "card" : "mobile_money",
      network: card ? "MASTERCARD" : "Telecel",
      amount: 4_250 + i * 1_010,
      status: "successful",
      failureReason: null,
      cardBin: card ? "512345" : null,
      cardLast4: card ? "0042" : null,
      msisdn: card ? null : "233200000042",
      occurredAt: Date.parse(`${OLD}-${String(3 + i * 4).padStart(2, "0")}T09:30:00Z`),
      fingerprint: `fp-${reference(i)}`,
    };
  });
  await applyIngest(businessOf(ACCRA), { payments, reversals: [], heartbeats: [] }, Date.parse(`${OLD}-28T12:00:00Z`));
  const result = await runArchive({ businesses: [businessOf(ACCRA)], bucket: await portal.archive(), now, retentionMonths: 13 });
  expect(result.archived).toContain(`${ACCRA}/${OLD}`);
});

for (const width of [1280, 390]) {
  test.describe(`at ${width} px wide`, () => {
    test.use({ viewport: { width, height: width > 400 ? 900 : 844 } });

    test("the archived months, a payment found there by reference, and a month's CSV", async ({ page }) => {
      await page.goto("/transactions");
      await hydrated(page);
      const months = page.getByTestId("archived-months");
      await expect(months.getByRole("heading", { name: "Archived months" })).toBeVisible();
      const row = months.getByRole("row").nth(1);
      await expect(row.getByRole("cell").nth(1)).toHaveText("6");
      await months.scrollIntoViewIfNeeded();
      await lookAt(page, { path: `tmp/archive-months-${width}.png` });

      // A period inside the archived month says where its payments went.
      await page.goto(`/transactions?range=custom&from=${OLD}-01&to=${OLD}-28`);
      await expect(page.getByTestId("archived-in-period")).toContainText("is archived: its payments are not in this list or its totals.");
      await lookAt(page, { path: `tmp/archive-period-${width}.png` });

      await page.getByLabel("Search transactions").fill(reference(2));
      await page.getByLabel("Search transactions").press("Enter");
      const found = page.getByTestId("archived-payment");
      await expect(found.getByRole("heading", { name: reference(2) })).toBeVisible();
      await expect(found).toContainText("Nyamekyɛ Chemists Enterprise");
      await expect(found).toContainText("Archived month");
      await expect(found.getByRole("heading", { name: "Ledger postings" })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await found.scrollIntoViewIfNeeded();
      await lookAt(page, { path: `tmp/archive-found-${width}.png` });

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        months
          .getByRole("link", { name: /as CSV$/ })
          .first()
          .click(),
      ]);
      expect(download.suggestedFilename()).toBe(`transactions-${OLD}-archived.csv`);
      const csv = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
      const lines = csv.trim().split("\r\n");
      expect(lines[0]).toBe(
        "Reference,Paid (UTC),Merchant id,Merchant,Point of sale id,Point of sale,Terminal id,Terminal serial,Channel,Network,Payer,Amount (GHS),Fee (GHS),Net (GHS),Status,Available (UTC),Refunded (GHS)",
      );
      expect(lines).toHaveLength(7);
      expect(lines.filter((l) => l.includes("Nyamekyɛ Chemists Enterprise"))).toHaveLength(3);
      expect(lines.filter((l) => l.includes("Oyiwaladɔŋŋ Supermarket Limited"))).toHaveLength(3);
    });
  });
}
