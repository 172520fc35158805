// Every link, redirect and form action to a screen of SPEC section 2 that is
// built from parts (ids, a tab, a filter) is built here, ids encoded, so a path
// cannot be misspelt in one place or carry an id that breaks out of its segment.
// functions/ builds none of these (it never links to a screen by id), so this
// module stays in app/.
import type { ApprovalKind } from "#server/approvals/change-kinds";

/**
 * The URL says point-of-sale where the engine says point_of_sale. Here, not with how requests read (app/routes/approvals/request-words.ts,
 * which gives them too): every page links by these, and none should load the rest of that to do so.
 */
export const KIND_SLUGS = {
  merchant: "merchant",
  point_of_sale: "point-of-sale",
  settlement_account: "settlement-account",
  employee: "employee",
  security_policy: "security-policy",
  terminal: "terminal",
} as const satisfies Record<ApprovalKind, string>;

export type KindSlug = (typeof KIND_SLUGS)[ApprovalKind];

export const SETTINGS_TABS = ["profile", "business", "team", "security", "developers", "audit"] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

const segment = (id: string) => encodeURIComponent(id);

/** `?a=1&b=2` from the given parameters (empty ones left out), or nothing. */
function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return search ? `?${search}` : "";
}

export const paths = {
  merchant: (merchantId: string) => `/merchants/${segment(merchantId)}`,
  addPointOfSale: (merchantId: string) => `${paths.merchant(merchantId)}/add-point-of-sale`,
  pointOfSale: (merchantId: string, branchId: string) => `${paths.merchant(merchantId)}/point-of-sale/${segment(branchId)}`,
  /** The fleet list, optionally filtered (decision 010: filters live in the URL). */
  terminals: (filters: { merchant?: string; silent?: "1" } = {}) => `/pos-terminals${query(filters)}`,
  /** A terminal's page; `assignMerchant` opens its assign form on that merchant's points of sale. */
  device: (deviceId: string, options: { assignMerchant?: string } = {}) => `/pos-terminals/device-details/${segment(deviceId)}${query(options)}`,
  /** A request's page: transfers, the fifth kind, have their own. */
  approval: (kind: ApprovalKind | "transfer" | "refund", id: string) =>
    `/approvals/${kind === "transfer" || kind === "refund" ? kind : KIND_SLUGS[kind]}/${segment(id)}`,
  /** The transactions list, optionally of one merchant (the list's own `merchant` filter). */
  transactions: (filters: { merchant?: string } = {}) => `/transactions${query(filters)}`,
  /** Merchant funds (balances and what was collected), optionally of one merchant. */
  merchantFunds: (filters: { merchant?: string } = {}) => `/money/merchant-funds${query(filters)}`,
  /** Settlement history, optionally of one merchant. */
  settlements: (filters: { merchant?: string } = {}) => `/money/settlement-history${query(filters)}`,
  /** One settlement's detail on the settlement history screen. */
  settlement: (settlementId: string) => `/money/settlement-history${query({ s: settlementId })}`,
  /** A payment's detail on the transactions screen, and the form that asks for its refund. */
  payment: (transactionId: number) => `/transactions?tx=${transactionId}`,
  refundPayment: (transactionId: number) => `/transactions/${transactionId}/refund`,
  /** An archived month's payments as CSV (YYYY-MM). */
  archivedMonthCsv: (month: string) => `/transactions/archive/${segment(month)}`,
  transferHistory: (merchantId: string) => `/money/merchant-accounts/transfer-history/${segment(merchantId)}`,
  /** A tab of /settings; the profile is the tab with none. */
  settings: (tab: SettingsTab = "profile") => (tab === "profile" ? "/settings" : `/settings?tab=${tab}`),
  /** The Developers tab asking to confirm rolling or revoking an API key (the confirmation opens from the URL, so it works before the script loads). */
  confirmApiKey: (confirm: "roll" | "revoke", keyId: string) => `/settings${query({ tab: "developers", confirm, key: keyId })}#confirm-key-title`,
  /** A webhook endpoint's delivery log (Settings > Developers). */
  /** The Audit tab's CSV: the whole set its filters (person, kind, action, from, to) choose. */
  auditExport: (filter: Record<string, string>) => `/settings/audit/export${query(filter)}`,
  webhookEndpointLog: (endpointId: string) => `/settings/developers/endpoints/${segment(endpointId)}`,
  /** The disputes list, optionally filtered by status. */
  disputes: (filters: { status?: string } = {}) => `/disputes${query(filters)}`,
  dispute: (disputeId: string) => `/disputes/${segment(disputeId)}`,
  /** One evidence file of a dispute, served back as an attachment. */
  disputeEvidence: (disputeId: string, evidenceId: string) => `/disputes/${segment(disputeId)}/evidence/${segment(evidenceId)}`,
};

/** The request page of a request whose kind comes from data; null for a kind with no page. */
export function approvalPath(kind: string, id: string): string | null {
  if (kind !== "transfer" && kind !== "refund" && !Object.hasOwn(KIND_SLUGS, kind)) return null;
  return paths.approval(kind as ApprovalKind | "transfer" | "refund", id);
}
