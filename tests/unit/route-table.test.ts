import { describe, expect, it } from "vitest";
import {
  APP_NAME,
  NAVIGATION,
  NOT_FOUND_TITLE,
  ROUTE_TABLE,
  SERVER_ERROR_TITLE,
  documentTitle,
  isCurrentSection,
  isNavGroup,
  layoutFor,
  matchRouteEntry,
  type NavItem,
} from "#app/lib/route-table";

// SPEC.md section 2, copied verbatim: route and page title.
const SPEC_ROUTES: readonly [route: string, title: string][] = [
  ["/", "Dashboard"],
  ["/login", "Login"],
  ["/login-option", "(none given)"],
  ["/authenticate", "Authenticate"],
  ["/authenticate/verify", "Authenticate"],
  ["/select-business", "Select Business"],
  ["/approvals", "Approvals"],
  ["/approvals/employee/{id}", "Employee Request"],
  ["/approvals/merchant/{id}", "Merchant Request"],
  ["/approvals/point-of-sale/{id}", "Point of Sale Request"],
  ["/approvals/settlement-account/{id}", "Settlement Account Request"],
  ["/merchants", "Merchants"],
  ["/merchants/add-merchant", "Add Merchant"],
  ["/merchants/{merchantId}", "Manage Merchant"],
  ["/merchants/{merchantId}/point-of-sale/{branchId}", "Point of Sale"],
  ["/money/merchant-accounts", "Merchant Accounts"],
  ["/money/merchant-accounts/transfer-history/{merchantId}", "Transfer History"],
  ["/money/merchant-funds", "Merchant Funds"],
  ["/money/settlement-history", "Settlement History"],
  ["/pos-terminals", "POS Terminals"],
  ["/pos-terminals/device-details/{deviceId}", "(none given)"],
  ["/reports", "Reports"],
  ["/settings", "Settings"],
  ["/transactions", "Transactions"],
];

// SPEC.md section 2: "The pages authenticate, authenticate/verify, login-option, login and select-business use standard."
const STANDARD_ROUTES = new Set(["/login", "/login-option", "/authenticate", "/authenticate/verify", "/select-business"]);

/** A concrete path for a SPEC route: "{merchantId}" becomes "m-merchantId-7". */
const concrete = (route: string) => route.replace(/\{(\w+)\}/g, (_m, name: string) => `m-${name}-7`);
const expectedTitle = (title: string) => (title === "(none given)" ? "Partners Portal" : title);
const toPattern = (route: string) => route.replace(/\{(\w+)\}/g, ":$1");

const navLinks: NavItem[] = NAVIGATION.flatMap((item) => (isNavGroup(item) ? item.items : [item]));

describe("titles", () => {
  it("names the app and the error pages as SPEC does", () => {
    expect(APP_NAME).toBe("Partners Portal");
    expect(NOT_FOUND_TITLE).toBe("Page Not Found");
    expect(SERVER_ERROR_TITLE).toBe("Internal Server Error");
  });

  it("has exactly the routes of the SPEC table", () => {
    expect(ROUTE_TABLE.map((entry) => entry.pattern).sort()).toEqual(SPEC_ROUTES.map(([route]) => toPattern(route)).sort());
  });

  it.each(SPEC_ROUTES)("%s has the title %j", (route, title) => {
    expect(documentTitle(concrete(route))).toBe(expectedTitle(title));
  });

  it.each(SPEC_ROUTES)("%s matches its own table entry", (route) => {
    expect(matchRouteEntry(concrete(route))?.pattern).toBe(toPattern(route));
  });
});

describe("layouts", () => {
  it.each(SPEC_ROUTES)("%s uses the layout SPEC gives it", (route) => {
    expect(layoutFor(concrete(route))).toBe(STANDARD_ROUTES.has(route) ? "standard" : "default");
  });

  it("has exactly five standard-layout entries", () => {
    expect(
      ROUTE_TABLE.filter((entry) => entry.layout === "standard")
        .map((entry) => entry.pattern)
        .sort(),
    ).toEqual([...STANDARD_ROUTES].sort());
  });
});

describe("matching", () => {
  it.each([
    ["/LOGIN", "Login"],
    ["/Login/", "Login"],
    ["/login/", "Login"],
    ["/Authenticate/VERIFY/", "Authenticate"],
    ["/Merchants/Add-Merchant", "Add Merchant"],
    ["/MONEY/merchant-funds/", "Merchant Funds"],
    ["/Select-Business", "Select Business"],
  ])("ignores case and a trailing slash: %s -> %j", (path, title) => {
    expect(documentTitle(path)).toBe(title);
  });

  it("keeps the layout across case and trailing-slash variants", () => {
    expect(layoutFor("/LOGIN-OPTION/")).toBe("standard");
    expect(layoutFor("/Select-Business/")).toBe("standard");
    expect(layoutFor("/Approvals/")).toBe("default");
  });

  it("treats the empty path as the dashboard", () => {
    expect(documentTitle("")).toBe("Dashboard");
    expect(documentTitle("/")).toBe("Dashboard");
  });

  it.each([
    ["/merchants/add-merchant", "Add Merchant"],
    ["/merchants/ADD-MERCHANT/", "Add Merchant"],
    ["/merchants/add-merchants", "Manage Merchant"],
    ["/merchants/42", "Manage Merchant"],
    ["/merchants/Add Merchant", "Manage Merchant"],
  ])("a literal wins over a param: %s -> %j", (path, title) => {
    expect(documentTitle(path)).toBe(title);
  });

  it("a param matches any single segment", () => {
    expect(matchRouteEntry("/approvals/employee/abc-123")?.pattern).toBe("/approvals/employee/:id");
    expect(matchRouteEntry("/merchants/7/point-of-sale/9")?.pattern).toBe("/merchants/:merchantId/point-of-sale/:branchId");
    expect(matchRouteEntry("/pos-terminals/device-details/SN-001")?.title).toBeNull();
  });

  it.each([
    "/approvals/employee",
    "/approvals/employee/1/2",
    "/merchants/1/2",
    "/merchants/1/point-of-sale",
    "/merchants/1/point-of-sale/2/3",
    "/money/merchant-accounts/transfer-history",
    "/money/merchant-accounts/transfer-history/1/2",
    "/pos-terminals/device-details",
    "/pos-terminals/device-details/a/b",
  ])("a param matches one segment only: %s is unknown", (path) => {
    expect(matchRouteEntry(path)).toBeUndefined();
    expect(documentTitle(path)).toBe("Partners Portal");
    expect(layoutFor(path)).toBe("default");
  });

  it.each(["/nope", "/money", "/login/extra", "/login-options", "/logins", "/approvals/unknown/1", "/settings/profile", "/dashboard"])(
    "unknown path %s gets the default layout and the app name",
    (path) => {
      expect(matchRouteEntry(path)).toBeUndefined();
      expect(layoutFor(path)).toBe("default");
      expect(documentTitle(path)).toBe(APP_NAME);
    },
  );
});

describe("NAVIGATION", () => {
  it("has links", () => {
    expect(navLinks.length).toBeGreaterThan(0);
  });

  it.each(navLinks.map((link) => [link.label, link.to] as const))("%s (%s) points at a default-layout route of the table", (_label, to) => {
    const entry = matchRouteEntry(to);
    expect(entry?.pattern).toBe(to);
    expect(entry?.layout).toBe("default");
  });

  it("labels each link with its page title", () => {
    for (const link of navLinks) expect(link.label).toBe(documentTitle(link.to));
  });

  it("has no duplicate links", () => {
    const targets = navLinks.map((link) => link.to);
    expect(new Set(targets).size).toBe(targets.length);
  });

  // A top-level section is the first segment of a default-layout route. When
  // the section has a page of its own ("/merchants"), that page is linked; when
  // it has none ("/money"), each of its parameter-free pages one level down is.
  const defaultRoutes = SPEC_ROUTES.map(([route]) => route).filter((route) => !STANDARD_ROUTES.has(route));
  const sections = [...new Set(defaultRoutes.map((route) => route.split("/")[1] ?? ""))];
  const expectedLinks = sections.flatMap((section) => {
    const own = `/${section}`;
    if (defaultRoutes.includes(own)) return [own];
    return defaultRoutes.filter((route) => route.startsWith(`${own}/`) && route.split("/").length === 3 && !route.includes("{"));
  });

  it("derives the expected sections from SPEC", () => {
    expect(expectedLinks).toEqual(
      expect.arrayContaining(["/", "/approvals", "/merchants", "/money/merchant-accounts", "/money/merchant-funds", "/money/settlement-history"]),
    );
    expect(expectedLinks).toHaveLength(10);
  });

  it.each(expectedLinks)("links the top-level default-layout section %s", (route) => {
    expect(navLinks.map((link) => link.to)).toContain(route);
  });

  it("groups the /money pages under one group", () => {
    const groups = NAVIGATION.filter(isNavGroup);
    expect(groups.map((group) => group.label)).toEqual(["Money"]);
    // Disputes (issue 14) hold merchants' money too: listed under Money at a path of their own.
    expect(groups[0]?.items.every((item) => item.to.startsWith("/money/") || item.to === "/disputes")).toBe(true);
  });

  it("isNavGroup tells groups from links", () => {
    expect(isNavGroup({ label: "Money", items: [] })).toBe(true);
    expect(isNavGroup({ label: "Reports", to: "/reports" })).toBe(false);
  });
});

describe("isCurrentSection", () => {
  it.each([
    ["/", "/", true],
    ["/", "", true],
    ["/", "/merchants", false],
    ["/", "/login", false],
    ["/merchants", "/merchants", true],
    ["/merchants", "/merchants/", true],
    ["/merchants", "/MERCHANTS", true],
    ["/merchants", "/merchants/42", true],
    ["/merchants", "/merchants/42/point-of-sale/9", true],
    ["/merchants", "/merchants/add-merchant", true],
    ["/merchants", "/merchantsx", false],
    ["/merchants", "/merchant", false],
    ["/merchants", "/", false],
    ["/merchants", "/approvals/merchant/1", false],
    ["/approvals", "/approvals/employee/1", true],
    ["/money/merchant-accounts", "/money/merchant-accounts/transfer-history/5", true],
    ["/money/merchant-accounts", "/money/merchant-funds", false],
    ["/money/merchant-funds", "/money/merchant-accounts", false],
    ["/money/settlement-history", "/money", false],
    ["/pos-terminals", "/pos-terminals/device-details/SN1", true],
  ])("link %s on %s: %s", (to, pathname, expected) => {
    expect(isCurrentSection(to, pathname)).toBe(expected);
  });

  it("marks at most one top-level link current on every SPEC route", () => {
    for (const [route] of SPEC_ROUTES) {
      const current = navLinks.filter((link) => isCurrentSection(link.to, concrete(route)));
      expect(current.length).toBeLessThanOrEqual(1);
    }
  });
});
