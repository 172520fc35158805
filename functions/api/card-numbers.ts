// PCI DSS 3.4.1: the portal never stores a full card number (PAN). A request
// with anything that looks like one is refused before it is parsed further,
// queued, stored or logged. "Looks like one": 13 to 19 digits, written together
// or in groups split by single spaces or hyphens (as card numbers are printed),
// that pass the Luhn check. A reference that is all digits can trip it (one in
// ten such numbers passes Luhn); processors are told to use references with a
// letter (docs/partner-api.md).

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

/** Whether the text holds a run of 13 to 19 digits (spaces or hyphens between groups allowed) that passes Luhn. */
export function looksLikeCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/[ -]/g, "");
    if (digits.length >= 13 && digits.length <= 19 && passesLuhn(digits)) return true;
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
