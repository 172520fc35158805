// The transactions list's one search box: a reference, a customer's phone, or
// the last four digits of a card, told apart by their shape.
import { ghanaMsisdn } from "./phone";

export type TransactionSearch = { reference: string } | { customerMsisdn: string } | { cardLast4: string };

export function readTransactionSearch(text: string | undefined): TransactionSearch | null {
  const typed = text?.trim().replace(/\s+/g, "");
  if (!typed) return null;
  if (/^\d{4}$/.test(typed)) return { cardLast4: typed };
  // A Ghana number written any way the forms take one (app/lib/phone.ts).
  const customerMsisdn = ghanaMsisdn(typed);
  if (customerMsisdn) return { customerMsisdn };
  return { reference: typed.toUpperCase() };
}
