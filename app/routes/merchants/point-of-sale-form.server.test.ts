import { describe, expect, it } from "vitest";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { readPointOfSaleForm } from "./point-of-sale-form.server";
import { canStart } from "#server/merchants/terminals.db";

describe("the contact phone (the one Ghana rule of app/lib/forms/phone.ts)", () => {
  const VALID = { name: "Adum Branch", town: "Kumasi", region: "Ashanti", address: "Prempeh II St" };

  it.each([
    ["024 412 3456", "233244123456"],
    ["+233 24 412 3456", "233244123456"],
    ["(024) 412-3456", "233244123456"],
    ["244123456", "233244123456"],
    ["233-244123456", "233244123456"],
    ["024-41-23456", "233244123456"],
    ["+233 (0)24 412 3456", "233244123456"],
  ])("%s is stored as %s", (typed, msisdn) => {
    const form = readPointOfSaleForm({ ...VALID, contactPhone: typed });
    expect(form.ok && form.output.contactPhone).toBe(msisdn);
  });

  it.each(["0244", "02441234567", "2332441234567", "phone", "+44 20 7946 0958", "(024)4123456)"])("%s is refused with the one message", (typed) => {
    const form = readPointOfSaleForm({ ...VALID, contactPhone: typed });
    expect(!form.ok && form.errors).toEqual({ contactPhone: PHONE_MESSAGE });
  });

  it("an empty phone asks for one", () => {
    const form = readPointOfSaleForm({ ...VALID, contactPhone: "  " });
    expect(!form.ok && form.errors).toEqual({ contactPhone: "Enter a phone number." });
  });
});

describe("readPointOfSaleForm", () => {
  const VALID = { name: " Adum Branch ", town: "Kumasi", region: "Ashanti", address: "Prempeh II St", contactPhone: "0244123456" };

  it("trims and normalises a valid form", () => {
    const form = readPointOfSaleForm(VALID);
    expect(form.ok && form.output).toEqual({ name: "Adum Branch", town: "Kumasi", region: "Ashanti", address: "Prempeh II St", contactPhone: "233244123456" });
  });

  it("gives one message per bad field and keeps what was typed", () => {
    const form = readPointOfSaleForm({ ...VALID, name: "  ", region: "Narnia", contactPhone: "12" });
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.errors).toEqual({ name: "Enter the name.", region: "Choose a region.", contactPhone: PHONE_MESSAGE });
    expect(form.typed.contactPhone).toBe("12");
  });

  it("a missing field reads as empty, not as a malformed request", () => {
    const form = readPointOfSaleForm({});
    expect(form.ok).toBe(false);
    if (!form.ok) expect(Object.keys(form.errors).sort()).toEqual(["address", "contactPhone", "name", "region", "town"]);
  });
});

describe("which terminal actions can start", () => {
  it.each([
    ["assign", "in_stock", null, true],
    ["assign", "active", "pos", false],
    ["unassign", "active", "pos", true],
    ["unassign", "blocked", null, false],
    ["unassign", "faulty", "pos", true],
    ["block", "retired", null, false],
    ["block", "faulty", "pos", true],
    ["unblock", "blocked", "pos", true],
    ["unblock", "active", "pos", false],
  ] as const)("%s from %s (at %s): %s", (action, status, pointOfSaleId, expected) => {
    expect(canStart(action, { status, pointOfSaleId })).toBe(expected);
  });
});
