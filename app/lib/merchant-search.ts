// The merchant search boxes (merchants, merchant funds, merchant accounts,
// settlement history) take a name or a number. A number-heavy query (SPEC 5:
// more digits than letters) is a code, TIN or phone number: matched on those,
// however it is spaced ("MRC 0012", "024 412 3456"), and never on names.
import { ghanaMsisdn } from "#app/lib/forms/phone";
import { isNumberHeavy } from "#app/lib/forms/validation";

/** The URL parameter of a merchant finder (a typed name or code narrowing a list of merchants to choose from). */
export const MERCHANT_FINDER_PARAM = "mq";

/** What the data layer's queries take (MerchantQuery's search and number): one of them, or neither. */
export type MerchantSearch = { search?: string; number?: { plain: string; phone: string | null } };

export function readMerchantSearch(text: string | null | undefined): MerchantSearch {
  const typed = text?.trim();
  if (!typed) return {};
  if (!isNumberHeavy(typed)) return { search: typed };
  // Codes are stored MRC-0012 and matched without their hyphens: "MRC 0012", "mrc0012" and "0012" find it.
  const plain = typed.toUpperCase().replace(/[\s-]+/g, "");
  const digits = typed.replace(/\D/g, "");
  // Phones are stored 233XXXXXXXXX; a local 0XX... number is its national part.
  const phone = ghanaMsisdn(typed) ?? (digits.length >= 3 ? digits.replace(/^0/, "") : null);
  return { number: { plain, phone } };
}
