import { describe, expect, it } from "vitest";
import { amountLimitError } from "./amount-limits";

const balance = { pesewas: 125_050, name: "available balance" };

describe("amountLimitError (SPEC 5: a number, commas stripped, tested against a limit)", () => {
  it.each([
    ["1,250.51", "This amount exceeds the available balance of GHS 1,250.50."],
    ["1250.51", "This amount exceeds the available balance of GHS 1,250.50."],
    ["GHS 2,000", "This amount exceeds the available balance of GHS 1,250.50."],
    ["1,250.50", null],
    ["1250.5", null],
    ["0.01", null],
    // Not an amount: its own rule says so, not this one.
    ["", null],
    ["abc", null],
    ["1,2,3,4,5,6", null],
    ["99999.999", null],
  ])("%j against GHS 1,250.50 → %j", (typed, message) => {
    expect(amountLimitError(typed, [balance])).toBe(message);
  });

  it("names the first limit exceeded, so a refund can say the amount paid", () => {
    const paid = { pesewas: 5_000, name: "amount paid" };
    expect(amountLimitError("60", [paid, balance])).toBe("This amount exceeds the amount paid of GHS 50.00.");
    expect(amountLimitError("1,300", [paid, balance])).toBe("This amount exceeds the amount paid of GHS 50.00.");
    expect(amountLimitError("50", [paid, balance])).toBeNull();
  });
});
