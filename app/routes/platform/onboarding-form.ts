// The onboarding form of /platform/businesses/new: its fields' rules, the same the portal's other forms use for a name,
// a TIN, a phone and an email (app/lib/forms/fields.ts, app/lib/forms/phone.ts). The logo is a file, checked by its bytes on the
// server (functions/operators/onboarding.ts); the database is checked against the Worker's bindings there too.
// The business starts with two people who can decide (a Super Administrator and an Administrator): every change it
// makes is maker-checker, and nobody decides their own request, so with one person nothing could ever be approved.
import * as v from "valibot";
import type { FoundingPerson, FoundingRole, OnboardingFields } from "#server/operators/onboarding";
import { bidiControlMessage, hasBidiControl } from "#app/lib/forms/validation";
import { businessIdentifierField, emailField, textField } from "#app/lib/forms/fields";
import { GHANA_REGIONS } from "#app/lib/forms/ghana";
import { maskPhone } from "#app/lib/forms/phone";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";

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
  "second_name",
  "second_email",
  "second_phone",
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

/** Each founding person's fields: the Super Administrator's are admin_*, the Administrator's second_*. */
export const PERSON_PREFIXES = { "Super Administrator": "admin", Administrator: "second" } as const satisfies Record<FoundingRole, string>;
type PersonPrefix = (typeof PERSON_PREFIXES)[FoundingRole];

type PersonEntries<P extends PersonPrefix> = Record<`${P}_name`, ReturnType<typeof textField>> &
  Record<`${P}_email`, ReturnType<typeof emailField>> &
  Record<`${P}_phone`, ReturnType<typeof ghanaPhoneField>>;

/** One person's three fields, the same rules and messages for both, only the role named in them. */
function personEntries<R extends FoundingRole>(role: R): PersonEntries<(typeof PERSON_PREFIXES)[R]> {
  const prefix = PERSON_PREFIXES[role];
  return {
    [`${prefix}_name`]: textField(`Enter the ${role}'s full name.`, 100, "name"),
    [`${prefix}_email`]: emailField(`Enter the ${role}'s email address.`),
    [`${prefix}_phone`]: ghanaPhoneField(`Enter the ${role}'s mobile number.`),
  } as PersonEntries<(typeof PERSON_PREFIXES)[R]>;
}

/** The person as the request keeps them (the email lower case, the number as 233XXXXXXXXX and masked for showing). */
function personOf(role: FoundingRole, form: Record<`${PersonPrefix}_${"name" | "email" | "phone"}`, string>): FoundingPerson {
  const prefix = PERSON_PREFIXES[role];
  const phone = form[`${prefix}_phone`];
  return { role, name: form[`${prefix}_name`], email: form[`${prefix}_email`], phone, phoneMasked: maskPhone(phone) };
}

export const SAME_EMAIL = "Enter an email of the Administrator's own: this one is the Super Administrator's.";
export const SAME_PHONE = "Enter a mobile number of the Administrator's own: this one is the Super Administrator's.";

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
    ...personEntries("Super Administrator"),
    ...personEntries("Administrator"),
  }),
  // Two people, not one twice: compared after the email and phone rules, so "Abena@X.com" and "abena@x.com", or
  // "024 555 0101" and "233245550101", are the same. partialCheck: said along with any other field's mistake.
  v.forward(
    v.partialCheck([["admin_email"], ["second_email"]], (form) => form.admin_email !== form.second_email, SAME_EMAIL),
    ["second_email"],
  ),
  v.forward(
    v.partialCheck([["admin_phone"], ["second_phone"]], (form) => form.admin_phone !== form.second_phone, SAME_PHONE),
    ["second_phone"],
  ),
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
    people: [personOf("Super Administrator", form), personOf("Administrator", form)],
  })),
);
