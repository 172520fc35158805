// How approval requests read to a person: the URL's kind words, the kinds'
// names, column labels and values as the screens show them. Pure, so the
// queue, the request page and their tests agree.
import type { ApprovalAction, ApprovalKind, ChangeValues, RequestKind } from "#server/approvals/change-kinds";
import { formatPathLike, networkLabel, replaceBrandWords } from "#app/lib/format";
import { KIND_SLUGS } from "#app/lib/paths";

export { KIND_SLUGS, type KindSlug } from "#app/lib/paths";

export const KIND_BY_SLUG: Record<string, ApprovalKind | undefined> = Object.fromEntries(
  Object.entries(KIND_SLUGS).map(([kind, slug]) => [slug, kind as ApprovalKind]),
);

/** The queue's ?kind= words: the change kinds' slugs, and the requests that move money by their own names. */
export const QUEUE_KIND_BY_SLUG: Record<string, RequestKind | undefined> = { ...KIND_BY_SLUG, transfer: "transfer", refund: "refund" };

const KIND_NAMES: Record<string, string> = {
  merchant: "Merchant",
  point_of_sale: "Point of sale",
  settlement_account: "Settlement account",
  employee: "Employee",
  security_policy: "Security policy",
  terminal: "Terminal",
  transfer: "Transfer",
  refund: "Refund",
};

export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind;
}

export const ACTION_NAMES: Record<ApprovalAction, string> = { create: "Create", update: "Update", deactivate: "Deactivate" };

const COLUMN_LABELS: Record<string, string> = {
  code: "Merchant code",
  name: "Name",
  trading_name: "Trading name",
  tin: "TIN",
  sector: "Sector",
  town: "Town",
  region: "Region",
  address: "Address",
  contact_name: "Contact person",
  contact_phone: "Contact phone",
  contact_email: "Contact email",
  merchant_id: "Merchant",
  point_of_sale_id: "Point of sale",
  serial: "Serial number",
  model: "Model",
  kind: "Account type",
  provider: "Bank or network",
  account_number: "Account number",
  account_name: "Account name",
  is_primary: "Primary account",
  email: "Email",
  gender: "Gender",
  phone: "Phone",
  role: "Role",
  status: "Status",
  decisions_need_passkey: "Passkeys for every decision",
};

export function columnLabel(column: string): string {
  return COLUMN_LABELS[column] ?? column.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

const VALUE_NAMES: Record<string, Record<string, string>> = {
  kind: { bank: "Bank", mobile_money: "Mobile money" },
  is_primary: { "1": "Yes", "0": "No" },
  gender: { female: "Female", male: "Male", unspecified: "Not given" },
  status: { active: "Active", inactive: "Inactive", deactivated: "Deactivated", invited: "Invited", in_stock: "In stock", assigned: "Assigned" },
  decisions_need_passkey: { "1": "Required", "0": "Not required" },
};

/**
 * A stored value as a person reads it, as the lists show it: merchant and point of sale ids read as their names, a
 * sector by SPEC 5's path rule, and every text with SPEC 9's brand word replaced.
 */
export function displayValue(
  column: string,
  value: ChangeValues[string] | undefined,
  merchantName: string | null,
  pointOfSaleName: string | null = null,
): string {
  if (value === undefined || value === null || value === "") return "N/A";
  if (column === "merchant_id") return replaceBrandWords(merchantName ?? String(value));
  if (column === "point_of_sale_id") return replaceBrandWords(pointOfSaleName ?? String(value));
  if (column === "provider" || column === "network") return networkLabel(String(value));
  if (column === "sector") return replaceBrandWords(formatPathLike(String(value)));
  return replaceBrandWords(VALUE_NAMES[column]?.[String(value)] ?? String(value));
}
