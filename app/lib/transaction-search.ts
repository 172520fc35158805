// The transactions list's one search box: a reference, a customer's phone, or
// the last four digits of a card, told apart by their shape; text that is not
// number-heavy (SPEC 5) is no reference but a merchant's name.
import { ghanaMsisdn } from "./phone";
import { isNumberHeavy } from "./validation";

export type TransactionSearch = { reference: string } | { customerMsisdn: string } | { cardLast4: string } | { merchantSearch: string };

export function readTransactionSearch(text: string | undefined): TransactionSearch | null {
  const typed = text?.trim().replace(/\s+/g, "");
  if (!typed) return null;
  if (/^\d{4}$/.test(typed)) return { cardLast4: typed };
  // A Ghana number written any way the forms take one (app/lib/phone.ts).
  const customerMsisdn = ghanaMsisdn(typed);
  if (customerMsisdn) return { customerMsisdn };
  const written = text!.trim();
  if (!isNumberHeavy(written)) return { merchantSearch: written };
  return { reference: typed.toUpperCase() };
}
