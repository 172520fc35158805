// /platform is the platform staff's (decision 039): the signed out go to sign in, a business's people (whatever their
// role) get the 404 of a page that does not exist, staff get in with or without a business, and a person who is both
// chooses between their businesses and the platform. Their fresh checks are the platform's, and a business's person
// cannot make one.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { ADJOA, EFUA, makeStaff } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";

beforeAll(async () => {
  await makeStaff(portal().core(), EFUA);
  await makeStaff(portal().core(), ADJOA);
});

const get = (path: string, cookie: { Cookie: string } | Record<string, never> = {}) => portal().fetch(path, { headers: cookie, redirect: "manual" });

describe("who reaches /platform", () => {
  it("sends the signed out to sign in", async () => {
    const answer = await get("/platform");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toMatch(/^\/login/);
  });

  it("answers a business's Super Administrator and Administrator 404, as for a page that does not exist", async () => {
    for (const email of [KOFI, "ama.mensah@example.com"]) {
      const answer = await get("/platform", await signedInCookie(portal(), email, KUMASI));
      expect(answer.status, email).toBe(404);
      expect(await answer.text()).not.toContain("Businesses on the platform");
    }
  });

  it("answers a business's people on any platform path the plain 404 of an unknown page, in the business's layout", async () => {
    const cookies = [await signedInCookie(portal(), KOFI, KUMASI), await signedInCookie(portal(), "ama.mensah@example.com", KUMASI)];
    /** The page as a person reads it (text and links), with the path it names put aside. */
    const shape = (html: string, path: string) => ({
      text: textOf(html).replaceAll(path, "{path}"),
      links: [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]).filter((href) => !href!.startsWith("/assets/")),
    });
    const pathOf = fc.oneof(
      fc.constantFrom(
        "/platform",
        "/platform/jobs",
        "/platform/queues",
        "/platform/shards",
        "/platform/requests",
        "/platform/keys",
        "/platform/businesses/new",
      ),
      fc.constantFrom(KUMASI, ACCRA, "bus_nobody").map((id) => `/platform/businesses/${id}`),
      fc.constantFrom(KUMASI, ACCRA).map((id) => `/platform/businesses/${id}/lifecycle`),
      fc.stringMatching(/^[a-z0-9_-]{1,12}$/).map((id) => `/platform/requests/${id}`),
      fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), { minLength: 1, maxLength: 3 }).map((parts) => `/platform/${parts.join("/")}`),
    );
    await fc.assert(
      fc.asyncProperty(pathOf, fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/), { nil: undefined }), fc.nat(1), async (path, query, who) => {
        const cookie = cookies[who]!;
        const answer = await get(query ? `${path}?${query}` : path, cookie);
        expect(answer.status, path).toBe(404);
        const html = await answer.text();
        // SPEC section 2: an unknown route's words, the path alone (never the query).
        expect(textOf(html)).toContain(`Page not found: ${path} `);
        expect(html).not.toContain("Page Not Found: /platform");
        // The business's menu, not the platform's.
        expect(html).toContain('href="/merchants"');
        expect(html).not.toMatch(/href="\/platform\/(jobs|queues|shards|requests|keys)"/);
        // Word for word the page a path no screen claims answers.
        const unknown = `/no-such-page-${path.length}`;
        const plain = await get(unknown, cookie);
        expect(plain.status).toBe(404);
        expect(shape(html, path)).toEqual(shape(await plain.text(), unknown));
      }),
      { numRuns: 25 },
    );
  });

  it("lets a Platform Administrator and Platform Support in without a business, naming them and listing the businesses", async () => {
    for (const member of [EFUA, ADJOA]) {
      const answer = await get("/platform", await signedInCookie(portal(), member.email, null));
      expect(answer.status, member.email).toBe(200);
      const html = textOf(await answer.text());
      expect(html).toMatch(new RegExp(`Signed in as ${member.name} ?, ${member.role} ?\\.`));
      expect(html).toContain("Kumasi Fresh Foods");
    }
  });

  it("refuses a staff member whose place was disabled: 404, as for anyone else", async () => {
    const cookie = await signedInCookie(portal(), ADJOA.email, null);
    await portal()
      .core()
      .prepare("UPDATE platform_staff SET status = 'disabled' WHERE user_id = (SELECT id FROM users WHERE email = ?)")
      .bind(ADJOA.email)
      .run();
    try {
      expect((await get("/platform", cookie)).status).toBe(404);
    } finally {
      await makeStaff(portal().core(), ADJOA);
    }
  });
});

describe("choosing where to work", () => {
  it("sends signed-in staff who open a sign-in page back to the platform, not through sign-in again", async () => {
    const cookie = await signedInCookie(portal(), EFUA.email, null);
    for (const path of ["/login", "/login-option"]) {
      const answer = await get(path, cookie);
      expect([answer.status, answer.headers.get("Location")], path).toEqual([302, "/platform"]);
    }
    // A business's person part-way through sign-in (no business chosen) still sees the page.
    expect((await get("/login-option", await signedInCookie(portal(), KOFI, null))).status).toBe(200);
  });

  it("sends staff with no business of their own from the business choice to the platform", async () => {
    const answer = await get("/select-business", await signedInCookie(portal(), EFUA.email, null));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/platform");
  });

  it("offers a person who is both the platform beside their businesses, and the platform from inside a business", async () => {
    await makeStaff(portal().core(), { email: KOFI, name: "Kofi Boateng", phone: "233245100009", role: "Platform Support" });
    try {
      const choice = await (await get("/select-business", await signedInCookie(portal(), KOFI, null))).text();
      expect(choice).toContain("Platform operations");
      expect(choice).toContain("Kumasi Fresh Foods");
      const inBusiness = await get("/platform", await signedInCookie(portal(), KOFI, KUMASI));
      expect(inBusiness.status).toBe(200);
    } finally {
      await portal().core().prepare("DELETE FROM platform_staff WHERE user_id = (SELECT id FROM users WHERE email = ?)").bind(KOFI).run();
    }
  });
});

describe("a platform action's fresh check", () => {
  const ask = (binding: string, cookie: { Cookie: string }) =>
    portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}`, { headers: cookie, redirect: "manual" });

  it("is offered to staff, by code to their phone, without a business", async () => {
    const answer = await ask("platform:decide:req_1", await signedInCookie(portal(), EFUA.email, null));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ purpose: "decide this platform request", passkeyOnly: false, phone: expect.stringMatching(/0001$/) });
  });

  it("cannot be made by a business's person: the platform's check endpoint is not theirs", async () => {
    const answer = await ask("platform:decide:req_1", await signedInCookie(portal(), KOFI, KUMASI));
    expect(answer.status).toBe(404);
  });

  it("sends staff a code bound to the platform action, audited on the platform's chain", async () => {
    const cookie = await signedInCookie(portal(), EFUA.email, null);
    const answer = await portal().fetch("/auth/check", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.44", ...cookie },
      body: JSON.stringify({ intent: "send-code", binding: "platform:decide:req_2" }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ sent: true });
    const audited = await portal()
      .core()
      .prepare("SELECT business_id FROM audit_log WHERE action = 'auth.check.code_sent' AND actor_id = (SELECT id FROM users WHERE email = ?)")
      .bind(EFUA.email)
      .all<{ business_id: string | null }>();
    expect(audited.results).toEqual([{ business_id: null }]);
  });
});
