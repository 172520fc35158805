// Card numbers in the spellings once found stored (decision 031), and a few more: for the unit tests of
// the rule (functions/card-numbers/card-numbers.ts) and the integration test that sends each through every carrier.
import fc from "fast-check";
import { passesLuhn } from "#server/card-numbers/card-numbers";

/** Every spelling once found stored, so that none is stored again (decision 031). */
export const ISSUE_SPELLINGS: [string, string][] = [
  ["together", "4111111111111111"],
  ["hyphens", "4111-1111-1111-1111"],
  ["spaces", "4111 1111 1111 1111"],
  ["dots", "4111.1111.1111.1111"],
  ["slashes", "5555/5555/5555/4444"],
  ["underscores", "4111_1111_1111_1111"],
  ["colons", "4111:1111:1111:1111"],
  ["two groups of eight", "41111111-11111111"],
  ["no-break spaces", "4111\u00a01111\u00a01111\u00a01111"],
  ["narrow no-break spaces", "4111\u202f1111\u202f1111\u202f1111"],
  ["tabs", "4111\t1111\t1111\t1111"],
  ["newlines", "4111\n1111\r\n1111\n1111"],
  ["double spaces", "4111  1111  1111  1111"],
  ["en dashes", "4111\u20131111\u20131111\u20131111"],
  ["em dashes", "4111\u20141111\u20141111\u20141111"],
  ["zero-width spaces", "4111\u200b1111\u200b1111\u200b1111"],
  ["zero-width joiners and word joiners", "4111\u200d1111\u200c1111\u20601111\ufeff"],
  ["runs of separators", "4111 - 1111 -- 1111 / 1111"],
  ["fullwidth digits", "４１１１１１１１１１１１１１１１"],
  ["fullwidth digits and ideographic spaces", "４１１１\u3000１１１１\u3000１１１１\u3000１１１１"],
  ["Arabic-Indic digits", "٤١١١١١١١١١١١١١١١"],
  ["Extended Arabic-Indic digits in groups", "۴۱۱۱ ۱۱۱۱ ۱۱۱۱ ۱۱۱۱"],
  ["Devanagari digits", "४१११११११११११११११"],
  ["mixed scripts", "4١۱１ 1111 ١١١١ ۱۱۱۱"],
  ["American Express (4-6-5)", "3782 822463 10005"],
  ["19 digits", "6304-0000-0000-0000-000"],
  ["13 digits", "4222222222222"],
  // Spellings an ASCII-minded rule misses: letters drawn as nothing or as punctuation between the digits, and numerals outside \p{Nd}.
  ["Hangul fillers (as reported)", "4111\u31641111\u31641111\u31641111"],
  ["halfwidth Hangul fillers and choseong fillers", "4111\uffa01111\u115f1111\u11601111"],
  ["Arabic tatweels", "4111\u06401111\u06401111\u06401111"],
  ["prolonged-sound marks and iteration marks", "4111\u30fc1111\u30051111\u309d1111"],
  ["modifier apostrophes and length marks", "4111\u02bc1111\u02d01111\u02bb1111"],
  ["keycaps (combining marks)", "4\ufe0f\u20e31\ufe0f\u20e31\ufe0f\u20e31\ufe0f\u20e3 1111 1111 1111"],
  ["dingbat and negative circled digits", "\u2779\u2780\u2780\u2780 \u278a\u278a\u278a\u278a \u2776\u2776\u2776\u2776 1111"],
  ["Ethiopic numerals", "\u136c\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369\u1369"],
  ["circled digits and Roman numerals", "\u2463\u2460\u2460\u2460 \u2160\u2160\u2160\u2160 1111 1111"],
];

/** The card numbers above, as digits: what a dump of every table and the log must not hold in any spelling. */
export const CARD_NUMBERS = ["4111111111111111", "5555555555554444", "378282246310005", "6304000000000000000", "4222222222222"];

// Card numbers as issuers make them: the prefixes and lengths of the schemes a Ghanaian acquirer sees.
const SCHEMES: { prefixes: string[]; lengths: number[] }[] = [
  { prefixes: ["4"], lengths: [13, 16, 19] },
  { prefixes: ["51", "52", "53", "54", "55", "2221", "2500", "2720"], lengths: [16] },
  { prefixes: ["34", "37"], lengths: [15] },
  { prefixes: ["36", "300", "305"], lengths: [14] },
  { prefixes: ["6011", "65", "644"], lengths: [16, 19] },
  { prefixes: ["3528", "3589"], lengths: [16, 19] },
  { prefixes: ["62"], lengths: [16, 17, 18, 19] },
  { prefixes: ["5061", "6500", "50", "6759"], lengths: [16, 18, 19] },
  { prefixes: ["2200", "2204"], lengths: [16] },
];

function luhnDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (passesLuhn(body + d)) return String(d);
  throw new Error("unreachable");
}

/** A Luhn-valid card number of a real scheme's prefix and length, as ASCII digits. */
export const cardNumber = fc
  .constantFrom(...SCHEMES.flatMap((scheme) => scheme.prefixes.flatMap((prefix) => scheme.lengths.map((length) => ({ prefix, length })))))
  .chain(({ prefix, length }) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - prefix.length - 1, maxLength: length - prefix.length - 1 }).map((rest) => {
      const body = prefix + rest.join("");
      return body + luhnDigit(body);
    }),
  );

const WORD_BREAKS = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u0640", "\u30fc", "\u3005", "\u02bc", "\u0301", "\ufe0f\u20e3", "\u01c3", ""];
/** A digit in one of the writings a person reads as that digit: ASCII, dingbat, negative circled, circled, Ethiopic, Arabic-Indic. */
function writeDigit(digit: number, way: number): string {
  const ways = [String(digit), String.fromCodePoint(0x660 + digit)];
  if (digit > 0)
    ways.push(
      String.fromCodePoint(0x2775 + digit),
      String.fromCodePoint(0x278a + digit - 1),
      String.fromCodePoint(0x245f + digit),
      String.fromCodePoint(0x1368 + digit),
    );
  return ways[way % ways.length]!;
}

/** The whole class of those: a card number in numerals outside \p{Nd}, with letters drawn as nothing or as punctuation between digits. */
export const numeralSpelling = fc
  .tuple(cardNumber, fc.array(fc.nat(), { minLength: 19, maxLength: 19 }), fc.array(fc.constantFrom(...WORD_BREAKS), { minLength: 18, maxLength: 18 }))
  .map(([digits, ways, gaps]) => ({ digits, text: [...digits].map((digit, i) => writeDigit(Number(digit), ways[i]!) + (gaps[i] ?? "")).join("") }));
