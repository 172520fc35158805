// The PAN detector of the Partner API (PCI DSS 3.4.1): what it refuses and what it lets through.
import { describe, expect, it } from "vitest";
import { cardNumberPaths, looksLikeCardNumber, passesLuhn } from "../../functions/api/card-numbers";

describe("passesLuhn", () => {
  it.each(["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4222222222222"])("passes %s", (pan) => {
    expect(passesLuhn(pan)).toBe(true);
  });
  it.each(["4111111111111112", "1234567890123", "5555555555554445"])("fails %s", (digits) => {
    expect(passesLuhn(digits)).toBe(false);
  });
});

describe("looksLikeCardNumber", () => {
  it.each([
    ["a bare card number", "4111111111111111"],
    ["grouped with spaces", "4111 1111 1111 1111"],
    ["grouped with hyphens", "5555-5555-5555-4444"],
    ["inside words", "paid with card 378282246310005 today"],
    ["a 13-digit number", "4222222222222"],
    ["a 19-digit number", "6304000000000000000"],
    ["an American Express number as printed (4-6-5)", "3782 822463 10005"],
    ["a 19-digit number as printed (4-4-4-4-3)", "6304-0000-0000-0000-000"],
    ["printed groups after other digits", "ref 12-4111-1111-1111-1111"],
    ["a card number run into another group", "4111111111111111-2"],
  ])("finds %s", (_what, text) => {
    expect(looksLikeCardNumber(text)).toBe(true);
  });

  it.each([
    ["a Ghana phone number", "233244123456"],
    ["a BIN and last four", "412345 4242"],
    ["a Luhn-failing 16 digits", "4111111111111112"],
    ["12 digits that pass Luhn", "411111111116"],
    ["20 digits", "41111111111111111111"],
    ["a date and time", "2026-11-23T10:15:00Z"],
    ["digits split by other signs", "4111.1111.1111.1111"],
    // 261121 + 0000487 passes Luhn: as one number it was refused, though nobody prints a card number 6-7.
    ["a reference made of a date and a number", "KFF-261121-0000487"],
    ["a date and a serial in other groupings", "20261121 00004802"],
  ])("lets through %s", (_what, text) => {
    expect(looksLikeCardNumber(text)).toBe(false);
  });
});

describe("cardNumberPaths", () => {
  it("names every place one hides, keys included, and never the value", () => {
    const body = {
      payments: [
        { reference: "A-1", payer: { msisdn: "233244123456" } },
        { reference: "B-2", note: "4111 1111 1111 1111", amount: 4111111111111111 },
      ],
      "5555555555554444": true,
    };
    expect(cardNumberPaths(body).sort()).toEqual(["5555555555554444", "payments[1].amount", "payments[1].note"].sort());
  });
  it("finds nothing in a clean payment", () => {
    expect(
      cardNumberPaths({ reference: "PSP-1", payer: { card_bin: "411111", card_last4: "1111" }, amount: 12000, occurred_at: "2026-11-23T10:15:00Z" }),
    ).toEqual([]);
  });
});
