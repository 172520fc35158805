// An evidence file's name never turns into a card number (decision 031): not in the download's filename= (its ASCII
// fallback) or filename*= (encoded, or as a browser decodes it), whatever the name; and the upload refuses a name
// that holds one as chosen, as stored or as its fallback.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import { cleanFileName, EVIDENCE_TYPES } from "./evidence";
import { contentDisposition, fileNameHoldsCardNumber } from "./evidence-download";
import { cardNumber } from "#tests/support/card-spellings";

/** filename= and filename*= of a Content-Disposition, the latter as sent and as a browser decodes it. */
function namesOf(header: string): string[] {
  const match = /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S*)$/.exec(header);
  expect(match, header).not.toBeNull();
  return [match![1]!, match![2]!, decodeURIComponent(match![2]!)];
}

const wordLetters = ["ɔ", "Ɛ", "ŋ", "ع", "K", "x", "字", "ж"];
const separators = [" ", "-", ".", "\u3164", "\u0640", "\u30fc", "\u00a0", "\u200b", "\u0000", "\u001f", '"', "/", "\\", "\u0301", "%", "@", "&", "ǃ"];
/** A digit written in one of several ways: ASCII, Arabic-Indic, fullwidth, circled, dingbat, Ethiopic (no zero). */
const writeDigit = (digit: string, way: number) => {
  const d = Number(digit);
  const ways = [String(d), String.fromCodePoint(0x660 + d), String.fromCodePoint(0xff10 + d)];
  if (d > 0) ways.push(String.fromCodePoint(0x245f + d), String.fromCodePoint(0x2775 + d), String.fromCodePoint(0x1368 + d));
  return ways[way % ways.length]!;
};

/** A file name around a card number, its digits kept apart (or not) by word letters, separators or nothing. */
const nameWithCardNumber = fc
  .tuple(
    cardNumber,
    fc.array(fc.oneof(fc.constant(""), fc.constantFrom(...wordLetters), fc.constantFrom(...separators)), { minLength: 18, maxLength: 18 }),
    // Half the names in ASCII digits: the fallback keeps those and nothing else of a number.
    fc.oneof(fc.constant(Array.from({ length: 19 }, () => 0)), fc.array(fc.nat(), { minLength: 19, maxLength: 19 })),
    fc.constantFrom("", "Receipt ", "Ɔsu ", "C:\\scans\\", "scan-"),
    fc.constantFrom("", ".pdf", ".PNG", " (2).jpg", " copy"),
  )
  .map(([digits, gaps, ways, before, after]) => before + [...digits].map((digit, i) => writeDigit(digit, ways[i]!) + (gaps[i] ?? "")).join("") + after);
const anyName = fc.oneof(nameWithCardNumber, fc.string({ unit: "grapheme", maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }));

describe("the download's name", () => {
  it("is never a card number, in filename= or filename*=, for any stored name", () => {
    fc.assert(
      fc.property(anyName, fc.constantFrom(...EVIDENCE_TYPES), (name, type) => {
        for (const offered of namesOf(contentDisposition(name, type)))
          expect(looksLikeCardNumber(offered), `${JSON.stringify(name)} -> ${offered}`).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps a name that holds none as it was chosen", () => {
    expect(contentDisposition("Receipt Ɔsu.pdf", "application/pdf")).toBe(
      `attachment; filename="Receipt__su.pdf"; filename*=UTF-8''${encodeURIComponent("Receipt Ɔsu.pdf")}`,
    );
    expect(contentDisposition("Scan 2026-11-23", "image/png")).toBe(`attachment; filename="Scan_2026-11-23.png"; filename*=UTF-8''Scan%202026-11-23.png`);
  });

  it("writes the digits of one kept before the upload refused it as #", () => {
    expect(namesOf(contentDisposition("card 4111ɔ1111ɔ1111ɔ1111", "application/pdf"))[2]).toBe("card ####ɔ####ɔ####ɔ####.pdf");
    expect(namesOf(contentDisposition("4111\u31641111\u31641111\u31641111.pdf", "application/pdf"))[2]).toBe("####\u3164####\u3164####\u3164####.pdf");
  });
});

describe("the upload's check of a file name", () => {
  it("refuses every name that reads as a card number as chosen, as kept, or as its ASCII fallback", () => {
    fc.assert(
      fc.property(nameWithCardNumber, (name) => {
        // The download offers the kept name (its last path part, no control characters or quotes, 120 characters).
        const kept = cleanFileName(name);
        if ([name, kept, kept.replace(/[^\w.-]/g, "_")].some(looksLikeCardNumber)) expect(fileNameHoldsCardNumber(name), name).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses a name whose letters of another script would be joined into one by the fallback, or whose kept form is one", () => {
    expect(looksLikeCardNumber("4111ɔ1111ɔ1111ɔ1111.pdf")).toBe(false);
    expect(fileNameHoldsCardNumber("4111ɔ1111ɔ1111ɔ1111.pdf")).toBe(true);
    // Kept to 120 characters: the 17 digits at the end lose their last one.
    const long = `${"a".repeat(104)}41111111111111112`;
    expect(looksLikeCardNumber(long)).toBe(false);
    expect(fileNameHoldsCardNumber(long)).toBe(true);
    expect(fileNameHoldsCardNumber("Receipt Ɔsu 2026-11-23.pdf")).toBe(false);
  });
});
