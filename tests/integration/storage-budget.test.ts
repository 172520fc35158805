// What a payment costs on disk (issue 13; docs/decisions/018-bytes-per-payment.md): the bytes of every row and
// index entry of the tests' database, over its payments, measured with SQLite's dbstat. A new index on the
// payments or the ledger, a wider key or a repeated column shows here long before anyone seeds a million payments.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { payloadPerPayment } from "../../scripts/lib/dbstat";
import { TEMPLATE_STATE } from "../support/state";

// The tiny seed held 2,175 bytes per payment before migration 0012 and holds about 1,110 after it (the large seed:
// 995 bytes of pages per payment). One more index on the payments' business and time is about 40 bytes per payment.
const BUDGET = 1_140;

describe("storage", () => {
  it(`a payment, with its ledger, settlement and rollups, takes at most ${BUDGET} bytes of rows and index entries`, () => {
    expect(Math.round(payloadPerPayment(join(TEMPLATE_STATE, "v3/d1")))).toBeLessThanOrEqual(BUDGET);
  });
});
