// The card-number scanner (decision 031) over whole classes of Unicode, not examples: every general category as the
// separator between digits, every character of \p{N} that is read as a digit as the digits, the table of digits
// complete for every \p{N} character Node knows, and the spared shapes still spared with the new separators.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeCardNumber, maskDigits, normaliseDigits } from "./card-numbers";
import { DIGIT_RUNS, NOT_ONE_DIGIT } from "./digit-values";
import { cardNumber } from "#tests/support/card-spellings";

const GENERAL_CATEGORIES = [
  ["Lu", "Ll", "Lt", "Lm", "Lo"],
  ["Mn", "Mc", "Me"],
  ["Nd", "Nl", "No"],
  ["Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"],
  ["Sm", "Sc", "Sk", "So"],
  ["Zs", "Zl", "Zp"],
  ["Cc", "Cf", "Cs", "Co", "Cn"],
].flat();

/** Every code point by its general category, as Node's regular expressions know them. */
const byCategory = new Map<string, number[]>(GENERAL_CATEGORIES.map((gc) => [gc, []]));
const tests = GENERAL_CATEGORIES.map((gc) => [gc, new RegExp(`^\\p{gc=${gc}}$`, "u")] as const);
for (let code = 0; code <= 0x10ffff; code++) {
  const char = String.fromCodePoint(code);
  for (const [gc, test] of tests)
    if (test.test(char)) {
      byCategory.get(gc)!.push(code);
      break;
    }
}

/**
 * The one expected exception to "anything but a digit separates": a letter people read as a letter ends a run. That is
 * a letter after NFKC (™ is "TM", Ⅹ is "X") that is not a modifier letter (tatweel, prolonged-sound and iteration
 * marks, tone letters), not drawn as nothing (the Hangul fillers, Default_Ignorable_Code_Point) and not a click
 * letter drawn as a bar, bars, a cross or "!" (U+01C0 to U+01C3). Written out here, apart from the scanner, as the rule.
 */
const WORD_LETTER = /(?![\p{Lm}\p{Default_Ignorable_Code_Point}\u01c0-\u01c3])\p{L}/u;
const endsARun = (char: string) => WORD_LETTER.test(char.normalize("NFKC"));
const readsAsDigit = (char: string) => /[0-9]/.test(normaliseDigits(char));

/** The characters of a category that must separate digit groups: all but word letters and what is read as a digit. */
const separatorsOf = (gc: string) => byCategory.get(gc)!.filter((code) => !endsARun(String.fromCodePoint(code)) && !readsAsDigit(String.fromCodePoint(code)));
const pick = (codes: readonly number[]) => fc.integer({ min: 0, max: codes.length - 1 }).map((i) => String.fromCodePoint(codes[i]!));

/** The card number with `gap` between some of its digits (at least one gap, and between every digit now and then). */
function spelled(digits: string, gaps: readonly boolean[], gap: string, writeDigit: (digit: string, i: number) => string = (d) => d): string {
  return [...digits].map((digit, i) => writeDigit(digit, i) + (i < digits.length - 1 && (gaps[i] ?? true) ? gap : "")).join("");
}
const gapsArbitrary = fc.array(fc.boolean(), { minLength: 18, maxLength: 18 });

describe("every general category as the separator between a card number's digits", () => {
  it("knows every category, and the issue's characters are separators", () => {
    for (const gc of GENERAL_CATEGORIES) expect(byCategory.get(gc)!.length, gc).toBeGreaterThan(0);
    // Every category gives separators but these: upper, lower and title case letters all end a run, every Nd is a digit.
    expect(GENERAL_CATEGORIES.filter((gc) => separatorsOf(gc).length === 0)).toEqual(["Lu", "Ll", "Lt", "Nd"]);
    for (const char of ["\u3164", "\u115f", "\u1160", "\uffa0", "\u0640", "\u30fc", "\u3005", "\u309d", "\u02bc", "\u02d0", "\u0301", "\u20e3", "\u01c3"])
      expect(looksLikeCardNumber(`card 4111${char}1111${char}1111${char}1111 declined`), `U+${char.codePointAt(0)!.toString(16)}`).toBe(true);
  });

  it("lets only word letters end a run: every letter category's other characters separate", () => {
    // What the exception takes: of Lm only what NFKC writes as an ordinary letter (ʰ is "h"); every Lu, Ll and Lt.
    for (const code of byCategory.get("Lm")!) {
      const char = String.fromCodePoint(code);
      if (endsARun(char)) expect(char.normalize("NFKC"), `U+${code.toString(16)}`).not.toBe(char);
    }
    expect(separatorsOf("Lu").length + separatorsOf("Ll").length + separatorsOf("Lt").length).toBe(0);
    expect(separatorsOf("Lo").map((code) => code.toString(16))).toEqual(expect.arrayContaining(["115f", "1160", "3164", "ffa0", "1c0", "1c3"]));
  });

  it.each(GENERAL_CATEGORIES.filter((gc) => separatorsOf(gc).length > 0))("finds a card number whose digits are separated by %s", (gc) => {
    const separators = separatorsOf(gc);
    fc.assert(
      fc.property(cardNumber, gapsArbitrary, pick(separators), fc.integer({ min: 1, max: 3 }), (digits, gaps, char, times) => {
        const text = `card ${spelled(digits, gaps, char.repeat(times))} declined`;
        expect(looksLikeCardNumber(text), `U+${char.codePointAt(0)!.toString(16)}`).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

/** For each digit, every character of \p{N} read as that digit and nothing else (NFKC may add punctuation: ⒋ is "4."). */
const writingsOf = Array.from({ length: 10 }, () => [] as number[]);
for (const code of [...byCategory.get("Nd")!, ...byCategory.get("Nl")!, ...byCategory.get("No")!]) {
  const digits = normaliseDigits(String.fromCodePoint(code)).replace(/[^0-9]/g, "");
  if (digits.length === 1) writingsOf[Number(digits)]!.push(code);
}

describe("every character of \\p{N} read as a digit, as the digits", () => {
  it("reads the dingbat and negative circled digits, the Ethiopic numerals and the table's other digits as their values", () => {
    expect(normaliseDigits("\u2776\u277e \u2780\u2788 \u278a\u2792")).toBe("19 19 19");
    // Their tens (❿ ➉ ➓) are worth ten, not a digit: read as no digit.
    expect(normaliseDigits("\u277f\u2789\u2793")).toBe("\u277f\u2789\u2793");
    expect(normaliseDigits("፩፪፫፬፭፮፯፰፱")).toBe("123456789");
    expect(normaliseDigits("Ⅳ ⅸ 𝋄")).toBe("4 9 4");
    for (let i = 0; i < DIGIT_RUNS.length; i += 3)
      for (let k = 0; k < DIGIT_RUNS[i + 1]!; k++) expect(normaliseDigits(String.fromCodePoint(DIGIT_RUNS[i]! + k))).toBe(String(DIGIT_RUNS[i + 2]! + k));
  });

  it("finds a Luhn-valid card number written with any of them, a character of its own for every digit", () => {
    fc.assert(
      fc.property(
        cardNumber,
        gapsArbitrary,
        fc.array(fc.nat(), { minLength: 19, maxLength: 19 }),
        fc.constantFrom("", " ", "-", "\u3164", "\u0640"),
        (digits, gaps, choices, gap) => {
          const text = spelled(digits, gaps, gap, (digit, i) => {
            const writings = writingsOf[Number(digit)]!;
            return String.fromCodePoint(writings[choices[i]! % writings.length]!);
          });
          expect(looksLikeCardNumber(`card ${text} declined`), text).toBe(true);
          expect(looksLikeCardNumber(maskDigits(text)), text).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/** The table's classes of \p{N} characters whose value is not one digit, as sets of code points. */
const notOneDigit = new Map<string, Set<number>>(
  Object.entries(NOT_ONE_DIGIT).map(([what, ranges]) => {
    const codes = new Set<number>();
    for (let i = 0; i < ranges.length; i += 2) for (let code = ranges[i]!; code <= ranges[i + 1]!; code++) codes.add(code);
    return [what, codes];
  }),
);

describe("the table of digits (./digit-values.ts, made by scripts/digit-values.py)", () => {
  it("classifies every \\p{N} character Node knows: a digit, written with digits by NFKC, or a value that is not one digit", () => {
    const tabled = new Set<number>();
    for (let i = 0; i < DIGIT_RUNS.length; i += 3) for (let k = 0; k < DIGIT_RUNS[i + 1]!; k++) tabled.add(DIGIT_RUNS[i]! + k);
    expect([...notOneDigit.keys()]).toEqual(["fractions", "ten and above", "beats of music (Yangqin signs)"]);
    const unclassified: string[] = [];
    for (const gc of ["Nd", "Nl", "No"])
      for (const code of byCategory.get(gc)!) {
        const char = String.fromCodePoint(code);
        const nfkcDigits = char.normalize("NFKC").replace(/\P{Nd}/gu, "");
        const classes = [...notOneDigit].filter(([, codes]) => codes.has(code)).map(([what]) => what);
        if (gc === "Nd") expect(normaliseDigits(char)).toMatch(/^[0-9]$/);
        else if (nfkcDigits) expect(tabled.has(code) || classes.length > 0, `U+${code.toString(16)} is read through NFKC`).toBe(false);
        else if (tabled.has(code)) expect(classes, `U+${code.toString(16)}`).toEqual([]);
        else if (classes.length === 1) expect(readsAsDigit(char), `U+${code.toString(16)} (${classes[0]})`).toBe(false);
        else unclassified.push(`U+${code.toString(16).toUpperCase()} ${gc}`);
      }
    // A character here is one Node learnt after the table was made: run scripts/digit-values.py (and classify it there).
    expect(unclassified).toEqual([]);
  });
});

describe("the spared shapes, written with the new separators", () => {
  const separator = pick([...separatorsOf("Lm"), ...separatorsOf("Lo"), ...separatorsOf("Pd"), ...separatorsOf("Mn")]);
  const day = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2039-12-31T00:00:00Z"), noInvalidDate: true });
  it("still lets through a processor's dated reference and a UUID among such text", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z]{1,6}$/),
        separator,
        day,
        separator,
        fc.stringMatching(/^[0-9]{1,11}$/),
        fc.uuid(),
        (prefix, a, date, b, serial, uuid) => {
          const reference = `${prefix}${a}${date.toISOString().slice(0, 10).replaceAll("-", "")}${b}${serial}`;
          expect(looksLikeCardNumber(reference), reference).toBe(false);
          expect(looksLikeCardNumber(`ref ${reference}${a}key ${uuid}`), reference).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
