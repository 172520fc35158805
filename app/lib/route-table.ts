// The route table of SPEC.md section 2: one place that knows each screen's
// document title and layout, so titles, the shell and the navigation agree.
// A screen's route module is added to app/routes.ts when it is built; until
// then its path is unknown and shows the 404 page (whatever this table says).

export const APP_NAME = "Partners Portal";
export const NOT_FOUND_TITLE = "Page Not Found";
export const SERVER_ERROR_TITLE = "Internal Server Error";

export type Layout = "standard" | "default";

export interface RouteEntry {
  /** Path pattern; ":name" matches one segment. */
  pattern: string;
  /** Document title; null where SPEC gives none (the app name is used). */
  title: string | null;
  layout: Layout;
}

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { pattern: "/", title: "Dashboard", layout: "default" },
  { pattern: "/login", title: "Login", layout: "standard" },
  { pattern: "/login-option", title: null, layout: "standard" },
  { pattern: "/authenticate", title: "Authenticate", layout: "standard" },
  { pattern: "/authenticate/verify", title: "Authenticate", layout: "standard" },
  { pattern: "/select-business", title: "Select Business", layout: "standard" },
  { pattern: "/approvals", title: "Approvals", layout: "default" },
  { pattern: "/approvals/employee/:id", title: "Employee Request", layout: "default" },
  { pattern: "/approvals/merchant/:id", title: "Merchant Request", layout: "default" },
  { pattern: "/approvals/point-of-sale/:id", title: "Point of Sale Request", layout: "default" },
  { pattern: "/approvals/settlement-account/:id", title: "Settlement Account Request", layout: "default" },
  { pattern: "/merchants", title: "Merchants", layout: "default" },
  { pattern: "/merchants/add-merchant", title: "Add Merchant", layout: "default" },
  { pattern: "/merchants/:merchantId", title: "Manage Merchant", layout: "default" },
  { pattern: "/merchants/:merchantId/point-of-sale/:branchId", title: "Point of Sale", layout: "default" },
  { pattern: "/money/merchant-accounts", title: "Merchant Accounts", layout: "default" },
  { pattern: "/money/merchant-accounts/transfer-history/:merchantId", title: "Transfer History", layout: "default" },
  { pattern: "/money/merchant-funds", title: "Merchant Funds", layout: "default" },
  { pattern: "/money/settlement-history", title: "Settlement History", layout: "default" },
  { pattern: "/pos-terminals", title: "POS Terminals", layout: "default" },
  { pattern: "/pos-terminals/device-details/:deviceId", title: null, layout: "default" },
  { pattern: "/reports", title: "Reports", layout: "default" },
  { pattern: "/settings", title: "Settings", layout: "default" },
  { pattern: "/transactions", title: "Transactions", layout: "default" },
];

/** Pages of ours that SPEC does not list: the sign-in popup's landing page (the OpenID redirect URI). */
export const SUPPORTING_ROUTES: readonly RouteEntry[] = [
  { pattern: "/auth/oidc/:provider/callback", title: "Login", layout: "standard" },
  // The fifth approval kind (transfers), beside SPEC's four.
  { pattern: "/approvals/transfer/:id", title: "Transfer Request", layout: "default" },
  // Refunds: asked from a payment, the sixth approval kind.
  { pattern: "/transactions/:transactionId/refund", title: "Refund Payment", layout: "default" },
  { pattern: "/approvals/refund/:id", title: "Refund Request", layout: "default" },
  // The Partner API's reference, linked from Settings → Developers.
  { pattern: "/developers/api", title: "API Reference", layout: "default" },
  // A webhook endpoint's delivery log (Settings > Developers).
  { pattern: "/settings/developers/endpoints/:endpointId", title: "Delivery Log", layout: "default" },
  // Disputes: the list under Money, and one dispute's page.
  { pattern: "/disputes", title: "Disputes", layout: "default" },
  { pattern: "/disputes/:disputeId", title: "Dispute", layout: "default" },
];

/** Path segments, ignoring case and any trailing slash, as route matching does. */
function segments(pathname: string): string[] {
  return pathname.toLowerCase().split("/").filter(Boolean);
}

function matches(pattern: string, path: string[]): boolean {
  const want = segments(pattern);
  return want.length === path.length && want.every((part, i) => part.startsWith(":") || part === path[i]);
}

/** The table entry for a pathname; a literal pattern wins over one with params. */
export function matchRouteEntry(pathname: string): RouteEntry | undefined {
  const path = segments(pathname);
  const found = ROUTE_TABLE.filter((entry) => matches(entry.pattern, path));
  return found.find((entry) => !entry.pattern.includes(":")) ?? found[0] ?? SUPPORTING_ROUTES.find((entry) => matches(entry.pattern, path));
}

export function layoutFor(pathname: string): Layout {
  return matchRouteEntry(pathname)?.layout ?? "default";
}

export function documentTitle(pathname: string): string {
  return matchRouteEntry(pathname)?.title ?? APP_NAME;
}

export interface NavItem {
  label: string;
  to: string;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** Every section of the route table that a person navigates to. */
export const NAVIGATION: readonly (NavItem | NavGroup)[] = [
  { label: "Dashboard", to: "/" },
  { label: "Approvals", to: "/approvals" },
  { label: "Merchants", to: "/merchants" },
  { label: "POS Terminals", to: "/pos-terminals" },
  {
    label: "Money",
    items: [
      { label: "Merchant Accounts", to: "/money/merchant-accounts" },
      { label: "Merchant Funds", to: "/money/merchant-funds" },
      { label: "Settlement History", to: "/money/settlement-history" },
      { label: "Disputes", to: "/disputes" },
    ],
  },
  { label: "Transactions", to: "/transactions" },
  { label: "Reports", to: "/reports" },
  { label: "Settings", to: "/settings" },
];

export function isNavGroup(item: NavItem | NavGroup): item is NavGroup {
  return "items" in item;
}

/** Whether a nav link is the current section ("/merchants" is current on "/merchants/42"). */
export function isCurrentSection(to: string, pathname: string): boolean {
  const here = segments(pathname);
  const target = segments(to);
  if (target.length === 0) return here.length === 0;
  return target.every((part, i) => part === here[i]);
}
