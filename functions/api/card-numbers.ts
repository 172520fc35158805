// PCI DSS 3.4.1: the portal never stores a full card number (PAN). A request
// with anything that looks like one is refused before it is parsed further,
// queued, stored or logged. "Looks like one": 13 to 19 digits that pass the Luhn
// check, written together, or in groups split by single spaces or hyphens the way
// card numbers are printed (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4). Other groupings are
// read group by group: a reference such as KFF-261121-0000487 (a date, a number:
// 13 digits that pass Luhn) is not a card number, which every tenth one was. A
// reference that is all digits can still trip it (one in ten such numbers passes
// Luhn); processors are told to use references with a letter (docs/partner-api.md).

const DIGIT_RUN = /\d(?:[ -]?\d)*/g;

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

const isCardNumber = (digits: string) => digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);

/** Groups as card numbers are printed: fours (the last may be shorter: 4-4-4-4-3), or 4-6-5 and 4-6-4. */
function printedLikeACard(groups: readonly string[]): boolean {
  const sizes = groups.map((group) => group.length);
  if (sizes[0] !== 4) return false;
  if (sizes.length === 3 && sizes[1] === 6 && (sizes[2] === 4 || sizes[2] === 5)) return true;
  return sizes.slice(0, -1).every((size) => size === 4) && sizes.at(-1)! >= 1 && sizes.at(-1)! <= 4;
}

/**
 * Whether the text holds a card number: a run of 13 to 19 digits that passes Luhn, or groups within a run of
 * digits, spaces and hyphens printed like one (anywhere in the run: "ref 12-4111-1111-1111-1111" is found).
 */
export function looksLikeCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const groups = match[0].split(/[ -]/);
    if (groups.some(isCardNumber)) return true;
    for (let from = 0; from < groups.length; from++) {
      for (let to = from + 2; to <= groups.length; to++) {
        const window = groups.slice(from, to);
        if (printedLikeACard(window) && isCardNumber(window.join(""))) return true;
      }
    }
  }
  return false;
}

/** The JSON paths (`payments[2].payer.msisdn`) of every value, or key, that looks like a card number. */
export function cardNumberPaths(value: unknown, path = ""): string[] {
  if (typeof value === "string") return looksLikeCardNumber(value) ? [path || "(body)"] : [];
  if (typeof value === "number") return Number.isFinite(value) && looksLikeCardNumber(String(Math.trunc(Math.abs(value)))) ? [path || "(body)"] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => cardNumberPaths(item, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => {
      const at = path ? `${path}.${key}` : key;
      return [...(looksLikeCardNumber(key) ? [at] : []), ...cardNumberPaths(item, at)];
    });
  }
  return [];
}
