// The transactions list's one search box: a reference, a customer's phone, or
// the last four digits of a card, told apart by their shape.
export type TransactionSearch = { reference: string } | { customerMsisdn: string } | { cardLast4: string };

export function readTransactionSearch(text: string | undefined): TransactionSearch | null {
  const typed = text?.trim().replace(/\s+/g, "");
  if (!typed) return null;
  if (/^\d{4}$/.test(typed)) return { cardLast4: typed };
  // A Ghana number as people type it: 0XXXXXXXXX, 233XXXXXXXXX or +233XXXXXXXXX.
  const phone = /^(?:\+?233|0)(\d{9})$/.exec(typed);
  if (phone) return { customerMsisdn: `233${phone[1]}` };
  return { reference: typed.toUpperCase() };
}
