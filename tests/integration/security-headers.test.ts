import { describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { usePortal } from "../support/use-portal";
import { scriptTags } from "../support/html";

const portal = usePortal();

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
