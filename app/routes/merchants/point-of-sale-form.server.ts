// The point-of-sale form (add, and edit through approval): one schema, so the
// two screens accept and refuse the same things. The phone follows the one
// Ghana rule (app/lib/forms/phone.ts) and is stored as 233XXXXXXXXX.
import { formErrors } from "#server/forms";
import * as v from "valibot";
import { GHANA_REGIONS } from "#app/lib/forms/ghana";
import { ghanaPhoneField } from "#app/lib/forms/phone-field";
import { bidiControlMessage, hasBidiControl } from "#app/lib/forms/validation";

const text = (label: string, max: number) =>
  v.pipe(
    v.string(`Enter the ${label}.`),
    v.trim(),
    v.nonEmpty(`Enter the ${label}.`),
    v.maxLength(max, `Keep the ${label} under ${max} characters.`),
    v.check((typed) => !hasBidiControl(typed), bidiControlMessage(label)),
  );

export const PointOfSaleFields = v.object({
  name: text("name", 80),
  town: text("town", 60),
  region: v.picklist(GHANA_REGIONS, "Choose a region."),
  address: text("address", 200),
  contactPhone: ghanaPhoneField("Enter a phone number."),
});
export type PointOfSaleInput = v.InferOutput<typeof PointOfSaleFields>;
export type PointOfSaleField = keyof PointOfSaleInput;
export const POINT_OF_SALE_FIELDS: readonly PointOfSaleField[] = ["name", "town", "region", "address", "contactPhone"];

/** The form's values as typed (kept on a 400), and its errors by field. */
export function readPointOfSaleForm(values: Record<string, unknown>) {
  const typed = Object.fromEntries(POINT_OF_SALE_FIELDS.map((field) => [field, typeof values[field] === "string" ? values[field] : ""])) as Record<
    PointOfSaleField,
    string
  >;
  const parsed = v.safeParse(PointOfSaleFields, typed);
  if (parsed.success) return { ok: true as const, output: parsed.output, typed };
  return { ok: false as const, errors: formErrors(parsed.issues) as Partial<Record<PointOfSaleField, string>>, typed };
}

/** The approval payload's column names. */
export function pointOfSaleColumns(input: PointOfSaleInput) {
  return { name: input.name, town: input.town, region: input.region, address: input.address, contact_phone: input.contactPhone };
}
