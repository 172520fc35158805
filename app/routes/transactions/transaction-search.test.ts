// The transactions search box's reading of what was typed, at its edges and over generated amounts, phones and tails.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPesewas } from "#server/ledger/money";
import { readTransactionSearch } from "./transaction-search";

describe("readTransactionSearch", () => {
  it("reads four digits as a card's or a payer phone's last four, a reference's tail and an amount in cedis", () => {
    expect(readTransactionSearch("9801")).toEqual({ cardLast4: "9801", phoneLast4: "9801", referenceTail: "9801", amount: 980_100 });
  });

  it("reads a phone in any spelling the forms take, and the digits as typed as a reference's tail", () => {
    expect(readTransactionSearch("024 412 3456")).toEqual({ customerMsisdn: "233244123456", referenceTail: "0244123456" });
    expect(readTransactionSearch("+233 24 412 3456")).toEqual({ customerMsisdn: "233244123456" });
    expect(readTransactionSearch("233244123456")).toEqual({ customerMsisdn: "233244123456", referenceTail: "233244123456", amount: 23_324_412_345_600 });
  });

  it("reads a reference, whole or its last characters, in either case", () => {
    expect(readTransactionSearch(" kff-261120-0000500 ")).toEqual({ referenceTail: "KFF-261120-0000500" });
    expect(readTransactionSearch("0000500")).toEqual({ referenceTail: "0000500" });
    expect(readTransactionSearch("0500")).toEqual({ referenceTail: "0500", cardLast4: "0500", phoneLast4: "0500" });
    expect(readTransactionSearch("KFF-2611")).toEqual({ referenceTail: "KFF-2611" });
  });

  it("reads an amount written as money as that amount alone, in pesewas", () => {
    expect(readTransactionSearch("25")).toEqual({ amount: 2_500, referenceTail: "25" });
    expect(readTransactionSearch("25.50")).toEqual({ amount: 2_550 });
    expect(readTransactionSearch("25.5")).toEqual({ amount: 2_550 });
    expect(readTransactionSearch("GHS 25.50")).toEqual({ amount: 2_550 });
    expect(readTransactionSearch("ghs 25")).toEqual({ amount: 2_500 });
    expect(readTransactionSearch("1,250.00")).toEqual({ amount: 125_000 });
    expect(readTransactionSearch("0.50")).toEqual({ amount: 50 });
    expect(readTransactionSearch("0.00")).toEqual({});
  });

  it("reads text that is not number-heavy (SPEC 5) as a merchant's name, and a word as a reference's tail too", () => {
    expect(readTransactionSearch(" Papa Kwaku ")).toEqual({ merchantSearch: "Papa Kwaku" });
    expect(readTransactionSearch("Ɔkɔdeɛ 24")).toEqual({ merchantSearch: "Ɔkɔdeɛ 24" });
    expect(readTransactionSearch("simmwt7bg05t18")).toEqual({ merchantSearch: "simmwt7bg05t18", referenceTail: "SIMMWT7BG05T18" });
    expect(readTransactionSearch("Ama")).toEqual({ merchantSearch: "Ama", referenceTail: "AMA" });
  });

  it("reads nothing from nothing", () => {
    expect(readTransactionSearch("   ")).toEqual({});
    expect(readTransactionSearch(undefined)).toEqual({});
  });

  it("finds every amount as the screens write it, with or without GHS, in its pesewas", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.boolean(), (pesewas, currency) => {
        const shown = `${currency ? "GHS " : ""}${formatPesewas(pesewas)}`;
        expect(readTransactionSearch(shown)).toEqual({ amount: pesewas });
      }),
    );
  });

  it("finds every Ghana mobile number written as people write it, as 233XXXXXXXXX", () => {
    const national = fc.tuple(fc.constantFrom("2", "5"), fc.stringMatching(/^\d{8}$/)).map(([first, rest]) => `${first}${rest}`);
    const spelling = fc.constantFrom(
      (n: string) => `0${n}`,
      (n: string) => `0${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`,
      (n: string) => `233${n}`,
      (n: string) => `+233 ${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`,
      (n: string) => `+233 (0)${n.slice(0, 2)} ${n.slice(2)}`,
    );
    fc.assert(
      fc.property(national, spelling, (n, spell) => {
        expect(readTransactionSearch(spell(n)).customerMsisdn).toBe(`233${n}`);
      }),
    );
  });

  it("keeps any tail of a reference a tail (upper-cased), and makes at most three reads of payments", () => {
    const reference = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/-]{3,63}$/);
    fc.assert(
      fc.property(reference, fc.nat(), (whole, cut) => {
        const tail = whole.slice(cut % (whole.length - 3));
        const read = readTransactionSearch(tail);
        // A word is read twice (the merchants so named, and the whole reference): D1 takes at most 5 compound terms.
        expect(Object.keys(read).length + (read.merchantSearch ? 1 : 0)).toBeLessThanOrEqual(3);
        if (/[,.]/.test(tail) && read.amount !== undefined) return;
        expect(read.referenceTail).toBe(tail.toUpperCase());
      }),
    );
  });
});
