// A failed payment moved no money, so it has no fee and no net (0, one type for every status), in the API's answer
// and in every payment.* webhook alike: both are paymentView.
import { describe, expect, it } from "vitest";
import { paymentView } from "./views";
import type { StoredPayment } from "../payments/api-payments.db";

const held = (status: StoredPayment["status"]): StoredPayment => ({
  reference: "PAY-0001",
  merchantId: "mer_1",
  merchantCode: "MRC-0001",
  pointOfSaleId: "pos_1",
  terminalSerial: null,
  channel: "mobile_money",
  network: "MTN",
  amount: 10_000,
  // A failed payment stored with the fee it would have had (rows ingested before the fix).
  fee: 150,
  status,
  failureReason: status === "failed" ? "Insufficient funds" : null,
  cardBin: null,
  cardLast4: null,
  msisdn: "233241234567",
  createdAt: Date.UTC(2026, 10, 25, 9),
  clearedAt: null,
  reversalReason: null,
  reversedAt: null,
  settlementId: null,
  settlementReference: null,
  settlementStatus: null,
  settlementPaidAt: null,
});

describe("paymentView", () => {
  it("a failed payment shows fee 0 and net 0", () => {
    expect(paymentView(held("failed"))).toMatchObject({ amount: 10_000, fee: 0, net: 0, status: "failed" });
  });

  it("a successful payment keeps its fee and net", () => {
    expect(paymentView(held("successful"))).toMatchObject({ fee: 150, net: 9_850 });
  });
});
