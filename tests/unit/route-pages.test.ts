// Titles and layouts, read where they live: each route module's `meta` and `handle`, reached through app/routes.ts as
// Remix reaches them (tests/support/route-pages.ts). SPEC's table is copied here, so a wrong title in a module fails.
import { describe, expect, it } from "vitest";
import { NAVIGATION, isCurrentSection, isNavGroup, type NavItem } from "#app/lib/shell/navigation";
import { APP_NAME, NOT_FOUND_TITLE, SERVER_ERROR_TITLE } from "#app/lib/shell/page";
import { ROUTE_FILES, pageAt, routeModule } from "../support/route-pages";

const NOT_FOUND_ROUTE = "routes/not-found";

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
// SPEC gives the device page no title: it is named as the pages beside it are.
const expectedTitle = (title: string, route: string) =>
  route === "/pos-terminals/device-details/{deviceId}" ? "POS Terminal" : title === "(none given)" ? "Partners Portal" : title;

const navLinks: NavItem[] = NAVIGATION.flatMap((item) => (isNavGroup(item) ? item.items : [item]));

describe("titles", () => {
  it("names the app and the error pages as SPEC does", () => {
    expect(APP_NAME).toBe("Partners Portal");
    expect(NOT_FOUND_TITLE).toBe("Page Not Found");
    expect(SERVER_ERROR_TITLE).toBe("Internal Server Error");
  });

  it.each(SPEC_ROUTES)("%s is a screen of its own, not the 404 route", async (route) => {
    expect((await pageAt(concrete(route))).routeId).not.toBe(NOT_FOUND_ROUTE);
  });

  it.each(SPEC_ROUTES)("%s has the title %j", async (route, title) => {
    expect((await pageAt(concrete(route))).title).toBe(expectedTitle(title, route));
  });

  // Screens SPEC's table leaves out or leaves untitled: a tab or a history entry reading only the app's name says nothing.
  it.each([
    ["/merchants/{merchantId}/add-point-of-sale", "Add Point of Sale"],
    ["/pos-terminals/device-details/{deviceId}", "POS Terminal"],
    ["/approvals/security-policy/{id}", "Security Policy Request"],
  ])("%s, which SPEC does not title, is titled %j", async (route, title) => {
    expect((await pageAt(concrete(route))).title).toBe(title);
  });

  it("no signed-in screen is titled only the app's name", async () => {
    const bare = [];
    for (const [route] of SPEC_ROUTES) if (!STANDARD_ROUTES.has(route) && (await pageAt(concrete(route))).title === APP_NAME) bare.push(route);
    expect(bare).toEqual([]);
  });

  it("every page names its title; only the 404 route, which always throws, leaves it to the root", async () => {
    const untitled: string[] = [];
    for (const id of ROUTE_FILES.keys()) {
      const module = await routeModule(id);
      if (module.default && !module.meta) untitled.push(id);
    }
    expect(untitled).toEqual([NOT_FOUND_ROUTE]);
  });
});

describe("layouts", () => {
  it.each(SPEC_ROUTES)("%s uses the layout SPEC gives it", async (route) => {
    expect((await pageAt(concrete(route))).layout).toBe(STANDARD_ROUTES.has(route) ? "standard" : "default");
  });

  it("only the five SPEC pages, the sign-in popup's landing page and an email's unsubscribe page (no session either) name the standard layout", async () => {
    const standard: string[] = [];
    for (const id of ROUTE_FILES.keys()) {
      const handle = (await routeModule(id)).handle as { layout?: string } | undefined;
      if (handle?.layout === "standard") standard.push(id);
    }
    expect(standard.sort()).toEqual(
      [
        "routes/login",
        "routes/login-option",
        "routes/authenticate",
        "routes/authenticate.verify",
        "routes/select-business",
        "routes/auth.oidc.callback",
        "routes/notifications.unsubscribe",
      ].sort(),
    );
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
    ["/approvals/EMPLOYEE/1", "Employee Request"],
    ["/Approvals/Transfer/1", "Transfer Request"],
  ])("ignores case and a trailing slash: %s -> %j", async (path, title) => {
    expect((await pageAt(path)).title).toBe(title);
  });

  it("keeps the layout across case and trailing-slash variants", async () => {
    expect((await pageAt("/LOGIN-OPTION/")).layout).toBe("standard");
    expect((await pageAt("/Select-Business/")).layout).toBe("standard");
    expect((await pageAt("/Approvals/")).layout).toBe("default");
  });

  it("treats the empty path as the dashboard", async () => {
    expect((await pageAt("")).title).toBe("Dashboard");
    expect((await pageAt("/")).title).toBe("Dashboard");
  });

  it.each([
    ["/merchants/add-merchant", "Add Merchant"],
    ["/merchants/ADD-MERCHANT/", "Add Merchant"],
    ["/merchants/add-merchants", "Manage Merchant"],
    ["/merchants/42", "Manage Merchant"],
    ["/merchants/Add Merchant", "Manage Merchant"],
  ])("a literal wins over a param: %s -> %j", async (path, title) => {
    expect((await pageAt(path)).title).toBe(title);
  });

  it("a param matches any single segment", async () => {
    expect(await pageAt("/approvals/employee/abc-123")).toMatchObject({ routeId: "routes/approvals.request", params: { kind: "employee", id: "abc-123" } });
    expect(await pageAt("/merchants/7/point-of-sale/9")).toMatchObject({
      routeId: "routes/merchants.point-of-sale",
      params: { merchantId: "7", branchId: "9" },
    });
    expect((await pageAt("/pos-terminals/device-details/SN-001")).title).toBe("POS Terminal");
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
  ])("a param matches one segment only: %s is unknown", async (path) => {
    expect(await pageAt(path)).toMatchObject({ routeId: NOT_FOUND_ROUTE, title: APP_NAME, layout: "default" });
  });

  it.each(["/nope", "/money", "/login/extra", "/login-options", "/logins", "/settings/profile", "/dashboard"])(
    "unknown path %s gets the default layout and the app name",
    async (path) => {
      expect(await pageAt(path)).toMatchObject({ routeId: NOT_FOUND_ROUTE, title: APP_NAME, layout: "default" });
    },
  );

  it("a request kind SPEC does not list reaches the request page, whose loader answers 404; its title is the app name", async () => {
    expect(await pageAt("/approvals/unknown/1")).toMatchObject({ routeId: "routes/approvals.request", title: APP_NAME, layout: "default" });
  });
});

describe("NAVIGATION", () => {
  it("has links", () => {
    expect(navLinks.length).toBeGreaterThan(0);
  });

  it.each(navLinks.map((link) => [link.label, link.to] as const))("%s (%s) points at a default-layout screen", async (_label, to) => {
    const page = await pageAt(to);
    expect(page.routeId).not.toBe(NOT_FOUND_ROUTE);
    expect(page.layout).toBe("default");
  });

  it("labels each link with its page title", async () => {
    for (const link of navLinks) expect((await pageAt(link.to)).title).toBe(link.label);
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
    // Disputes (decision 023) hold merchants' money too: listed under Money at a path of their own.
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
