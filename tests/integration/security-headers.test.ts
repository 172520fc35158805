import { describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { useSharedPortal } from "../support/shared-portal";
import { scriptTags } from "../support/html";

// Reads the seed only (sessions of its own aside): the worker's shared portal.
const portal = useSharedPortal();

function nonceOf(csp: string | null): string | undefined {
  return csp?.match(/'nonce-([^']+)'/)?.[1];
}

describe("HTML documents", () => {
  it("allow only scripts carrying this response's nonce", async () => {
    const response = await portal().fetch("/__dev/ui");
    const csp = response.headers.get("Content-Security-Policy");
    const scriptSrc = csp?.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
    const nonce = nonceOf(csp);
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{22,}$/);
    const tags = scriptTags(await response.text());
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
  });

  // Decision 043: the stylesheet is in the document, so the first paint waits for no second request. It runs only with
  // the response's nonce: style-src has no 'unsafe-inline', so an injected <style> or style attribute stays inert.
  it("carry the app's stylesheet inline, allowed only by this response's nonce", async () => {
    const response = await portal().fetch("/__dev/ui");
    const csp = response.headers.get("Content-Security-Policy");
    const styleSrc = csp?.split(";").find((d) => d.trim().startsWith("style-src")) ?? "";
    expect(styleSrc).not.toContain("unsafe-inline");
    const nonce = nonceOf(csp);
    expect(styleSrc).toContain(`'nonce-${nonce}'`);
    const html = await response.text();
    const styles = html.match(/<style\b[^>]*>/g) ?? [];
    expect(styles).toEqual([`<style id="pp-styles" nonce="${nonce}">`]);
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toMatch(/<style id="pp-styles"[^>]*>[^<]*\.page__lead\{/);
    expect(head).not.toContain('rel="stylesheet"');
  });

  // Decision 043: the page's code is asked for once the browser has painted, so the first paint waits for the document
  // alone; the files are still asked for side by side (the preload list moved into the bootstrap), not in a waterfall.
  it("ask for the page's code after the first paint, every file of it at once, from the head", async () => {
    const html = await (await portal().fetch("/__dev/ui")).text();
    expect(html).not.toContain("modulepreload");
    // The bootstrap in the head, so a repeat visit reads its cached code while the rest streams; Remix's handoff
    // (window.__remixContext) in the body, after the page.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toMatch(/<script[^>]*type="module"/);
    expect(head).not.toContain("__remixContext");
    expect(html.indexOf("window.__remixContext =")).toBeGreaterThan(html.indexOf("</header>"));
    const bootstrap = html.match(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "";
    expect(bootstrap).not.toMatch(/^\s*import\s/m);
    const wait = bootstrap.indexOf("first-contentful-paint");
    const imports = [...bootstrap.matchAll(/import\("([^"]+)"\)/g)].map((m) => ({ url: m[1]!, at: m.index }));
    expect(wait).toBeGreaterThan(0);
    expect(imports.every((i) => i.at > wait)).toBe(true);
    const urls = imports.map((i) => i.url);
    // The root's and the page's route modules, the entry, and what they import (React and Remix among them).
    expect(urls.some((u) => /\/root-[\w-]+\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /\/ui\.route-[\w-]+\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /\/entry\.client-[\w-]+\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /\/react-remix-[\w-]+\.js$/.test(u))).toBe(true);
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) expect((await portal().fetch(url)).status, url).toBe(200);
  });

  it("get a new nonce on every response", async () => {
    const a = nonceOf((await portal().fetch("/__dev/ui")).headers.get("Content-Security-Policy"));
    const b = nonceOf((await portal().fetch("/__dev/ui")).headers.get("Content-Security-Policy"));
    expect(a).not.toBe(b);
  });

  it("cannot be framed and are not sniffed", async () => {
    const headers = await signedInCookie(portal());
    for (const path of ["/__dev/ui", "/no-such-page", "/__dev/ui?fail=loader", "/login"]) {
      const response = await portal().fetch(path, { headers: path === "/login" ? {} : headers });
      expect(response.headers.get("Content-Security-Policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
      expect(response.headers.get("Referrer-Policy"), path).toBe("strict-origin-when-cross-origin");
    }
  });
});

describe("Strict-Transport-Security", () => {
  it("is sent on a real host", async () => {
    const response = await portal().fetch("/__dev/ui", { host: "https://portal.example.com" });
    expect(response.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d{8,}/);
  });

  it.each(["http://localhost:8787", "http://127.0.0.1:8787"])("is not sent on %s", async (host) => {
    const response = await portal().fetch("/__dev/ui", { host });
    expect(response.headers.get("Strict-Transport-Security")).toBeNull();
  });
});

describe("other responses", () => {
  it("JSON is not sniffed and carries no document CSP", async () => {
    const response = await portal().fetch("/builds/latest.json?t=1");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toBeNull();
  });

  it("static assets are not sniffed, and hashed ones are cached for good", async () => {
    const html = await (await portal().fetch("/__dev/ui")).text();
    const asset = html.match(/\/assets\/[\w-]+\.js/)?.[0];
    expect(asset).toBeDefined();
    const response = await portal().fetch(asset!);
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Cache-Control")).toContain("immutable");
    const favicon = await portal().fetch("/favicon.svg");
    expect(favicon.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(favicon.headers.get("Cache-Control") ?? "").not.toContain("immutable");
  });
});

// Shared computers (internet cafés) must not keep money pages in their cache (decision 034).
describe("answers to a signed-in session", () => {
  const SIGNED_IN = [
    "/",
    "/transactions",
    "/transactions.data",
    "/transactions/export",
    "/merchants",
    "/merchants.data?_routes=routes%2Fmerchants._index",
    "/money/merchant-funds",
    "/reports",
    "/settings",
    "/developers/api",
    // A redirect (a Viewer's forbidden page, or a page that moves): it carries the session too.
    "/login",
    "/no-such-page",
  ];

  it.each(SIGNED_IN)("%s: Cache-Control private, no-store", async (path) => {
    const cookie = await signedInCookie(portal());
    const response = await portal().fetch(path, { headers: cookie, redirect: "manual" });
    expect(response.status, path).toBeLessThan(500);
    // A route that already said no-store (a CSV export) keeps its own words; anything else gets ours.
    const expected = path.includes("export") ? /^no-store$/ : /^private, no-store$/;
    expect(response.headers.get("Cache-Control"), `${path} (${response.status})`).toMatch(expected);
    await response.arrayBuffer();
  });

  it("a form's answer (a redirect with its flash) too", async () => {
    const cookie = await signedInCookie(portal());
    const response = await portal().fetch("/logout", {
      method: "POST",
      headers: { ...cookie, Origin: portal().url, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("leave public things as they were: the sign-in page without a session, the API document, static assets", async () => {
    const cookie = await signedInCookie(portal());
    const openapi = await portal().fetch("/api/v1/openapi.json", { headers: cookie });
    expect(openapi.headers.get("Cache-Control")).toBe("public, max-age=300");
    const html = await (await portal().fetch("/login")).text();
    const asset = html.match(/\/assets\/[\w-]+\.(?:js|css)/)?.[0];
    expect(asset).toBeDefined();
    const assetResponse = await portal().fetch(asset!, { headers: cookie });
    expect(assetResponse.headers.get("Cache-Control")).toContain("immutable");
  });
});
