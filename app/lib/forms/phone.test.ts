// The one Ghana phone rule (app/lib/forms/phone.ts) that every form and the
// transactions search use, its one message, and the one way a number is masked.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PHONE_MAX_LENGTH, PHONE_MESSAGE, ghanaMsisdn, maskPhone } from "./phone";
import { ghanaPhoneField } from "./phone-field";

describe("ghanaMsisdn: every way people in Ghana write a number", () => {
  it.each([
    // The local way, grouped as people group it.
    ["0244123456", "233244123456"],
    ["024 412 3456", "233244123456"],
    ["0244 123 456", "233244123456"],
    [" 024 412 3456 ", "233244123456"],
    ["024-412-3456", "233244123456"],
    ["024-4123456", "233244123456"],
    ["0244-123456", "233244123456"],
    ["(024) 412 3456", "233244123456"],
    ["(024)4123456", "233244123456"],
    ["(024) 412-3456", "233244123456"],
    ["0244\u00a0123\u00a0456", "233244123456"],
    // Without the 0.
    ["244123456", "233244123456"],
    ["24 412 3456", "233244123456"],
    // With the country code.
    ["233244123456", "233244123456"],
    ["233 24 412 3456", "233244123456"],
    ["233-244123456", "233244123456"],
    ["+233244123456", "233244123456"],
    ["+233 24 412 3456", "233244123456"],
    ["+233-24-412-3456", "233244123456"],
    ["(+233) 24 412 3456", "233244123456"],
    ["00233 24 412 3456", "233244123456"],
    // The trunk 0 kept after the country code.
    ["+233 (0)24 412 3456", "233244123456"],
    ["+233 024 412 3456", "233244123456"],
    ["2330244123456", "233244123456"],
    // Every network, and a fixed line (Accra 030, Kumasi 032).
    ["020 555 1234", "233205551234"],
    ["050 123 4567", "233501234567"],
    ["055 444 3332", "233554443332"],
    ["026 700 1122", "233267001122"],
    ["057 001 1223", "233570011223"],
    ["023 312 3456", "233233123456"],
    ["030 276 1904", "233302761904"],
    ["(032) 204 5120", "233322045120"],
  ])("%j is stored as %s", (typed, stored) => {
    expect(ghanaMsisdn(typed)).toBe(stored);
  });

  it.each([
    ["empty", ""],
    ["spaces only", "   "],
    ["too short", "0244 123 45"],
    ["too short without the 0", "24412345"],
    ["too long", "0244 123 4567"],
    ["too long with the country code", "+233 24 412 34567"],
    ["the country code and too few digits", "233-24412"],
    ["letters", "0244abc456"],
    ["a word", "phone"],
    ["dots", "024.412.3456"],
    ["a slash", "024/412/3456"],
    ["a plus in the middle", "0244+123456"],
    ["two plus signs", "++233244123456"],
    ["a plus after a bracket group", "(0)+233244123456"],
    ["two bracket groups", "(024) (412) 3456"],
    ["a bracket left open", "(024 412 3456"],
    ["a bracket never opened", "024) 412 3456"],
    ["empty brackets", "() 0244123456"],
    ["a UK number", "+44 20 7946 0958"],
    ["a Nigerian number", "+234 803 123 4567"],
    ["a Nigerian number dialled with 00", "00234 803 123 4567"],
    ["a Togolese number", "+228 90 12 34 56"],
    ["233 with a plus and too many digits", "+233 0244 1234567"],
    ["a national number starting with 0", "044123456"],
    ["a national number starting with 1", "0144123456"],
    ["a national number starting with 4", "0444123456"],
    ["a national number starting with 8", "0800 123 456"],
    ["a national number starting with 9", "+233 94 412 3456"],
    ["ten digits not starting with 0", "1244123456"],
    ["a number longer than any writing of one", `0244123456${" ".repeat(PHONE_MAX_LENGTH)}`],
  ])("%s (%j) is refused", (_why, typed) => {
    expect(ghanaMsisdn(typed)).toBeNull();
  });
});

describe("ghanaPhoneField: the form field every form uses", () => {
  const field = ghanaPhoneField("Enter the contact phone number.");

  it("gives the stored form", () => {
    expect(v.parse(field, " +233 (0)24 412 3456 ")).toBe("233244123456");
  });

  it.each([
    ["", "Enter the contact phone number."],
    ["   ", "Enter the contact phone number."],
    ["12345", PHONE_MESSAGE],
    ["+44 20 7946 0958", PHONE_MESSAGE],
    ["0244abc456", PHONE_MESSAGE],
  ])("%j is refused with %j", (typed, message) => {
    const result = v.safeParse(field, typed);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toEqual([message]);
  });

  it("refuses what is not text with the field's own message", () => {
    expect(v.safeParse(field, undefined).issues?.[0]?.message).toBe("Enter the contact phone number.");
  });
});

describe("maskPhone", () => {
  it("shows the country code and the last four digits only", () => {
    expect(maskPhone("233244123456")).toBe("233*****3456");
    expect(maskPhone("233209876543")).toBe("233*****6543");
  });

  it("shows nothing of a number too short to mask", () => {
    expect(maskPhone("1234567")).toBe("****");
    expect(maskPhone("")).toBe("****");
  });
});
