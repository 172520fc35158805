// Ghana phone numbers: the one rule every form (merchant, point of sale, Team
// invite) and the transactions search use to read a typed number, stored as
// 233XXXXXXXXX (what D1's CHECKs and the SMS gateway take); and the one way a
// number is shown masked.
//
// People in Ghana write the same number as 024 412 3456, 0244123456,
// 024-412-3456, (024) 412 3456, 244123456, 233244123456, +233 24 412 3456,
// +233 (0)24 412 3456, +233 0244 123456 or 00233 24 412 3456. What is refused:
// letters and other signs, a second bracket group or a "+" anywhere but first,
// a length that is no Ghana number, another country's code, and a national
// number that does not start with 2 or 5 (mobile networks) or 3 (fixed lines):
// Ghana gives out no other. SPEC section 5's "account or phone-like number"
// rule (isAccountNumber) stays the rule for account numbers; it refuses
// writings people use for phones (+233, two hyphens, spaces), so it is not this one. The form field (valibot) is
// ./phone-field, so the pages that only show or mask a number do not load valibot (decision 043).

/** The longest phone text a form takes ("+233 (0)24 412 3456" is 19). */
export const PHONE_MAX_LENGTH = 24;

/** The one message for a number that is not a Ghana phone number, on every form. */
export const PHONE_MESSAGE = "Enter a Ghana phone number, like 024 412 3456 or 233244123456.";

// Digits with spaces or hyphens between them, at most one bracket group of digits
// ("(024)", "(0)"), and a "+" only in front ("+233", "(+233)").
const WRITTEN = /^(?:\+?\d*(?:\(\d+\)\d*)?|\(\+\d+\)\d*)$/;

/** The national number's first digit: 2 and 5 are the mobile networks, 3 the fixed lines. */
const NATIONAL = /^[235]\d{8}$/;

/** The number as 233XXXXXXXXX, or null when it is not a Ghana phone number as people write one. */
export function ghanaMsisdn(typed: string): string | null {
  if (typed.length > PHONE_MAX_LENGTH) return null;
  const compact = typed.replace(/[\s-]/g, "");
  if (!compact || !WRITTEN.test(compact)) return null;
  let digits = compact.replace(/\D/g, "");
  let international = compact.includes("+");
  if (!international && digits.startsWith("00")) {
    digits = digits.slice(2);
    international = true;
  }
  let national: string;
  if (international || /^233\d{9}$/.test(digits) || /^2330\d{9}$/.test(digits)) {
    if (!digits.startsWith("233")) return null;
    national = digits.slice(3);
    // The trunk 0 written after the country code: +233 (0)24 ..., +233 024 ...
    if (national.length === 10 && national.startsWith("0")) national = national.slice(1);
  } else if (/^0\d{9}$/.test(digits)) {
    national = digits.slice(1);
  } else {
    national = digits;
  }
  return NATIONAL.test(national) ? `233${national}` : null;
}

/** 233244123456 -> 233*****3456: other people's numbers, on screen and in the audit log. */
export function maskPhone(msisdn: string): string {
  return msisdn.length > 7 ? `${msisdn.slice(0, 3)}${"*".repeat(msisdn.length - 7)}${msisdn.slice(-4)}` : "****";
}
