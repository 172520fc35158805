import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { MerchantUpdateForm } from "#app/routes/merchants/merchant-forms";
import { PointOfSaleFields } from "#app/routes/merchants/point-of-sale-form.server";
import { bidiControlMessage, exceedsLimit, hasBidiControl, isAccountNumber, isEmpty, isNumberHeavy, isValidEmail, parseLooseNumber } from "./validation";

describe("isEmpty (SPEC 5: undefined, null or an empty string)", () => {
  it.each([
    [undefined, true],
    [null, true],
    ["", true],
    [" ", false],
    ["\t", false],
    [0, false],
    [false, false],
    [Number.NaN, false],
    ["0", false],
    [[], false],
    [{}, false],
  ])("isEmpty(%j) is %s", (value, expected) => {
    expect(isEmpty(value)).toBe(expected);
  });
});

describe("isValidEmail (SPEC 5: trimmed, local@domain.suffix with a suffix of 2+ letters)", () => {
  it.each([
    "ama@example.com",
    "ama.mensah+pos@mail.example.com.gh",
    "o'neil@example.org",
    "a@b.co",
    "  ama@example.com  ",
    "\tama@example.com\n",
    "UPPER@EXAMPLE.COM",
  ])("accepts %j", (value) => {
    expect(isValidEmail(value)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["null", null],
    ["undefined", undefined],
    ["blank", "   "],
    ["no @", "ama.example.com"],
    ["no local part", "@example.com"],
    ["no domain", "ama@.com"],
    ["no dot in domain", "ama@example"],
    ["1-letter suffix", "ama@example.c"],
    ["digit suffix", "ama@example.c0m"],
    ["numeric suffix", "ama@example.12"],
    ["trailing dot", "ama@example.com."],
    ["two @", "ama@mensah@example.com"],
    ["space inside", "ama mensah@example.com"],
    ["space before @", "ama @example.com"],
  ])("rejects %s (%j)", (_label, value) => {
    expect(isValidEmail(value)).toBe(false);
  });
});

describe("isAccountNumber (SPEC 5: digits, optional hyphen and digits, 9 to 12 characters)", () => {
  it.each([
    ["8 digits", "12345678", false],
    ["9 digits", "123456789", true],
    ["10 digits", "0244123456", true],
    ["12 digits", "123456789012", true],
    ["13 digits", "1234567890123", false],
    ["hyphenated, 10 chars", "123-456789", true],
    ["hyphenated, 9 chars (hyphen counts)", "1234-5678", true],
    ["hyphenated, 8 chars", "123-4567", false],
    ["hyphenated, 12 chars", "12345-678901", true],
    ["hyphenated, 13 chars", "123456-789012", false],
    ["leading hyphen", "-123456789", false],
    ["trailing hyphen", "123456789-", false],
    ["two hyphens", "123-456-789", false],
    ["two adjacent hyphens", "123--456789", false],
    ["letters", "12345678a", false],
    ["space inside", "1234 56789", false],
    ["surrounding spaces", " 123456789 ", false],
    ["plus sign", "+233244123456", false],
    ["decimal point", "12345.6789", false],
    ["empty", "", false],
    ["null", null, false],
    ["undefined", undefined, false],
  ])("%s: %j -> %s", (_label, value, expected) => {
    expect(isAccountNumber(value)).toBe(expected);
  });
});

describe("isNumberHeavy (SPEC 5: more digits than letters)", () => {
  it.each([
    ["more digits", "AB123", true],
    ["digits only", "0244123456", true],
    ["equal digits and letters", "AB12", false],
    ["equal, one each", "a1", false],
    ["one more digit", "ab123", true],
    ["one more letter", "abc12", false],
    ["letters only", "Kofi", false],
    ["punctuation does not count", "1-2-3 ab", true],
    ["punctuation only", "--- ///", false],
    ["spaces only", "   ", false],
    ["non-latin letters count", "ɛɔŋ12", false],
    ["empty", "", false],
    ["null", null, false],
    ["undefined", undefined, false],
  ])("%s: %j -> %s", (_label, value, expected) => {
    expect(isNumberHeavy(value)).toBe(expected);
  });
});

describe("parseLooseNumber", () => {
  it.each([
    ["1,234.5", 1234.5],
    ["1,000,001", 1_000_001],
    [" 42 ", 42],
    [42, 42],
    [-3.5, -3.5],
    ["-7", -7],
  ])("parses %j to %s", (value, expected) => {
    expect(parseLooseNumber(value)).toBe(expected);
  });

  it.each([[""], [" "], [","], [null], [undefined], ["abc"], ["12abc"]])("%j is NaN", (value) => {
    expect(parseLooseNumber(value)).toBeNaN();
  });
});

describe("exceedsLimit (SPEC 5: commas stripped, tested against a limit)", () => {
  it.each([
    ["1,000,001", 1_000_000, true],
    ["1,000,000", 1_000_000, false],
    [1_000_000, 1_000_000, false],
    [1_000_000.01, 1_000_000, true],
    ["999,999.99", 1_000_000, false],
    ["1000001", 1_000_000, true],
    [" 1,000,001 ", 1_000_000, true],
    [-1, 0, false],
    [1, 0, true],
    ["", 0, false],
    [null, 0, false],
    [undefined, 0, false],
    ["abc", 0, false],
    [Number.NaN, 0, false],
    [Number.POSITIVE_INFINITY, 0, false],
  ])("exceedsLimit(%j, %s) is %s", (value, limit, expected) => {
    expect(exceedsLimit(value, limit)).toBe(expected);
  });
});

describe("hasBidiControl (names refuse the bidirectional controls)", () => {
  const CONTROLS = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
  it.each(CONTROLS.map((code) => [code.toString(16).toUpperCase(), String.fromCodePoint(code)]))("U+%s anywhere in a name is refused", (_, control) => {
    expect(hasBidiControl(`invoice${control}gnp.pdf`)).toBe(true);
    expect(hasBidiControl(control)).toBe(true);
    expect(hasBidiControl(`${control}Ama`)).toBe(true);
  });

  it.each(["Ɔkyeame Ɛnterprise Ŋ", "Kofi & Sons 🍍", "مطعم أكرا", "שלום", "Receipt Ɔsu.pdf", "a\u200Db", ""])(
    "%s passes (letters of any script, emoji, joiners)",
    (name) => {
      expect(hasBidiControl(name)).toBe(false);
    },
  );

  it("the merchant and point-of-sale forms give the field its message", () => {
    expect(bidiControlMessage("name")).toMatch(/^The name holds an invisible character/);
    const merchant = v.safeParse(MerchantUpdateForm.entries.name, "Ɔkyeame \u202Eexe.gnp");
    expect(merchant.success).toBe(false);
    expect(merchant.issues?.[0]?.message).toBe(bidiControlMessage("name"));
    const place = v.safeParse(PointOfSaleFields.entries.name, "Till \u2066one\u2069");
    expect(place.success).toBe(false);
    expect(place.issues?.[0]?.message).toBe(bidiControlMessage("name"));
  });
});
