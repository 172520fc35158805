// Every route under /platform, read from app/routes.ts so a new one is covered the day it lands (decision 039): the
// signed out go to sign in, and a business's people, even its Super Administrator, get the 404 of a page that does
// not exist, for a GET and for a POST alike. Nothing of the platform answers them anything else.
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "#app/routes";
import { askLifecycle, EFUA, makeStaff, postForm } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

const PLATFORM_PATHS = routeConfig.flatMap((route) => (route.path?.startsWith("platform") ? [route.path] : []));
let requestId: string;

beforeAll(async () => {
  await makeStaff(portal().core(), EFUA);
  requestId = await askLifecycle(portal(), ACCRA, "suspend", "For the route tests", await signedInCookie(portal(), EFUA.email, null));
});

/** The path with each parameter filled by something that exists, so a refusal is about who asks, not what. */
const concrete = (path: string) => `/${path.replace(":businessId", ACCRA).replace(":id", requestId)}`;

describe("every /platform route", () => {
  it("is a list that covers the platform's screens", () => {
    expect(PLATFORM_PATHS).toEqual(
      expect.arrayContaining(["platform", "platform/requests", "platform/requests/:id", "platform/keys", "platform/businesses/new"]),
    );
  });

  it("sends the signed out to sign in, for a GET and a POST", async () => {
    for (const path of PLATFORM_PATHS.map(concrete)) {
      const get = await portal().fetch(path, { redirect: "manual" });
      expect([get.status, get.headers.get("Location")], `GET ${path}`).toEqual([302, "/login"]);
      const post = await postForm(portal(), path, { intent: "approve", reason: "x" }, { Cookie: "" });
      expect([post.status, post.headers.get("Location")], `POST ${path}`).toEqual([302, "/login"]);
    }
  });

  it("answers a business's people 404, whatever their role, for a GET and a POST, and changes nothing", async () => {
    const people = [
      await signedInCookie(portal(), "ama.mensah@example.com", KUMASI),
      await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI),
      await signedInCookie(portal(), "yaw.asante@example.com", ACCRA),
      await signedInCookie(portal(), "ama.mensah@example.com", null),
    ];
    for (const cookie of people) {
      for (const path of PLATFORM_PATHS.map(concrete)) {
        expect((await portal().fetch(path, { headers: cookie, redirect: "manual" })).status, `GET ${path}`).toBe(404);
        expect((await postForm(portal(), path, { intent: "approve", reason: "x" }, cookie)).status, `POST ${path}`).toBe(404);
      }
    }
    const request = await portal().core().prepare("SELECT status FROM platform_requests WHERE id = ?").bind(requestId).first<{ status: string }>();
    expect(request).toEqual({ status: "pending" });
  });
});
