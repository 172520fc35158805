// What a payment costs on disk (docs/decisions/018-bytes-per-payment.md): the bytes of every row and
// index entry of the tests' database, over its payments, measured with SQLite's dbstat. A new index on the
// payments or the ledger, a wider key or a repeated column shows here long before anyone seeds a million payments.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { payloadPerPayment } from "../../scripts/lib/dbstat";
import { TEMPLATE_STATE } from "../support/state";

// The tiny seed held 2,175 bytes per payment before migration 0012 and holds about 1,110 after it (the large seed:
// 995 bytes of pages per payment). One more index on the payments' business and time is about 40 bytes per payment.
// Migration 0033 (the Partner API's lists) indexes settlements by creation and by status and creation: about 37 bytes
// a payment here, where the tiny seed makes a settlement for every 4 or 5 payments (6 merchants, 30 days, 500 payments),
// and about 8 at the large seed's one for every 20 (135 merchants, 365 days, 1,000,000 payments). They grow with
// merchants and days, not with payments; the budget took them with 20 bytes to spare, as before. Migration 0041 (a
// payer phone's last four digits) indexes mobile-money payments only: 1,176 bytes after it (1,189 had it indexed
// every payment), and the budget took it with 14 to spare.
const BUDGET = 1_190;

describe("storage", () => {
  it(`a payment, with its ledger, settlement and rollups, takes at most ${BUDGET} bytes of rows and index entries`, () => {
    expect(Math.round(payloadPerPayment(join(TEMPLATE_STATE, "v3/d1")))).toBeLessThanOrEqual(BUDGET);
  });
});
