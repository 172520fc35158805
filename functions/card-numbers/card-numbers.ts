// PCI DSS 3.4.1: the portal never stores a full card number (PAN). A request with anything that looks like one, in
// its path, query, headers or body, is refused before it is parsed further, queued, stored or logged (decision 031).
//
// "Looks like one": 13 to 19 digits that pass the Luhn check (13 only beginning with 4: Visa's were the only
// 13-digit card numbers), however they are written. Text is read as a person reads it:
// - Digits: every character of \p{N} whose value is one digit 0 to 9 is that digit: the decimal digits of every
//   script (Arabic-Indic ٤, Devanagari ४ ...), what NFKC writes as digits (fullwidth ４, superscripts, circled ①),
//   and the rest, from the table ./digit-values.ts (dingbat ❹ and negative circled ➍, Ethiopic ፬, Roman Ⅳ, Kaktovik
//   ...). A character worth ten or more, or a fraction, is read as NFKC writes it (⑩ "10", ½ "1⁄2") or as no digit.
// - Letters that end a run: only letters people read as letters, after NFKC: \p{L} but not a modifier letter (\p{Lm}:
//   the Arabic tatweel ـ, the prolonged-sound mark ー, iteration marks 々 ゝ, tone letters, apostrophe-like ʼ ʻ and
//   length marks ː; a modifier letter that is a small letter, ʰ ᵃ, is turned into that letter by NFKC and ends a run),
//   not a letter drawn as nothing (\p{Default_Ignorable_Code_Point}: the Hangul fillers U+115F, U+1160, U+3164,
//   U+FFA0), and not the click letters ǀ ǁ ǂ ǃ (U+01C0 to U+01C3), drawn as a bar, two bars, a cross and "!".
// - Everything else separates digit groups: spaces of every width, tabs, newlines, punctuation, dashes of every kind,
//   symbols, combining marks (a keycap 4️⃣, a vowel sign), zero-width and other format characters, unassigned and
//   private-use code points, and the letters above. Groups with nothing but separators between them make one run.
// Any run of whole consecutive groups holding 13 to 19 digits that pass Luhn is a card number: "4111.1111.1111.1111",
// "41111111-11111111", "card ٤١١١ ١١١١ ١١١١ ١١١١ declined", "4111ᅠ1111ᅠ1111ᅠ1111".
//
// Three shapes are not read as card numbers, because processors' references and ids take them and no card does:
// - a dated reference: a date (20YYMMDD, or 20YY MM DD as three groups), an optional time (HH MM, seconds, a
//   fraction) and at most one serial of up to 11 digits ("PSP-20261123-000187"), or a six-digit date YYMMDD (years
//   2000 to 2039) and a serial of up to 7 digits ("KFF-261121-0000487"). No card number begins with 20 (card
//   numbers begin with the issuer's 2221-2720, 3, 4, 5, 6 ...), and the only 13-digit cards are Visa's, which begin
//   with 4, not a year 00 to 39; every tenth such reference passed Luhn and was refused before.
// - a UUID (32 hexadecimal digits, 8-4-4-4-12): the Idempotency-Key the docs recommend, never 13 to 19 digits.
// - an RFC 3339 time, as every time field of the API is written (a nine-digit fraction and a zone made some of them
//   read as a card number).
import { DIGIT_RUNS } from "./digit-values";

/** Deeper JSON than any documented body (4 levels) by far; refused before anything walks it. */
export const MAX_JSON_DEPTH = 32;

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/** The Luhn check digit test (ISO/IEC 7812-1). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const ND = /\p{Nd}/u;
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
const zeroOf = new Map<number, number>();

/**
 * The value of a decimal digit of any script. Unicode places each script's digits 0 to 9 on consecutive code
 * points, and every stretch of consecutive Nd code points is a whole number of such tens (checked over all of
 * Unicode in functions/card-numbers/card-numbers.test.ts), so the value is the distance from the stretch's start, modulo 10.
 */
function digitValue(char: string): string {
  const code = char.codePointAt(0)!;
  let zero = zeroOf.get(code);
  if (zero === undefined) {
    let start = code;
    while (ND.test(String.fromCodePoint(start - 1))) start--;
    zero = start;
    zeroOf.set(code, zero);
  }
  return String((code - zero) % 10);
}

/** Every character of ./digit-values.ts (a code point outside \p{Nd} that is one digit) and its digit. */
const TABLE_DIGIT = new Map<number, string>();
for (let i = 0; i < DIGIT_RUNS.length; i += 3) for (let k = 0; k < DIGIT_RUNS[i + 1]!; k++) TABLE_DIGIT.set(DIGIT_RUNS[i]! + k, String(DIGIT_RUNS[i + 2]! + k));
const TABLE_DIGITS = new RegExp(`[${[...TABLE_DIGIT.keys()].map((code) => `\\u{${code.toString(16)}}`).join("")}]`, "gu");
/** What could be one: anything outside ASCII of \p{N}, so text without such a character skips the table. */
const NUMBER_BEYOND_ASCII = /(?![0-9])\p{N}/u;

/**
 * The text as a person reads its digits: first the table's characters as their digits (before NFKC, which writes a
 * Roman numeral as Latin letters), then NFKC, then every decimal digit of any script as an ASCII digit.
 */
export function normaliseDigits(text: string): string {
  const tabled = NUMBER_BEYOND_ASCII.test(text) ? text.replace(TABLE_DIGITS, (char) => TABLE_DIGIT.get(char.codePointAt(0)!)!) : text;
  return tabled.normalize("NFKC").replace(NON_ASCII_DIGIT, digitValue);
}

/** Whether one character is read as (or by NFKC written with) a digit. */
function readsAsDigit(char: string): boolean {
  return /[0-9]/.test(normaliseDigits(char));
}

/** The text with every character read as a digit written "#": its shape stays, none of its digits. */
export function maskDigits(text: string): string {
  return Array.from(text, (char) => (readsAsDigit(char) ? "#" : char)).join("");
}

const UUID = /(?<![\p{L}\p{N}])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\p{L}\p{N}])/giu;
/**
 * An RFC 3339 time ("2026-08-27T13:56:01.123456789+00:00"): the letter T splits it, and the time with a nine-digit
 * fraction and its zone holds up to 19 digits, every tenth of which pass Luhn. Its fields are held to their ranges
 * and the year begins 19 or 20 (no card number does), so a card number cannot pass for one.
 */
const RFC3339_TIME =
  /(?<![\p{L}\p{N}])(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:[.,]\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?(?![\p{N}])/gu;
/**
 * Digit groups and the letters that end a run (the top of this file): a letter people read as a letter. Anything
 * else between two groups is a separator.
 */
const PIECES = /[0-9]+|(?:(?![\p{Lm}\p{Default_Ignorable_Code_Point}\u01c0-\u01c3])\p{L})+/gu;

/** Runs of digit groups with only separators between them. */
function digitRuns(text: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const [piece] of normaliseDigits(text).replace(UUID, "x").replace(RFC3339_TIME, "x").matchAll(PIECES)) {
    if (piece.charCodeAt(0) >= 48 && piece.charCodeAt(0) <= 57) run.push(piece);
    else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

function isDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const twoDigits = (group: string | undefined, below: number) => group !== undefined && group.length === 2 && Number(group) < below;

/** A dated reference (see the top of this file): the whole run is a date, maybe a time, and at most one serial. */
export function isDatedReference(groups: readonly string[]): boolean {
  const [first, second, third] = groups;
  if (first === undefined) return false;
  if (first.length === 6 && groups.length === 2 && groups[1]!.length <= 7) {
    const year = Number(first.slice(0, 2));
    return year <= 39 && isDate(2000 + year, Number(first.slice(2, 4)), Number(first.slice(4, 6)));
  }
  let next: number;
  if (first.length === 8 && first.startsWith("20") && isDate(Number(first.slice(0, 4)), Number(first.slice(4, 6)), Number(first.slice(6)))) next = 1;
  else if (first.length === 4 && first.startsWith("20") && second?.length === 2 && third?.length === 2 && isDate(Number(first), Number(second), Number(third)))
    next = 3;
  else return false;
  if (twoDigits(groups[next], 24) && twoDigits(groups[next + 1], 60)) {
    next += 2;
    if (twoDigits(groups[next], 61)) next += 1;
  }
  // A serial (or the time's fraction of a second): one group, never long enough to be a card number by itself.
  if (groups.length === next + 1 && groups[next]!.length <= 11) next += 1;
  return next === groups.length;
}

/**
 * Only Visa issued 13-digit card numbers (they begin with 4); every other scheme's are 14 to 19 digits. So a 13-digit
 * number beginning otherwise is not one: a time in epoch milliseconds (1764067200000, an Idempotency-Key such as
 * "idem-1764067200000") was refused every tenth time.
 */
function isCardLength(digits: string): boolean {
  return digits.length > MIN_DIGITS || digits.startsWith("4");
}

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** ASCII text (NFKC leaves it as it is) with fewer than 13 digits holds none: most values of a body, at once. */
function tooFewDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= MIN_DIGITS) return false;
  }
  return ASCII_ONLY.test(text);
}

/** Whether the text holds a card number, written in any of the ways the top of this file describes. */
export function looksLikeCardNumber(text: string): boolean {
  if (tooFewDigits(text)) return false;
  for (const groups of digitRuns(text)) {
    if (isDatedReference(groups)) continue;
    for (let from = 0; from < groups.length; from++) {
      let digits = "";
      for (let to = from; to < groups.length; to++) {
        digits += groups[to]!;
        if (digits.length > MAX_DIGITS) break;
        if (digits.length >= MIN_DIGITS && isCardLength(digits) && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}

/** A key in a path, or where it was when it looks like a card number itself (the refusal never echoes one). */
export function keyStep(key: string): string {
  return looksLikeCardNumber(key) ? "(a key that looks like a card number)" : key;
}

interface Visit {
  value: unknown;
  /** The parent's visit and the step from it, so a path is written only for what is reported. */
  parent: Visit | null;
  step: string | number | null;
  depth: number;
}

/** Steps from the body's top written as a developer reads them: `payments[2].payer.msisdn`, or "(body)". */
export function jsonPathOf(steps: readonly (string | number)[]): string {
  const path = steps.reduce<string>((out, step) => (typeof step === "number" ? `${out}[${step}]` : out ? `${out}.${step}` : step), "");
  return path || "(body)";
}

function pathOf(visit: Visit): string {
  const steps: (string | number)[] = [];
  for (let at: Visit | null = visit; at && at.step !== null; at = at.parent) steps.push(at.step);
  return jsonPathOf(steps.reverse());
}

export interface BodyScan {
  /** The JSON paths (`payments[2].payer.msisdn`) of every value, or key, that looks like a card number. */
  cards: string[];
  /** Whether the body nests deeper than allowed; nothing deeper was looked at. */
  tooDeep: boolean;
}

/**
 * Walks a parsed JSON body without recursion (a body nested 100,000 levels deep must not overflow the stack) and
 * stops at `maxDepth` levels.
 */
export function scanBody(value: unknown, maxDepth = Number.POSITIVE_INFINITY): BodyScan {
  const cards: string[] = [];
  const stack: Visit[] = [{ value, parent: null, step: null, depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const item = visit.value;
    if (typeof item === "string") {
      if (looksLikeCardNumber(item)) cards.push(pathOf(visit));
    } else if (typeof item === "number") {
      if (Number.isFinite(item) && looksLikeCardNumber(String(Math.trunc(Math.abs(item))))) cards.push(pathOf(visit));
    } else if (item && typeof item === "object") {
      if (visit.depth >= maxDepth) return { cards, tooDeep: true };
      const children: Visit[] = Array.isArray(item)
        ? (item as unknown[]).map((child, i) => ({ value: child, parent: visit, step: i, depth: visit.depth + 1 }))
        : Object.entries(item).map(([key, child]) => {
            const at: Visit = { value: child, parent: visit, step: keyStep(key), depth: visit.depth + 1 };
            if (looksLikeCardNumber(key)) cards.push(pathOf(at));
            return at;
          });
      // Reversed onto the stack so paths are reported in the body's order.
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return { cards, tooDeep: false };
}

/** The JSON paths of every value, or key, that looks like a card number, at any depth. */
export function cardNumberPaths(value: unknown): string[] {
  return scanBody(value).cards;
}

/**
 * Headers the portal neither stores nor logs and the client does not choose: the API key (hashed, compared, never
 * kept) and the addresses and trace ids Cloudflare adds (an IPv6 address's groups are digits and colons, and every
 * tenth one would read as a card number). Every other header is looked at, Idempotency-Key and User-Agent included.
 */
const UNREAD_HEADERS = new Set([
  "authorization",
  "cf-connecting-ip",
  "cf-connecting-ipv6",
  "cf-ipcountry",
  "cf-ray",
  "cf-visitor",
  "cf-worker",
  "cdn-loop",
  "true-client-ip",
  "x-forwarded-for",
  "x-real-ip",
]);

function decoded(text: string): string {
  // Decoded until it stops changing (at most three times): %2520 is a space encoded twice.
  let out = text;
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(out);
      if (next === out) break;
      out = next;
    } catch {
      break;
    }
  }
  return out;
}

/**
 * Where, outside the body, the request holds what looks like a card number: "URL path", "query parameter q",
 * "header Idempotency-Key". A name that is itself a card number is not echoed.
 */
/**
 * A multipart Content-Type without its boundary: the boundary is framing the client's library picks at random (Python's
 * is 32 hex digits, which hold a Luhn-passing run now and then), never stored or logged, so it is not scanned.
 */
function withoutBoundary(contentType: string): string {
  return contentType.replace(/;\s*boundary=("[^"]*"|[^;]*)/gi, "");
}

export function cardNumberPlaces(request: Request): string[] {
  const url = new URL(request.url);
  const places: string[] = [];
  if (looksLikeCardNumber(decoded(url.pathname))) places.push("URL path");
  let index = 0;
  for (const [name, value] of url.searchParams) {
    index += 1;
    const nameIsCard = looksLikeCardNumber(name);
    if (nameIsCard || looksLikeCardNumber(value)) places.push(nameIsCard ? `query parameter ${index} (its name)` : `query parameter ${name}`);
  }
  // What URLSearchParams does not hand out (a lone "%", text after "#" is never sent).
  if (places.every((place) => !place.startsWith("query")) && looksLikeCardNumber(decoded(url.search))) places.push("query string");
  for (const [name, value] of request.headers) {
    if (UNREAD_HEADERS.has(name)) continue;
    if (looksLikeCardNumber(name)) places.push("a header's name");
    else if (looksLikeCardNumber(name === "content-type" ? withoutBoundary(value) : value)) places.push(`header ${name}`);
  }
  return places;
}

/** Text for a log line: a path (or message) holding a card number keeps its shape but none of its digits. */
export function withoutCardNumbers(text: string): string {
  return looksLikeCardNumber(decoded(text)) ? maskDigits(decoded(text)) : text;
}
