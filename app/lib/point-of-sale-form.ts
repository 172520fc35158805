// The point-of-sale form (add, and edit through approval): one schema, so the
// two screens accept and refuse the same things. The phone is stored as
// 233XXXXXXXXX; people type it as 024 412 3456, +233 24 412 3456 or 233244123456.
import * as v from "valibot";
import { GHANA_REGIONS } from "./ghana";
import { isAccountNumber } from "./validation";

/** 0244123456, +233 24 412 3456, 233-244-123456 -> 233244123456; null when it is not a Ghana mobile number. */
export function normaliseGhanaPhone(text: string): string | null {
  const compact = text.replace(/[\s()]/g, "").replace(/^\+/, "");
  // The SPEC's phone-like rule first: digits, at most one hyphen, 9 to 12 characters.
  if (!isAccountNumber(compact)) return null;
  const digits = compact.replace("-", "");
  if (/^0\d{9}$/.test(digits)) return `233${digits.slice(1)}`;
  if (/^233\d{9}$/.test(digits)) return digits;
  return null;
}

const text = (label: string, max: number) =>
  v.pipe(v.string(`Enter the ${label}.`), v.trim(), v.nonEmpty(`Enter the ${label}.`), v.maxLength(max, `Keep the ${label} under ${max} characters.`));

export const PointOfSaleFields = v.object({
  name: text("name", 80),
  town: text("town", 60),
  region: v.picklist(GHANA_REGIONS, "Choose a region."),
  address: text("address", 200),
  contactPhone: v.pipe(
    v.string("Enter a phone number."),
    v.trim(),
    v.nonEmpty("Enter a phone number."),
    v.transform((value) => normaliseGhanaPhone(value) ?? ""),
    v.nonEmpty("Enter a Ghana phone number, like 024 412 3456 or 233244123456."),
  ),
});
export type PointOfSaleInput = v.InferOutput<typeof PointOfSaleFields>;
export type PointOfSaleField = keyof PointOfSaleInput;
export const POINT_OF_SALE_FIELDS: readonly PointOfSaleField[] = ["name", "town", "region", "address", "contactPhone"];

/** The form's values as typed (kept on a 400), and its errors by field. */
export function readPointOfSaleForm(values: Record<string, unknown>) {
  const typed = Object.fromEntries(POINT_OF_SALE_FIELDS.map((field) => [field, typeof values[field] === "string" ? (values[field] as string) : ""])) as Record<PointOfSaleField, string>;
  const parsed = v.safeParse(PointOfSaleFields, typed);
  if (parsed.success) return { ok: true as const, output: parsed.output, typed };
  const errors: Partial<Record<PointOfSaleField, string>> = {};
  for (const issue of parsed.issues) {
    const key = v.getDotPath(issue) as PointOfSaleField | null;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false as const, errors, typed };
}

/** The approval payload's column names. */
export function pointOfSaleColumns(input: PointOfSaleInput) {
  return { name: input.name, town: input.town, region: input.region, address: input.address, contact_phone: input.contactPhone };
}
