// The unique-email sign-in page's server rules.
import { describe, expect, it } from "vitest";
import { EMAIL_LOOKUP_RATE_LIMIT } from "../../functions/rate-limit";
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
    for (let i = 0; i < EMAIL_LOOKUP_RATE_LIMIT.max; i += 1) {
      const response = await lookUp(`someone${i}@example.com`, "203.0.113.9");
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("No portal account uses this email address");
    }
    const refused = await lookUp("ama.mensah@example.com", "203.0.113.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("Set-Cookie") ?? "").not.toContain("pp_session=ey");
    expect(await refused.text()).toContain("Too many sign-in attempts from this network.");
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

  it("does not count malformed addresses against the client", async () => {
    for (let i = 0; i < EMAIL_LOOKUP_RATE_LIMIT.max + 2; i += 1) expect((await lookUp("not-an-email", "203.0.113.12")).status).toBe(400);
    expect((await lookUp("ama.mensah@example.com", "203.0.113.12")).status).toBe(302);
  });
});
