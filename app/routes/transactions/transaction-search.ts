// The transactions list's one search box. People search with what they have to hand: the reference or its last
// characters from a receipt, the payer's phone or its last four digits, a card's last four, the amount, or the
// merchant's name. Text that is not number-heavy (SPEC 5) is a merchant's name or a reference written in letters;
// number-heavy text is every one of the others it can be, and the list shows the payments that match any of them.
import type { TransactionFilter } from "#server/payments/transactions.db";
import { ghanaMsisdn } from "#app/lib/forms/phone";
import { isNumberHeavy, parseCedis } from "#app/lib/forms/validation";

export type TransactionSearch = Pick<TransactionFilter, "referenceTail" | "customerMsisdn" | "cardLast4" | "phoneLast4" | "amount" | "merchantSearch">;

/** What a processor's reference is made of (the Partner API's rule); other text cannot be part of one. */
const REFERENCE_TEXT = /^[A-Za-z0-9._:/-]+$/;

/** Written as money: with a currency, thousands separators or pesewas ("GHS 25", "1,250", "25.5"). */
const MONEY_ONLY = /[,.]|^GHS/i;

export function readTransactionSearch(text: string | undefined): TransactionSearch {
  const written = text?.trim() ?? "";
  const compact = written.replace(/\s+/g, "");
  if (!compact) return {};
  // "0244..." is a phone, never GHS 244 million: an amount is not written with a leading zero (but "0.50" is).
  const pesewas = /^0\d/.test(compact) ? null : parseCedis(compact);
  const amount = pesewas !== null && pesewas > 0 ? { amount: pesewas } : {};
  if (pesewas !== null && MONEY_ONLY.test(compact)) return amount;
  // The data layer reads a tail too short for its index as the whole reference.
  const reference = REFERENCE_TEXT.test(compact) ? { referenceTail: compact.toUpperCase() } : {};
  // A word with spaces is a name; one without may be a reference written in letters, whole or its tail.
  if (!isNumberHeavy(written)) return { merchantSearch: written, ...(written === compact ? reference : {}) };
  // A Ghana number written any way the forms take one (app/lib/forms/phone.ts).
  const customerMsisdn = ghanaMsisdn(compact);
  return {
    ...reference,
    ...(customerMsisdn ? { customerMsisdn } : {}),
    // Four digits are what the payer column shows of a card (•••• 4821) and of a phone (233*****1180).
    ...(/^\d{4}$/.test(compact) ? { cardLast4: compact, phoneLast4: compact } : {}),
    ...amount,
  };
}
