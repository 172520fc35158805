import { describe, expect, it } from "vitest";
import { ROLES, can } from "#server/permissions";
import { MAX_PREFETCHED_PAGES, likelyNextPages, shouldPrefetch } from "./prefetch";
import { NAVIGATION, isNavGroup } from "./navigation";

const SECTIONS = NAVIGATION.flatMap((item) => (isNavGroup(item) ? item.items : [item])).map((item) => item.to);

describe("shouldPrefetch (SPEC 7: skipped on a very slow connection)", () => {
  it("prefetches when the browser says nothing about the connection, or says it is ordinary", () => {
    expect(shouldPrefetch(undefined)).toBe(true);
    expect(shouldPrefetch(null)).toBe(true);
    expect(shouldPrefetch({})).toBe(true);
    expect(shouldPrefetch({ effectiveType: "4g", saveData: false })).toBe(true);
    expect(shouldPrefetch({ effectiveType: "3g" })).toBe(true);
  });

  it("skips on 2g and slow-2g, and whenever the person asked to save data", () => {
    expect(shouldPrefetch({ effectiveType: "2g" })).toBe(false);
    expect(shouldPrefetch({ effectiveType: "slow-2g" })).toBe(false);
    expect(shouldPrefetch({ effectiveType: "4g", saveData: true })).toBe(false);
  });
});

describe("likelyNextPages", () => {
  it("from the dashboard: transactions, approvals and merchants", () => {
    expect(likelyNextPages("/", "Administrator")).toEqual(["/transactions", "/approvals", "/merchants"]);
  });

  it("from a page inside a section, that section's next pages (never the page itself)", () => {
    expect(likelyNextPages("/merchants/mer_kff_0001", "Viewer")).toEqual(["/pos-terminals", "/transactions", "/"]);
    expect(likelyNextPages("/money/merchant-funds", "Finance")).toEqual(["/money/settlement-history", "/money/merchant-accounts", "/"]);
    expect(likelyNextPages("/settings/", "Viewer")).toEqual(["/", "/approvals"]);
  });

  it("nothing outside the main navigation: sign-in pages, the business choice, dev pages", () => {
    for (const path of ["/login", "/login-option", "/authenticate", "/authenticate/verify", "/select-business", "/__dev/ui", "/auth/oidc/google/callback"]) {
      expect(likelyNextPages(path, "Super Administrator"), path).toEqual([]);
    }
  });

  it("for every section and role: a few main navigation pages the role may open, the current one excluded", () => {
    const permission: Record<string, Parameters<typeof can>[1] | null> = {
      "/": "view:dashboard",
      "/approvals": "view:approval",
      "/merchants": "view:merchant",
      "/pos-terminals": "view:terminal",
      "/money/merchant-accounts": "view:balance",
      "/money/merchant-funds": "view:balance",
      "/money/settlement-history": "view:settlement",
      "/transactions": "view:transaction",
      "/reports": "view:report",
      "/settings": null,
    };
    for (const role of ROLES) {
      for (const section of SECTIONS) {
        const pages = likelyNextPages(section, role);
        expect(pages.length, `${role} on ${section}`).toBeGreaterThan(0);
        expect(pages.length).toBeLessThanOrEqual(MAX_PREFETCHED_PAGES);
        expect(pages).not.toContain(section);
        for (const page of pages) {
          expect(SECTIONS).toContain(page);
          const needs = permission[page];
          expect(needs === null || (needs !== undefined && can(role, needs)), `${role} may open ${page}`).toBe(true);
        }
      }
    }
  });
});
