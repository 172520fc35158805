// Phones people type (0244 123 456, 244123456, 233244123456) to the one form
// D1 stores and one-time codes go to: 233XXXXXXXXX.
import { isAccountNumber } from "./validation";

/**
 * The Ghana MSISDN for a typed number, or null. The typed number must first
 * pass SPEC section 5's phone-like rule (digits, an optional hyphen, 9 to 12
 * characters); spaces are dropped before the check, as people group digits.
 */
export function ghanaMsisdn(typed: string): string | null {
  const compact = typed.replace(/\s+/g, "");
  if (!isAccountNumber(compact)) return null;
  const digits = compact.replace("-", "");
  if (/^233\d{9}$/.test(digits)) return digits;
  if (/^0\d{9}$/.test(digits)) return `233${digits.slice(1)}`;
  if (/^[1-9]\d{8}$/.test(digits)) return `233${digits}`;
  return null;
}
