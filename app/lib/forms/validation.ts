// Input rules of SPEC.md section 5. Pure and isomorphic: the server's valibot
// schemas and the forms' inline hints call the same functions.

/** Empty means undefined, null or an empty string (whitespace is not empty). */
export function isEmpty(value: unknown): value is undefined | null | "" {
  return value === undefined || value === null || value === "";
}

// Local part, @, domain, a dot, and a suffix of at least two letters.
const EMAIL_PATTERN = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** The trimmed value is a plausible email address. */
export function isValidEmail(value: string | null | undefined): boolean {
  if (isEmpty(value)) return false;
  return EMAIL_PATTERN.test(value.trim());
}

const ACCOUNT_NUMBER_PATTERN = /^\d+(?:-\d+)?$/;

/**
 * An account or phone-like number: digits, optionally a hyphen and more digits,
 * 9 to 12 characters in all (the hyphen counts).
 */
export function isAccountNumber(value: string | null | undefined): boolean {
  if (isEmpty(value)) return false;
  return value.length >= 9 && value.length <= 12 && ACCOUNT_NUMBER_PATTERN.test(value);
}

/** A text is number-heavy when it has more digits than letters. */
export function isNumberHeavy(text: string | null | undefined): boolean {
  if (isEmpty(text)) return false;
  const digits = text.match(/\p{Nd}/gu)?.length ?? 0;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return digits > letters;
}

/** Parses "1,234.5" or 1234.5 to a number; NaN when it is not one. */
export function parseLooseNumber(value: string | number | null | undefined): number {
  if (typeof value === "number") return value;
  if (isEmpty(value)) return Number.NaN;
  const stripped = value.replace(/,/g, "").trim();
  return stripped === "" ? Number.NaN : Number(stripped);
}

/**
 * Whether a value, with its thousands commas stripped, is above a limit.
 * A value that is not a number never exceeds (it fails other checks instead).
 */
export function exceedsLimit(value: string | number | null | undefined, limit: number): boolean {
  const n = parseLooseNumber(value);
  return Number.isFinite(n) && n > limit;
}

/**
 * A calendar day typed as YYYY-MM-DD that exists ("2026-02-30" does not; a
 * lenient parser would roll it over into March).
 */
export function isCalendarDay(value: string | null | undefined): boolean {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 2000 && year <= 2100;
}

/**
 * Cedis as people type them ("1,250", "1250.5", "0.75") to integer pesewas;
 * null when it is not an amount (more than two decimals, letters, misplaced commas).
 */
export function parseCedis(text: string | null | undefined): number | null {
  const typed = text?.trim().replace(/^GHS\s*/i, "") ?? "";
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(typed)) return null;
  const [whole = "0", fraction = ""] = typed.replace(/,/g, "").split(".");
  const pesewas = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(pesewas) ? pesewas : null;
}

/**
 * How long a transfer's narration may be: what a bank statement line and the rails' narration fields take. Here, not
 * beside narrationField (fields.ts), so the transfer form's limit reaches the browser without valibot.
 */
export const NARRATION_MAX = 100;

// The name rule against direction controls lives beside the server code that also needs it (evidence file names).
export { bidiControlMessage, hasBidiControl } from "#server/plumbing/text-direction";
