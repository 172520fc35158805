// The main navigation: its links, grouped as the side navigation shows them, and which link is the current section.
// Each link's label is its page's title (the route module's `meta`); tests/unit/route-pages.test.ts holds them equal.
export interface NavItem {
  label: string;
  to: string;
  /** Current only on its own path, not below it (an overview whose sections have links of their own). */
  exact?: boolean;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

/**
 * The approvals queue as it opens from the navigation and the dashboard: what waits for this person's decision. Here,
 * not with how requests read (app/routes/approvals/request-words.ts), so the shell that every page loads does not carry that.
 */
export const WAITING_VIEW = "waiting";
export const WAITING_FOR_ME = `/approvals?view=${WAITING_VIEW}`;

/** Every section a person navigates to. */
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

/** Where the platform staff start (the account menu links here too). */
export const PLATFORM_HOME = "/platform";

/** The platform staff's sections (decision 039), written here as the business's are; every other platform link is
 * built by platformPaths (app/lib/platform-paths.ts). */
export const PLATFORM_NAVIGATION: readonly (NavItem | NavGroup)[] = [
  { label: "Platform", to: PLATFORM_HOME, exact: true },
  { label: "Jobs", to: "/platform/jobs" },
  { label: "Queues", to: "/platform/queues" },
  { label: "Shards", to: "/platform/shards" },
  { label: "Platform Requests", to: "/platform/requests" },
  { label: "Platform keys", to: "/platform/keys" },
];

export function isNavGroup(item: NavItem | NavGroup): item is NavGroup {
  return "items" in item;
}

/** Path segments, ignoring case and any trailing slash, as route matching does. */
function segments(pathname: string): string[] {
  return pathname.toLowerCase().split("/").filter(Boolean);
}

/** Whether a nav link is the current section ("/merchants" is current on "/merchants/42"). */
export function isCurrentSection(to: string, pathname: string): boolean {
  const here = segments(pathname);
  const target = segments(to);
  if (target.length === 0) return here.length === 0;
  return target.every((part, i) => part === here[i]);
}
