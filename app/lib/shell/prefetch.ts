// SPEC section 7: "The first payload prefetch happens after 1 second and is skipped
// on a very slow connection." Pure decisions, so the shell only renders what they say.
import { can, type Permission, type Role } from "#server/permissions";
import { isCurrentSection } from "./navigation";

/** SPEC section 7's wait after the page loads. */
export const FIRST_PREFETCH_DELAY_MS = 1000;

/** What the browser's Network Information API (navigator.connection) tells, where it exists. */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

/** Chromium's names for a very slow link: the data a prefetch spends would slow what the person asked for. */
const VERY_SLOW = new Set(["slow-2g", "2g"]);

/**
 * Whether to prefetch at all. A person who asked to save data, or who is on a very
 * slow link, is not sent pages they may never open; a browser that says nothing
 * (Safari, Firefox) is taken to be on an ordinary connection.
 */
export function shouldPrefetch(connection: ConnectionInfo | null | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return !VERY_SLOW.has(String(connection.effectiveType ?? "").toLowerCase());
}

/** What a role must hold to open each main navigation section (the sections' loaders ask the same). */
const SECTION_PERMISSION: Readonly<Record<string, Permission | null>> = {
  "/": "view:dashboard",
  "/approvals": "view:approval",
  "/merchants": "view:merchant",
  "/pos-terminals": "view:terminal",
  "/money/merchant-accounts": "view:balance",
  "/money/merchant-funds": "view:balance",
  "/money/settlement-history": "view:settlement",
  "/disputes": "view:dispute",
  "/transactions": "view:transaction",
  "/reports": "view:report",
  // Every member opens their own settings.
  "/settings": null,
};

/**
 * Where people usually go next from each section, most likely first: the sections
 * the page links to or that do the same kind of work. Three at most, so a prefetch
 * costs the server a few loaders, not the whole portal.
 */
const LIKELY_NEXT: Readonly<Record<string, readonly string[]>> = {
  "/": ["/transactions", "/approvals", "/merchants"],
  "/approvals": ["/", "/merchants", "/transactions"],
  "/merchants": ["/pos-terminals", "/transactions", "/"],
  "/pos-terminals": ["/merchants", "/transactions", "/"],
  "/money/merchant-accounts": ["/money/merchant-funds", "/money/settlement-history", "/"],
  "/money/merchant-funds": ["/money/settlement-history", "/money/merchant-accounts", "/"],
  "/money/settlement-history": ["/money/merchant-funds", "/transactions", "/"],
  "/disputes": ["/transactions", "/money/merchant-accounts", "/"],
  "/transactions": ["/", "/reports", "/money/settlement-history"],
  "/reports": ["/transactions", "/money/merchant-funds", "/"],
  "/settings": ["/", "/approvals"],
};

export const MAX_PREFETCHED_PAGES = 3;

/** The section a pathname belongs to ("/merchants/42" is in "/merchants"), or null outside the main navigation. */
function sectionOf(pathname: string): string | null {
  const sections = Object.keys(SECTION_PERMISSION).filter((section) => isCurrentSection(section, pathname));
  // The longest match: "/money/merchant-funds" rather than nothing, "/" only for the dashboard itself.
  return sections.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** The pages to prefetch from `pathname` for someone with `role`: only sections the role may open, never the page itself. */
export function likelyNextPages(pathname: string, role: Role): string[] {
  const section = sectionOf(pathname);
  if (!section) return [];
  const here = pathname.replace(/\/+$/, "") || "/";
  return (LIKELY_NEXT[section] ?? [])
    .filter((page) => page !== here)
    .filter((page) => {
      const permission = SECTION_PERMISSION[page];
      return permission === null || (permission !== undefined && can(role, permission));
    })
    .slice(0, MAX_PREFETCHED_PAGES);
}
