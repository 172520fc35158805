// Form fields more than one form reads the same way (decision 030: one normaliser at the door): a line of text, the
// Ghana TIN (a merchant's, and a business's identifier when it is one), a business identifier, and an email address.
import * as v from "valibot";
import { bidiControlMessage, hasBidiControl, isValidEmail, NARRATION_MAX } from "./validation";

/** GRA's Taxpayer Identification Number: P (person), C (company), G (government) or Q (other) and 10 digits. */
export const GHANA_TIN = /^[PCGQ]\d{10}$/;

/**
 * The Registrar-General's (Office of the Registrar of Companies') registration number: two letters for the kind of
 * entity (CS a company limited by shares, CG by guarantee, BN a business name...) and nine digits, as printed on its
 * certificate: CS160152013. SPEC gives no rule; this is the number's published form.
 */
export const GHANA_REGISTRATION_NUMBER = /^[A-Z]{2}\d{9}$/;

/** What was typed, the way both numbers are compared: no spaces or hyphens, capitals. */
const compact = (typed: string) => typed.replace(/[\s-]/g, "").toUpperCase();

/** A name or a line of text: trimmed, required, at most `max` characters, no direction controls (any script, emoji too). */
export function textField(missing: string, max: number, label: string) {
  return v.pipe(
    v.string(missing),
    v.trim(),
    v.nonEmpty(missing),
    v.maxLength(max, `Keep the ${label} to ${max} characters or fewer.`),
    v.check((typed) => !hasBidiControl(typed), bidiControlMessage(label)),
  );
}

/**
 * An optional one-line narration (a transfer's): trimmed, empty is none (null), at most NARRATION_MAX characters, printable
 * (no control characters: a tab or a line break would break the rail's statement line and the CSV's row) and no direction
 * controls; every script and emoji pass (the zero-width joiner of an emoji sequence is a format character, not a control).
 */
export function narrationField() {
  return v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.maxLength(NARRATION_MAX, `Keep the narration to ${NARRATION_MAX} characters or fewer.`),
    v.check((typed) => !/\p{Cc}/u.test(typed), "The narration holds a control character (a tab or a line break). Type it on one line."),
    v.check((typed) => !hasBidiControl(typed), bidiControlMessage("narration")),
    v.transform((typed) => (typed === "" ? null : typed)),
  );
}

/** The merchant's TIN field (its messages are the merchant form's). */
export function tinField() {
  return v.pipe(
    v.string("Enter the TIN."),
    v.trim(),
    v.toUpperCase(),
    v.nonEmpty("Enter the TIN."),
    v.regex(GHANA_TIN, "Enter the Ghana TIN: P, C, G or Q and 10 digits, like C0008473783."),
  );
}

/** A business's identifier: its registration number or its TIN, stored compact and in capitals. */
export function businessIdentifierField() {
  const missing = "Enter the business's registration number or TIN.";
  return v.pipe(
    v.string(missing),
    v.trim(),
    v.nonEmpty(missing),
    v.transform(compact),
    v.check(
      (typed) => GHANA_TIN.test(typed) || GHANA_REGISTRATION_NUMBER.test(typed),
      "Enter the registration number (two letters and 9 digits, like CS160152013) or the TIN (P, C, G or Q and 10 digits, like C0008473783).",
    ),
  );
}

/** An email address: SPEC section 5's pattern on the trimmed value, stored in lower case as the users table keeps it. */
export function emailField(missing: string) {
  return v.pipe(
    v.string(missing),
    v.trim(),
    v.nonEmpty(missing),
    v.check((typed) => isValidEmail(typed), "Enter a valid email address, like name@company.com."),
    v.maxLength(254, "Keep the email address to 254 characters or fewer."),
    v.transform((typed) => typed.toLowerCase()),
  );
}
