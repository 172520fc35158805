// Where a request's page is: the one path the server builds to a screen (a notice links to its request, decision
// 053), and app/lib/paths.ts builds the portal's links to requests from the same. Pure, shared with the browser.
import type { ApprovalKind } from "./change-kinds";

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

/** A request's page: transfers and refunds, the money requests, have their own. */
export function requestPath(kind: ApprovalKind | "transfer" | "refund", id: string): string {
  return `/approvals/${kind === "transfer" || kind === "refund" ? kind : KIND_SLUGS[kind]}/${encodeURIComponent(id)}`;
}

/** The request page of a request whose kind comes from data; null for a kind with no page. */
export function approvalPath(kind: string, id: string): string | null {
  if (kind !== "transfer" && kind !== "refund" && !Object.hasOwn(KIND_SLUGS, kind)) return null;
  return requestPath(kind as ApprovalKind | "transfer" | "refund", id);
}
