// A notice set before a redirect is shown once on the page redirected to.
import { describe, expect, it } from "vitest";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

function cookiePair(setCookie: string | null): string {
  return (setCookie ?? "").split(";")[0] ?? "";
}

async function submitFlash(fields: Record<string, string>) {
  return portal().fetch("/__dev/ui", { method: "POST", body: new URLSearchParams({ intent: "flash", ...fields }), headers: { Origin: portal().url } });
}

describe("flash after a redirect", () => {
  it("redirects with a signed, short-lived, HttpOnly cookie", async () => {
    const response = await submitFlash({ kind: "success", message: "Merchant submitted for approval" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/__dev/ui");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^pp_flash=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Max-Age=60");
    // The notice text is not readable in the cookie name or attributes.
    expect(setCookie).not.toContain("Merchant submitted");
  });

  it("is shown once by the next page, which clears it", async () => {
    const redirect = await submitFlash({ kind: "success", message: "Merchant submitted for approval" });
    const next = await portal().fetch("/__dev/ui", { headers: { Cookie: cookiePair(redirect.headers.get("Set-Cookie")) } });
    expect(next.status).toBe(200);
    expect(await next.text()).toContain("Merchant submitted for approval");
    expect(next.headers.get("Set-Cookie")).toMatch(/^pp_flash=;.*Max-Age=0/);
  });

  // The next likely pages are prefetched (Sec-Purpose: prefetch) while the browser
  // follows the redirect; a prefetch that took the notice left the page without it.
  it("is left for the page when a prefetch goes first", async () => {
    const redirect = await submitFlash({ kind: "success", message: "Merchant submitted for approval" });
    const cookie = cookiePair(redirect.headers.get("Set-Cookie"));
    for (const purpose of ["Sec-Purpose", "Purpose"]) {
      const prefetch = await portal().fetch("/__dev/ui", { headers: { Cookie: cookie, [purpose]: "prefetch" } });
      expect(prefetch.status).toBe(200);
      expect(await prefetch.text()).not.toContain("Merchant submitted for approval");
      expect(prefetch.headers.get("Set-Cookie") ?? "").not.toContain("pp_flash");
    }
    const page = await portal().fetch("/__dev/ui", { headers: { Cookie: cookie } });
    expect(await page.text()).toContain("Merchant submitted for approval");
  });

  it("uses the __Host- name and Secure on https", async () => {
    const response = await portal().fetch("/__dev/ui", {
      host: "https://portal.example.com",
      // (Under Miniflare the Host header stays the loopback one, which Remix would
      // compare with an Origin header; a browser on the real host sends both alike.)
      headers: { "Sec-Fetch-Site": "same-origin" },
      method: "POST",
      body: new URLSearchParams({ intent: "flash", kind: "info", message: "Hello" }),
    });
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-pp_flash=/);
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("Path=/");
  });

  it("ignores a forged cookie, and clears it", async () => {
    const header = btoa(JSON.stringify({ alg: "HS256", kid: "flash-1" })).replace(/=+$/, "");
    const body = btoa(JSON.stringify({ id: "x", kind: "danger", message: "Your account is locked, call 0244000000" })).replace(/=+$/, "");
    const forged = `pp_flash=${header}.${body}.c2lnbmF0dXJl`;
    const response = await portal().fetch("/__dev/ui", { headers: { Cookie: forged } });
    expect(await response.text()).not.toContain("Your account is locked");
    expect(response.headers.get("Set-Cookie")).toMatch(/^pp_flash=;.*Max-Age=0/);
  });

  it("refuses an empty message with a field error and sets nothing", async () => {
    const response = await submitFlash({ kind: "success", message: "   " });
    expect(response.status).toBe(400);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await response.text()).toContain("Type a message");
  });

  it("refuses an unknown kind", async () => {
    const response = await submitFlash({ kind: "party", message: "Hi" });
    expect(response.status).toBe(400);
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });
});
