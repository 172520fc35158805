// The merchant and settlement-account forms' rules (SPEC section 5 where it has
// one, the database's CHECKs otherwise), as valibot schemas the actions parse
// with. Field names are the approval engine's column names, so a parsed form is
// the request's `after` as it stands.
import * as v from "valibot";
import type { ChangeValues } from "#server/approvals/change-kinds";
import type { MerchantColumn } from "#server/merchants/merchant-columns";
import { GHANA_REGIONS } from "#app/lib/forms/ghana";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";
import { emailField, textField, tinField } from "#app/lib/forms/fields";
import { isAccountNumber } from "#app/lib/forms/validation";
import { BANKS, MOBILE_NETWORKS } from "./merchant-form-values";

// What the browser needs of these forms is in ./merchant-form-values (no valibot: decision 043); the rest of the
// modules keep importing it from here.
export * from "./merchant-form-values";

/**
 * The form as an object with every expected field present: a field left out of
 * the post reads as empty, so its error is the field's own ("Enter the town.").
 */
export function formFields(form: Record<string, FormDataEntryValue>, keys: readonly string[]): Record<string, FormDataEntryValue> {
  return { ...Object.fromEntries(keys.map((key) => [key, ""])), ...form };
}

/** Every field but the code, which is fixed once the merchant exists. */
const MERCHANT_CHANGEABLE = {
  name: textField("Enter the merchant's registered name.", 120, "name"),
  trading_name: textField("Enter the name the merchant trades under.", 120, "trading name"),
  tin: tinField(),
  sector: textField("Enter the sector, like Groceries.", 60, "sector"),
  town: textField("Enter the town.", 60, "town"),
  region: v.picklist(GHANA_REGIONS, "Choose the region."),
  address: textField("Enter the address.", 200, "address"),
  contact_name: textField("Enter the contact person's name.", 120, "contact name"),
  contact_phone: ghanaPhoneField("Enter the contact phone number."),
  contact_email: emailField("Enter the contact email address."),
} satisfies Record<Exclude<MerchantColumn, "code">, v.GenericSchema>;

export const MerchantCreateForm = v.object({
  code: v.pipe(
    v.string("Enter the merchant code."),
    v.trim(),
    v.toUpperCase(),
    v.nonEmpty("Enter the merchant code."),
    v.regex(/^[A-Z0-9][A-Z0-9-]{2,19}$/, "Use 3 to 20 letters, digits or hyphens, like MRC-0042."),
  ),
  ...MERCHANT_CHANGEABLE,
});
export type MerchantCreate = v.InferOutput<typeof MerchantCreateForm>;

export const MerchantUpdateForm = v.object(MERCHANT_CHANGEABLE);
export type MerchantUpdate = v.InferOutput<typeof MerchantUpdateForm>;

/**
 * One choice says both what the account is and who holds it: a network means
 * mobile money, a bank means a bank account.
 */
export const SettlementAccountForm = v.pipe(
  v.object({
    provider: v.picklist([...BANKS, ...MOBILE_NETWORKS], "Choose the bank or the mobile-money network."),
    account_number: v.pipe(
      v.string("Enter the account number."),
      v.transform((typed) => typed.replace(/\s/g, "")),
      v.nonEmpty("Enter the account number."),
      v.check((typed) => isAccountNumber(typed), "Use 9 to 12 characters: digits, optionally a hyphen and more digits (like 463-09378022)."),
    ),
    account_name: textField("Enter the name on the account.", 120, "account name"),
    is_primary: v.optional(v.picklist(["", "on", "1"], "Tick the box or leave it empty.")),
  }),
  v.transform(({ provider, account_number, account_name, is_primary }) => ({
    kind: (MOBILE_NETWORKS as readonly string[]).includes(provider) ? ("mobile_money" as const) : ("bank" as const),
    provider,
    account_number,
    account_name,
    is_primary: is_primary ? 1 : 0,
  })),
);
export type SettlementAccountValues = v.InferOutput<typeof SettlementAccountForm>;

/** What a request asks to change: the wanted values that differ from the current ones. */
export const changedOnly = (wanted: ChangeValues, current: ChangeValues): ChangeValues =>
  Object.fromEntries(Object.entries(wanted).filter(([key, value]) => current[key] !== value));
