// Issue 24, security 5: requests an attacker can shape answer 4xx, never 5xx.
import { describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

describe("a foreign Origin with an Authorization header", () => {
  it.each(["/merchants/add-merchant", "/merchants/add-merchant.data", "/logout", "/settings.data"])(
    "POST %s is refused with 403, not passed on to Remix (whose CSRF check threw a 500)",
    async (path) => {
      const cookie = await signedInCookie(portal());
      const foreign: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }];
      for (const extra of foreign) {
        const response = await portal().fetch(path, {
          method: "POST",
          headers: { ...cookie, ...extra, Authorization: "Bearer anything", "Content-Type": "application/x-www-form-urlencoded" },
          body: "name=x",
          redirect: "manual",
        });
        expect(response.status, `${path} ${JSON.stringify(extra)}`).toBe(403);
        await response.arrayBuffer();
      }
    },
  );
});
