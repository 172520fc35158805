// The onboarding form of /platform/businesses/new: its fields' rules, the same the portal's other forms use for a name,
// a TIN, a phone and an email (app/lib/fields.ts, app/lib/phone.ts). The logo is a file, checked by its bytes on the
// server (functions/operators/onboarding.ts); the database is checked against the Worker's bindings there too.
import * as v from "valibot";
import type { OnboardingFields } from "#server/operators/onboarding";
import { bidiControlMessage, hasBidiControl } from "./validation";
import { businessIdentifierField, emailField, textField } from "./fields";
import { GHANA_REGIONS } from "./ghana";
import { ghanaPhoneField, maskPhone } from "./phone";

export const ONBOARDING_FIELDS = [
  "name",
  "trading_name",
  "identifier",
  "sector",
  "town",
  "region",
  "contact_number",
  "contact_email",
  "shard",
  "admin_name",
  "admin_email",
  "admin_phone",
] as const;
export type OnboardingField = (typeof ONBOARDING_FIELDS)[number];

/** The database choice's value for "the one with the fewest businesses". */
export const FEWEST = "fewest";

const optionalName = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(120, "Keep the trading name to 120 characters or fewer."),
  v.check((typed) => !hasBidiControl(typed), bidiControlMessage("trading name")),
  v.transform((typed) => (typed === "" ? null : typed)),
);

export const OnboardingForm = v.pipe(
  v.object({
    name: textField("Enter the business's legal (registered) name.", 120, "legal name"),
    trading_name: optionalName,
    identifier: businessIdentifierField(),
    sector: textField("Enter the sector, like Retail.", 60, "sector"),
    town: textField("Enter the town.", 60, "town"),
    region: v.picklist(GHANA_REGIONS, "Choose the region."),
    contact_number: ghanaPhoneField("Enter the business's contact number."),
    contact_email: emailField("Enter the business's contact email address."),
    shard: v.pipe(v.string("Choose a database."), v.trim(), v.regex(/^(fewest|SHARD_[A-Z0-9_]+)$/, "Choose one of the databases listed.")),
    admin_name: textField("Enter the Super Administrator's full name.", 100, "name"),
    admin_email: emailField("Enter the Super Administrator's email address."),
    admin_phone: ghanaPhoneField("Enter the Super Administrator's mobile number."),
  }),
  v.transform((form): OnboardingFields => ({
    name: form.name,
    // A trading name the same as the legal name says nothing more.
    tradingName: form.trading_name === form.name ? null : form.trading_name,
    identifier: form.identifier,
    sector: form.sector,
    town: form.town,
    region: form.region,
    contactNumber: form.contact_number,
    contactEmail: form.contact_email,
    shard: form.shard === FEWEST ? null : form.shard,
    admin: { name: form.admin_name, email: form.admin_email, phone: form.admin_phone, phoneMasked: maskPhone(form.admin_phone) },
  })),
);
