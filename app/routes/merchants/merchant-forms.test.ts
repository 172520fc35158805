// The merchant and settlement-account form rules (app/routes/merchants/merchant-forms.ts):
// SPEC section 5's email and number rules, and the database's own CHECKs, said
// before a request is made.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { formErrors as fieldErrors } from "#server/forms";
import { ACCOUNT_FIELDS, formFields, MerchantCreateForm, MerchantUpdateForm, SettlementAccountForm } from "./merchant-forms";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { MERCHANT_COLUMNS } from "#server/merchants/merchant-columns";

const GOOD = {
  code: " mrc-0042 ",
  name: "Bantama Cold Store Limited",
  trading_name: "Bantama Cold Store",
  tin: "c0012345678",
  sector: "Groceries",
  town: "Kumasi",
  region: "Ashanti",
  address: "Plot 4, Bantama",
  contact_name: "Akua Frimpong",
  contact_phone: "024 412 3456",
  contact_email: " Akua@Example.COM ",
};

describe("the contact phone (the one Ghana rule of app/lib/forms/phone.ts)", () => {
  // Writings this form used to refuse among them: hyphens, no leading 0, brackets, the trunk 0 after +233.
  it.each([
    ["0244123456", "233244123456"],
    ["024-4123456", "233244123456"],
    ["244123456", "233244123456"],
    ["+233244123456", "233244123456"],
    ["(024) 412 3456", "233244123456"],
    ["+233 (0)24 412 3456", "233244123456"],
  ])("%s is stored as %s, on the add and the edit form", (typed, msisdn) => {
    expect(v.parse(MerchantCreateForm, { ...GOOD, contact_phone: typed }).contact_phone).toBe(msisdn);
    const { code: _code, ...changeable } = GOOD;
    expect(v.parse(MerchantUpdateForm, { ...changeable, contact_phone: typed }).contact_phone).toBe(msisdn);
  });

  it.each(["12345678", "2440123456789", "024412345a", "1244123456", "23324412345", "+44 20 7946 0958"])("%s is refused with the one message", (typed) => {
    expect(fieldErrors(v.safeParse(MerchantCreateForm, { ...GOOD, contact_phone: typed }).issues!)).toEqual({ contact_phone: PHONE_MESSAGE });
  });

  it("an empty phone asks for one", () => {
    expect(fieldErrors(v.safeParse(MerchantCreateForm, { ...GOOD, contact_phone: " " }).issues!)).toEqual({ contact_phone: "Enter the contact phone number." });
  });
});

describe("MerchantCreateForm", () => {
  it("normalises a good form to the engine's columns", () => {
    const parsed = v.parse(MerchantCreateForm, GOOD);
    expect(parsed).toEqual({ ...GOOD, code: "MRC-0042", tin: "C0012345678", contact_phone: "233244123456", contact_email: "akua@example.com" });
  });

  it("says what is wrong with each field, a missing field included", () => {
    const result = v.safeParse(
      MerchantCreateForm,
      formFields({ ...GOOD, tin: "C123", contact_email: "akua@example", region: "Kumasi", code: undefined as unknown as string }, MERCHANT_COLUMNS),
    );
    expect(result.success).toBe(false);
    const errors = fieldErrors(result.issues!);
    expect(errors).toEqual({
      code: "Enter the merchant code.",
      tin: "Enter the Ghana TIN: P, C, G or Q and 10 digits, like C0008473783.",
      region: "Choose the region.",
      contact_email: "Enter a valid email address, like name@company.com.",
    });
  });

  it("refuses a code the database could not take, and over-long text", () => {
    const errors = fieldErrors(v.safeParse(MerchantCreateForm, { ...GOOD, code: "M", name: "x".repeat(121) }).issues!);
    expect(errors.code).toContain("Use 3 to 20 letters");
    expect(errors.name).toBe("Keep the name to 120 characters or fewer.");
  });
});

describe("SettlementAccountForm", () => {
  it("a network is mobile money, a bank is a bank account; the box is the primary flag", () => {
    expect(v.parse(SettlementAccountForm, { provider: "Telecel", account_number: "0204312992", account_name: "Kwaku", is_primary: "on" })).toEqual({
      kind: "mobile_money",
      provider: "Telecel",
      account_number: "0204312992",
      account_name: "Kwaku",
      is_primary: 1,
    });
    expect(v.parse(SettlementAccountForm, { provider: "CalBank", account_number: "463-09378022", account_name: "Papa Kwaku" })).toMatchObject({
      kind: "bank",
      is_primary: 0,
    });
  });

  it.each(["12345678", "1234567890123", "12-34-56789", "-12345678", "12345678-", "1234 5678a"])("account number %s breaks SPEC's rule", (number) => {
    const errors = fieldErrors(v.safeParse(SettlementAccountForm, { provider: "MTN", account_number: number, account_name: "x" }).issues!);
    expect(errors.account_number).toContain("Use 9 to 12 characters");
  });

  it("an unknown provider and empty fields are each named", () => {
    const errors = fieldErrors(v.safeParse(SettlementAccountForm, formFields({ provider: "Vodafone" }, ACCOUNT_FIELDS)).issues!);
    expect(Object.keys(errors).sort()).toEqual(["account_name", "account_number", "provider"]);
  });
});
