// Pesewas as cedis (functions/ledger/money.ts), checked against what each copy it replaced computed, over generated amounts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPesewas, plainCedis } from "./money";

const amounts = fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 });

describe("formatPesewas", () => {
  it("reads as en-GH writes cedis: separators and two decimals, to the pesewa", () => {
    fc.assert(
      fc.property(amounts, (pesewas) => {
        expect(formatPesewas(pesewas)).toBe((pesewas / 100).toLocaleString("en-GH", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      }),
    );
    expect(formatPesewas(123_456)).toBe("1,234.56");
    expect(formatPesewas(-5)).toBe("-0.05");
    expect(formatPesewas(0)).toBe("0.00");
  });
});

describe("plainCedis", () => {
  it("is the CSV's two decimals without separators, as toFixed(2) wrote them", () => {
    fc.assert(
      fc.property(amounts, (pesewas) => {
        expect(plainCedis(pesewas)).toBe((pesewas / 100).toFixed(2));
      }),
    );
    expect(plainCedis(100_000_050)).toBe("1000000.50");
  });
});
