// The merchant's columns that people set through requests (maker-checker), in the order its form and its CSV list
// them: the one list. Approval payloads, the merchant form's fields and the seed's requests use these names; the
// approval engine, the form, the CSV, the change history and the seed take the list from here. Pure, so the
// browser may import it (decision 014).
import type { Merchant } from "./merchants.db";

export const MERCHANT_COLUMNS = [
  "code",
  "name",
  "trading_name",
  "tin",
  "sector",
  "town",
  "region",
  "address",
  "contact_name",
  "contact_phone",
  "contact_email",
] as const;

export type MerchantColumn = (typeof MERCHANT_COLUMNS)[number];

/** Where each column is read on a merchant as the portal returns it. */
const FIELD_OF = {
  code: "code",
  name: "name",
  trading_name: "tradingName",
  tin: "tin",
  sector: "sector",
  town: "town",
  region: "region",
  address: "address",
  contact_name: "contactName",
  contact_phone: "contactPhone",
  contact_email: "contactEmail",
} as const satisfies Record<MerchantColumn, keyof Merchant>;

export function merchantColumnValue(merchant: Merchant, column: MerchantColumn): string {
  return merchant[FIELD_OF[column]];
}

/** The merchant as its columns' values: what its form starts from and what a request's changes are measured against. */
export function merchantValues(merchant: Merchant): Record<MerchantColumn, string> {
  return Object.fromEntries(MERCHANT_COLUMNS.map((column) => [column, merchantColumnValue(merchant, column)])) as Record<MerchantColumn, string>;
}
