// Every screen, as every role, at 1280 and 390 px, checked by axe (WCAG 2.1 A and AA, and scrollable regions reached by
// keyboard): a violation anywhere fails here with the screen, the role and the element. Screens a role may not open
// are checked too, as the 403 or 404 page that role sees.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import type { Portal } from "../support/portal";
import { topUp } from "../support/ledger";
import { api, makeKey } from "../support/partner-api";
import { ABENA_KUMASI, ACCRA, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { ADJOA, EFUA, KWAME, makeStaff } from "../support/platform";
import { insertPlatformRequest } from "#server/operators/requests.db";
import { expect, hydrated, test, type SignedInAs } from "./fixtures";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const RULES = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  rules: { "scrollable-region-focusable": { enabled: true } },
  resultTypes: ["violations"],
};

interface Found {
  rule: string;
  impact: string | null;
  targets: string[];
}

async function violations(page: Page): Promise<Found[]> {
  return page.evaluate(async (rules) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, rules);
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  }, RULES);
}

/** One of each screen of Kumasi Fresh Foods, with ids from its data (a transfer, a refund and an endpoint made here). */
async function kumasiScreens(portal: Portal): Promise<string[]> {
  const db = await portal.db();
  const one = async (sql: string) => {
    const row = await db.prepare(sql).bind(KUMASI).first<{ id: string | number; second?: string }>();
    if (!row) throw new Error(`nothing in the seed for ${sql}`);
    return row;
  };
  const merchant = await one("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY id LIMIT 1");
  const branch = await one("SELECT merchant_id AS id, id AS second FROM points_of_sale WHERE business_id = ? ORDER BY id LIMIT 1");
  const terminal = await one("SELECT id FROM terminals WHERE business_id = ? ORDER BY id LIMIT 1");
  const payment = await one(
    "SELECT id, merchant_id AS second FROM transactions WHERE business_id = ? AND status = 'successful' AND amount >= 5000 ORDER BY id LIMIT 1",
  );
  const requests: string[] = [];
  for (const kind of ["merchant", "point_of_sale", "settlement_account", "employee"]) {
    const row = await db
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = ? AND status = 'pending' LIMIT 1")
      .bind(KUMASI, kind)
      .first<string>("id");
    if (row) requests.push(`/approvals/${kind.replace(/_/g, "-")}/${row}`);
  }
  // A transfer and a refund waiting for a decision, and an endpoint with a delivery log.
  const other = await one("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' ORDER BY id DESC LIMIT 1");
  await topUp(KOFI_KUMASI, String(merchant.id), 500_000);
  await topUp(KOFI_KUMASI, String(payment.second), 500_000);
  const key = `a11y-${Date.now()}`;
  await requestTransfer(ABENA_KUMASI, META, {
    fromMerchantId: String(merchant.id),
    to: { kind: "merchant", id: String(other.id) },
    amount: 12_345,
    idempotencyKey: `${key}-t`,
  });
  await requestRefund(ABENA_KUMASI, META, {
    transactionId: Number(payment.id),
    amount: 2_500,
    reason: "Ɔkyeame's order returned 🍍",
    idempotencyKey: `${key}-r`,
  });
  for (const kind of ["transfer", "refund"]) {
    const row = await db
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = ? AND status = 'pending' LIMIT 1")
      .bind(KUMASI, kind)
      .first<string>("id");
    requests.push(`/approvals/${kind}/${row}`);
  }
  // A dispute, opened through the Partner API as the processor would.
  const disputed = await one(
    "SELECT t.reference AS id, t.amount AS second FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.cleared_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.transaction_id = t.id) ORDER BY t.id DESC LIMIT 1",
  );
  const opened = await api(portal, await makeKey(portal, KUMASI), "/api/v1/disputes", {
    payment_reference: disputed.id,
    reason_code: "13.1",
    amount: Number(disputed.second),
    currency: "GHS",
    evidence_due_by: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  });
  const dispute = await opened.json<{ id: string }>();
  const endpoint = await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/a11y", eventTypes: ["payment.succeeded"] },
    newWebhookSecret(),
    "development",
  );
  return [
    "/",
    "/approvals",
    "/approvals?view=waiting",
    ...requests,
    "/merchants",
    "/merchants/add-merchant",
    `/merchants/${merchant.id}`,
    `/merchants/${branch.id}/point-of-sale/${branch.second}`,
    `/merchants/${merchant.id}/add-point-of-sale`,
    "/pos-terminals",
    `/pos-terminals/device-details/${terminal.id}`,
    "/money/merchant-accounts",
    `/money/merchant-accounts/transfer-history/${merchant.id}`,
    "/money/merchant-funds",
    "/money/settlement-history",
    "/disputes",
    `/disputes/${dispute.id}`,
    "/transactions",
    `/transactions?tx=${payment.id}`,
    `/transactions/${payment.id}/refund`,
    "/reports",
    "/settings",
    "/settings?tab=business",
    "/settings?tab=team",
    "/settings?tab=security",
    "/settings?tab=developers",
    "/settings?tab=audit",
    `/settings/developers/endpoints/${endpoint.id}`,
    "/developers/api",
    "/no-such-screen",
  ];
}

let screens: Promise<string[]> | null = null;

/** Opens `path` in the page's router, as following a link does, and waits until it has loaded. */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate(async (to) => {
    type Router = { navigate: (to: string) => Promise<void>; state: { navigation: { state: string } } };
    const router = (window as unknown as { __remixRouter: Router }).__remixRouter;
    await router.navigate(to);
  }, path);
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { __remixRouter: { state: { navigation: { state: string } } } }).__remixRouter.state.navigation.state),
    )
    .toBe("idle");
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
}

const ROLES: [string, SignedInAs][] = [
  ["Super Administrator", { email: "ama.mensah@example.com", businessId: KUMASI }],
  ["Administrator", { email: "kofi.boateng@example.com", businessId: KUMASI }],
  ["Operations", { email: "esi.owusu@example.com", businessId: KUMASI }],
  ["Finance", { email: "abena.darko@example.com", businessId: KUMASI }],
  ["Viewer", { email: "yaw.asante@example.com", businessId: ACCRA }],
];

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 500 ? 844 : 800 } });

    for (const [role, person] of ROLES) {
      test.describe(`as ${role}`, () => {
        test.use({ signedInAs: person });

        test("every screen has no axe violation", async ({ page, portal }) => {
          test.setTimeout(240_000);
          screens ??= kumasiScreens(portal);
          // The Viewer works in Accra Mobile Pay: Kumasi's ids there are the 404 page, which is checked too.
          const found: string[] = [];
          await page.goto("/");
          await hydrated(page);
          await page.evaluate(AXE);
          // Each screen as a link would open it (the router's navigation): one document, axe loaded once.
          for (const path of await screens) {
            await navigate(page, path);
            for (const v of await violations(page)) found.push(`${path}: ${v.rule} (${v.impact}) at ${v.targets.join(", ")}`);
          }
          expect(found).toEqual([]);
        });
      });
    }
  });
}

/** Each of the platform's screens (decision 039), with a request waiting so its page and the queue have a row. */
async function platformScreens(portal: Portal): Promise<string[]> {
  const maker = await makeStaff(portal.core(), KWAME);
  const { id } = await insertPlatformRequest(
    portal.core(),
    { userId: maker, meta: META },
    {
      id: `preq_a11y_${Date.now()}`,
      // Closing Kumasi: a request no other test of this portal asks for (platform.spec.ts suspends Accra, and a waiting
      // suspension would take its button away).
      kind: "close_business",
      subjectId: KUMASI,
      after: { businessName: "Kumasi Fresh Foods", reason: "Ɔkyeame's papers 🍍", from: "active" },
    },
    new Date().toISOString(),
  );
  return [
    "/platform",
    "/platform?q=kumasi",
    `/platform/businesses/${KUMASI}`,
    `/platform/businesses/${KUMASI}/lifecycle`,
    "/platform/businesses/new",
    "/platform/requests",
    "/platform/requests?view=decided",
    `/platform/requests/${id}`,
    "/platform/jobs",
    "/platform/queues",
    "/platform/shards",
    "/platform/keys",
  ];
}

let platform: Promise<string[]> | null = null;

for (const width of [1280, 390]) {
  for (const member of [EFUA, ADJOA]) {
    test.describe(`the platform's screens at ${width} px as ${member.role}`, () => {
      test.use({ viewport: { width, height: width < 500 ? 844 : 800 }, signedInAs: { email: member.email, businessId: null } });
      test.beforeAll(async ({ portal }) => {
        await makeStaff(portal.core(), member);
      });

      test("have no axe violation", async ({ page, portal }) => {
        test.setTimeout(120_000);
        platform ??= platformScreens(portal);
        const found: string[] = [];
        // Staff without a business land on the platform.
        await page.goto("/platform");
        await hydrated(page);
        await page.evaluate(AXE);
        // Support has no keys page (403): the page that says so is checked too.
        for (const path of await platform) {
          await navigate(page, path);
          for (const v of await violations(page)) found.push(`${path}: ${v.rule} (${v.impact}) at ${v.targets.join(", ")}`);
        }
        expect(found).toEqual([]);
      });
    });
  }
}

test.describe("signed out", () => {
  test.use({ signedInAs: null });

  for (const width of [1280, 390]) {
    test(`the sign-in screens at ${width} px have no axe violation`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      const found: string[] = [];
      for (const path of ["/login", "/login-option", "/no-such-screen"]) {
        await page.goto(path);
        await hydrated(page);
        await page.evaluate(AXE);
        for (const v of await violations(page)) found.push(`${path}: ${v.rule} (${v.impact}) at ${v.targets.join(", ")}`);
      }
      expect(found).toEqual([]);
    });
  }
});
