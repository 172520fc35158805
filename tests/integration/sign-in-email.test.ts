// The unique-email sign-in page's server rules.
import { describe, expect, it } from "vitest";
import { AUTH_LIMITS } from "#server/auth/limits";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

function lookUp(email: string, ip: string) {
  return portal().fetch("/login-option", {
    method: "POST",
    body: new URLSearchParams({ email }),
    headers: { Origin: portal().url, "CF-Connecting-IP": ip },
  });
}

describe("/login-option", () => {
  it("limits look-ups per client so that addresses cannot be harvested", async () => {
    for (let i = 0; i < AUTH_LIMITS.signInPerAddress.max; i += 1) {
      const response = await lookUp(`someone${i}@example.com`, "203.0.113.9");
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("No portal account uses this email address");
    }
    const refused = await lookUp("ama.mensah@example.com", "203.0.113.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("Set-Cookie") ?? "").not.toContain("pp_session=ey");
    expect(await refused.text()).toContain("Too many attempts. Try again in 10 minutes.");
    // Another client is not affected.
    const other = await lookUp("ama.mensah@example.com", "203.0.113.10");
    expect(other.status).toBe(302);
    expect(other.headers.get("Location")).toBe("/authenticate");
  });

  it("refuses a look-up from another site", async () => {
    const response = await portal().fetch("/login-option", {
      method: "POST",
      body: new URLSearchParams({ email: "ama.mensah@example.com" }),
      headers: { Origin: "https://evil.example", "CF-Connecting-IP": "203.0.113.11" },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("Set-Cookie") ?? "").not.toContain("pp_session=ey");
  });

  it("keeps the return URL where an ended session can still be read: back to /login-option, also after signing out", async () => {
    const response = await lookUp("ama.mensah@example.com", "203.0.113.13");
    expect(response.headers.get("Location")).toBe("/authenticate");
    const cookies = Object.fromEntries(response.headers.getSetCookie().map((cookie) => [cookie.slice(0, cookie.indexOf("=")), cookie.split(";")[0]!]));
    expect(Object.keys(cookies).sort()).toEqual(["pp_return", "pp_session"]);
    const visit = (path: string, cookie: string) => portal().fetch(path, { headers: { Cookie: cookie } });
    // The session cookie's Max-Age ran out, so the browser sends only the return URL: the unique-email page, not /login.
    expect((await visit("/merchants", cookies.pp_return!)).headers.get("Location")).toBe("/login-option");
    expect((await visit("/no-such-page", cookies.pp_return!)).headers.get("Location")).toBe("/login-option");
    expect((await visit("/merchants", "")).headers.get("Location")).toBe("/login");
    // Signing out clears the session and leaves the return URL.
    const out = await portal().fetch("/logout", { method: "POST", headers: { Origin: portal().url, Cookie: `${cookies.pp_session}; ${cookies.pp_return}` } });
    expect(out.headers.get("Location")).toBe("/login-option");
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^pp_session=;.*Max-Age=0/)]);
    expect((await visit("/merchants", cookies.pp_return!)).headers.get("Location")).toBe("/login-option");
    // Signing out once the session has already gone lands there too.
    const late = await portal().fetch("/logout", { method: "POST", headers: { Origin: portal().url, Cookie: cookies.pp_return! } });
    expect(late.headers.get("Location")).toBe("/login-option");
  });

  it("does not count malformed addresses against the client", async () => {
    for (let i = 0; i < AUTH_LIMITS.signInPerAddress.max + 2; i += 1) expect((await lookUp("not-an-email", "203.0.113.12")).status).toBe(400);
    expect((await lookUp("ama.mensah@example.com", "203.0.113.12")).status).toBe(302);
  });
});
