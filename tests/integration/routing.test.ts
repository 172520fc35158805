// SPEC section 2 routing rules, against the built Worker in workerd.
import { describe, expect, it } from "vitest";
import { REQUEST_ID_PATTERN } from "#server/plumbing/request-id";
import { signedInCookie } from "../support/sign-in";
import { usePortal } from "../support/use-portal";
import { useSharedPortal } from "../support/shared-portal";
import { textOf, titleOf } from "../support/html";

// Reads the seed only (sessions of its own aside): the worker's shared portal; production keeps its own below.
const portal = useSharedPortal();

describe("unknown routes", () => {
  it.each(["/no/such/page", "/money/no-such-page", "/Merchants/x/y/z"])("%s is, signed in, a 404 page saying which path was not found", async (path) => {
    const response = await portal().fetch(`${path}?tab=1`, { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(titleOf(html)).toBe("Page Not Found");
    expect(textOf(html)).toContain(`Page not found: ${path}`);
    // The unknown-route message names the path only, not the query.
    expect(textOf(html)).not.toContain(`Page not found: ${path}?tab=1`);
  });

  it.each(["/no/such/page", "/merchants", "/", "/assets/does-not-exist.js"])(
    "%s sends a signed-out visitor to /login: only signed-in people learn what exists",
    async (path) => {
      const response = await portal().fetch(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login");
    },
  );

  it("a signed-in person who has not chosen a business yet is sent to choose one", async () => {
    const response = await portal().fetch("/no/such/page", { headers: await signedInCookie(portal(), "ama.mensah@example.com", null) });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/select-business");
  });

  it("a POST to an unknown route is a 404, not a 405 or 500", async () => {
    const response = await portal().fetch("/no/such/page", {
      method: "POST",
      body: new URLSearchParams({ a: "1" }),
      headers: { Origin: portal().url, ...(await signedInCookie(portal())) },
    });
    expect(response.status).toBe(404);
  });

  it("a state-changing request from another site is refused with 403 before anything runs", async () => {
    for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }, {}] as Record<string, string>[]) {
      const response = await portal().fetch("/__dev/ui", {
        method: "POST",
        body: new URLSearchParams({ intent: "flash", kind: "info", message: "x" }),
        headers,
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("Set-Cookie")).toBeNull();
      expect(await response.json()).toEqual({ message: "This request did not come from the portal's own pages." });
    }
    const page = await portal().fetch("/no/such/page", { method: "POST", headers: { Origin: "https://evil.example", Accept: "text/html" } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("<title>Forbidden</title>");
  });

  it("an unknown asset path is the 404 page, not a stack trace", async () => {
    const response = await portal().fetch("/assets/does-not-exist.js", { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(404);
    expect(titleOf(await response.text())).toBe("Page Not Found");
  });
});

describe("route matching", () => {
  it.each(["/builds/latest.json", "/BUILDS/Latest.JSON", "/builds/latest.json/", "/Builds/LATEST.json/"])(
    "ignores case and a trailing slash: %s",
    async (path) => {
      const response = await portal().fetch(`${path}?t=1`);
      expect(response.status).toBe(200);
      expect(await response.json()).toHaveProperty("buildId");
    },
  );

  it.each(["/__dev/ui", "/__DEV/UI", "/__dev/ui/"])("a page matches whatever the case and trailing slash: %s", async (path) => {
    const response = await portal().fetch(path);
    expect(response.status).toBe(200);
    expect(titleOf(await response.text())).toBe("UI kit");
  });
});

describe("layouts", () => {
  it("the sign-in steps use the standard layout: a card, no navigation", async () => {
    for (const path of ["/login", "/login-option"]) {
      const html = await (await portal().fetch(path)).text();
      expect(html, path).toContain('class="standard"');
      expect(html, path).not.toContain('aria-label="Main"');
    }
  });

  it("the later sign-in steps send a signed-out visitor to /login", async () => {
    for (const path of ["/authenticate", "/authenticate/verify", "/select-business"]) {
      const response = await portal().fetch(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/login");
    }
  });

  it("outside production every page wears an environment badge", async () => {
    const headers = await signedInCookie(portal());
    for (const path of ["/merchants", "/login", "/login-option"]) {
      const signedIn = path === "/merchants" ? { headers } : {};
      expect(textOf(await (await portal().fetch(path, signedIn)).text()), path).toContain("Development");
    }
  });

  it("every other page uses the default layout with every section in the navigation", async () => {
    const html = await (await portal().fetch("/merchants/42", { headers: await signedInCookie(portal()) })).text();
    expect(html).toContain('aria-label="Main"');
    for (const section of [
      "Dashboard",
      "Approvals",
      "Merchants",
      "POS Terminals",
      "Merchant Accounts",
      "Merchant Funds",
      "Settlement History",
      "Disputes",
      "Transactions",
      "Reports",
      "Settings",
    ]) {
      expect(textOf(html)).toContain(section);
    }
  });
});

describe("server errors", () => {
  it("show Internal Server Error with the request id and nothing internal", async () => {
    const response = await portal().fetch("/__dev/ui?fail=loader");
    expect(response.status).toBe(500);
    const html = await response.text();
    const requestId = response.headers.get("X-Request-Id");
    expect(requestId).toMatch(REQUEST_ID_PATTERN);
    expect(titleOf(html)).toBe("Internal Server Error");
    expect(textOf(html)).toContain(`quote this error id to support: ${requestId}`);
    expect(html).not.toContain("internal detail");
    expect(html).not.toMatch(/at loader|worker\.js:\d+/);
  });

  it("every response carries a fresh request id", async () => {
    const [a, b] = await Promise.all([portal().fetch("/__dev/ui"), portal().fetch("/__dev/ui")]);
    expect(a.headers.get("X-Request-Id")).toMatch(REQUEST_ID_PATTERN);
    expect(a.headers.get("X-Request-Id")).not.toBe(b.headers.get("X-Request-Id"));
  });
});

describe("in production", () => {
  const production = usePortal({ vars: { ENVIRONMENT: "production", SESSION_SECRET: "a-production-secret-that-is-long-enough-000" } });

  it("a page whose page-level check fails is the 404 page with the full path and query", async () => {
    const response = await production().fetch("/__dev/ui?tab=alerts");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(titleOf(html)).toBe("Page Not Found");
    expect(textOf(html)).toContain("Page Not Found: /__dev/ui?tab=alerts");
  });

  it("pages wear no environment badge", async () => {
    const html = await (await production().fetch("/merchants")).text();
    expect(html).not.toContain("env-badge");
    expect(textOf(html)).not.toContain("Development");
  });

  it("the check holds for actions too", async () => {
    const response = await production().fetch("/__dev/ui", {
      method: "POST",
      body: new URLSearchParams({ intent: "flash", kind: "info", message: "x" }),
      headers: { Origin: production().url },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
