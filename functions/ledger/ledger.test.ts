import { describe, expect, it } from "vitest";
import {
  CLEARING_DAYS,
  UnbalancedPostingError,
  assertBalanced,
  clearingPosting,
  clearsAt,
  ledgerAccountId,
  merchantBalance,
  merchantTransferPosting,
  paymentPosting,
  reversalPosting,
  settlementPosting,
  transactionFee,
  type PostingLine,
} from "./ledger";

const sum = (lines: PostingLine[]) => lines.reduce((total, line) => total + line.amount, 0);
const byKind = (lines: PostingLine[]) => Object.fromEntries(lines.map((l) => [l.account.kind, l.amount]));
const payment = { merchantId: "m1", amount: 25_000, fee: 438 };

describe("a payment", () => {
  it("posts gross to the scheme, net pending to the merchant and the fee as revenue, summing to zero", () => {
    const lines = paymentPosting(payment);
    expect(byKind(lines)).toEqual({ scheme_receivable: 25_000, merchant_pending: -24_562, fee_revenue: -438 });
    expect(sum(lines)).toBe(0);
    expect(lines.find((l) => l.account.kind === "merchant_pending")!.account.merchantId).toBe("m1");
  });

  it("with no fee posts two lines, never a zero line", () => {
    const lines = paymentPosting({ merchantId: "m1", amount: 100, fee: 0 });
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.amount !== 0)).toBe(true);
  });

  it("refuses a fee above the amount or below zero", () => {
    expect(() => paymentPosting({ merchantId: "m1", amount: 100, fee: 101 })).toThrow(UnbalancedPostingError);
    expect(() => paymentPosting({ merchantId: "m1", amount: 100, fee: -1 })).toThrow(UnbalancedPostingError);
  });

  it("clears: the net moves from pending to available", () => {
    const lines = clearingPosting(payment);
    expect(byKind(lines)).toEqual({ merchant_pending: 24_562, merchant_available: -24_562 });
  });

  it("a reversal undoes it from whichever account holds the net", () => {
    const pending = [...paymentPosting(payment), ...reversalPosting(payment, false)];
    expect(sum(pending)).toBe(0);
    expect(pending.filter((l) => l.account.kind === "merchant_pending").reduce((t, l) => t + l.amount, 0)).toBe(0);
    const cleared = [...paymentPosting(payment), ...clearingPosting(payment), ...reversalPosting(payment, true)];
    expect(cleared.filter((l) => l.account.kind === "merchant_available").reduce((t, l) => t + l.amount, 0)).toBe(0);
  });
});

describe("clearing times", () => {
  it("mobile money clears after 1 day, card after 3", () => {
    expect(CLEARING_DAYS).toEqual({ mobile_money: 1, card: 3 });
    const t = Date.UTC(2026, 10, 21, 10, 0);
    expect(clearsAt("mobile_money", t)).toBe(Date.UTC(2026, 10, 22, 10, 0));
    expect(clearsAt("card", t)).toBe(Date.UTC(2026, 10, 24, 10, 0));
  });
});

describe("fees", () => {
  it.each([
    ["card", 10_000, 175],
    ["card", 1, 0],
    ["card", 29, 1],
    ["mobile_money", 10_000, 75],
    ["mobile_money", 133_334, 1_000],
    ["mobile_money", 10_000_000, 1_000], // capped at GHS 10.00
  ] as const)("%s of %i pesewas costs %i", (channel, amount, fee) => {
    expect(transactionFee(channel, amount)).toBe(fee);
  });

  it("refuses fractions of a pesewa", () => {
    expect(() => transactionFee("card", 10.5)).toThrow(UnbalancedPostingError);
  });
});

describe("assertBalanced", () => {
  const line = (amount: number): PostingLine => ({ account: { kind: "fee_revenue" }, amount });
  it.each([
    ["one line", [line(5)], "at least two"],
    ["not summing to zero", [line(5), line(-4)], "sums to 1"],
    ["a zero line", [line(0), line(0)], "cannot be zero"],
    ["a fraction", [line(0.5), line(-0.5)], "whole pesewas"],
  ])("refuses %s", (_name, lines, message) => {
    expect(() => assertBalanced(lines)).toThrow(message);
  });
});

describe("settlement and transfers", () => {
  it("a settlement pays out available money", () => {
    expect(byKind(settlementPosting("m1", 5_000))).toEqual({ merchant_available: 5_000, settlement_payable: -5_000 });
  });

  it("a transfer moves available money between two merchants", () => {
    const lines = merchantTransferPosting("m1", "m2", 700);
    expect(lines.map((l) => [l.account.merchantId, l.amount])).toEqual([
      ["m1", 700],
      ["m2", -700],
    ]);
    expect(() => merchantTransferPosting("m1", "m1", 700)).toThrow(UnbalancedPostingError);
  });
});

describe("accounts and balances", () => {
  it("one account per merchant and kind, one per business for the rest", () => {
    expect(ledgerAccountId("b1", { kind: "merchant_pending", merchantId: "m1" })).toBe("la_m1_merchant_pending");
    expect(ledgerAccountId("b1", { kind: "fee_revenue" })).toBe("la_b1_fee_revenue");
  });

  it("a merchant's balance is the negated entry sum, never -0", () => {
    expect(merchantBalance(-24_562)).toBe(24_562);
    expect(Object.is(merchantBalance(0), 0)).toBe(true);
  });
});
