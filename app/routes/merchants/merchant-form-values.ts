// The values of the merchant and settlement-account forms that the browser needs too (the choices they offer, what a
// refused form shows): no valibot here, so a page that only shows these forms does not load it (decision 043). The
// schemas the actions parse are in ./merchant-forms, which re-exports this module.
import type { ChangeValues } from "#server/approvals/change-kinds";
import type { SettlementAccount } from "#server/settlement/settlement-accounts.db";

export type FieldErrors = Record<string, string>;

export const SENT_FOR_APPROVAL = "Sent for approval: another person must approve it before it takes effect.";

export const ACCOUNT_FIELDS = ["provider", "account_number", "account_name"] as const;

/** The typed values, kept so a refused form comes back as it was sent (strings only, and short). */
export function typedValues(form: Record<string, FormDataEntryValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).flatMap(([key, value]) => (typeof value === "string" ? [[key, value.slice(0, 300)]] : [])));
}

export const MOBILE_NETWORKS = ["MTN", "Telecel", "AirtelTigo"] as const;

// The banks merchants are paid out to (the seed's list, which the form offers).
export const BANKS = [
  "Absa Bank Ghana",
  "Access Bank Ghana",
  "Agricultural Development Bank",
  "CalBank",
  "Consolidated Bank Ghana",
  "Ecobank Ghana",
  "Fidelity Bank Ghana",
  "GCB Bank",
  "Republic Bank Ghana",
  "Stanbic Bank Ghana",
  "Standard Chartered Bank Ghana",
  "Zenith Bank Ghana",
] as const;

export function accountValues(a: SettlementAccount): ChangeValues {
  return {
    kind: a.kind,
    provider: a.provider,
    account_number: a.accountNumber,
    account_name: a.accountName,
    is_primary: a.isPrimary ? 1 : 0,
  };
}
