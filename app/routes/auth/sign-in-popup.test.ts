// The sign-in popup's pure rules: its size (SPEC section 9: the default when the
// given one is invalid) and position, the opener's checks on the message the
// callback page posts (exact origin, the very popup, the shape, no other next
// page), and the failure messages of SPEC section 8.
import { describe, expect, it } from "vitest";
import { SIGN_IN_FAILURES, isSignInFailure, signInFailureMessage } from "#server/auth/sign-in-messages";
import { DEFAULT_POPUP_SIZE, popupFeatures, popupSize, type PopupSize } from "./popup";
import { SIGN_IN_MESSAGE_TYPE, readSignInMessage } from "./sign-in-popup";
import { contentSecurityPolicy, withSecurityHeaders } from "#server/plumbing/security-headers";

const GENERIC = "Action Failed. Please check connectivity and try again";
const SPEC_USER_SWITCH =
  "User attempted to switch accounts in the native broker, which is not allowed. All new accounts must sign-in through the standard web flow first, please try again.";

describe("popupSize", () => {
  it("defaults to 483x600", () => {
    expect(DEFAULT_POPUP_SIZE).toEqual({ width: 483, height: 600 });
  });

  it.each([
    ["483x600", { width: 483, height: 600 }],
    ["500x700", { width: 500, height: 700 }],
    ["800X900", { width: 800, height: 900 }],
    ["640×480", { width: 640, height: 480 }],
    // The smallest and largest usable sides.
    ["200x200", { width: 200, height: 200 }],
    ["4000x4000", { width: 4000, height: 4000 }],
    // Leading zeros are still whole pixels.
    ["0500x0700", { width: 500, height: 700 }],
  ])("reads %j", (given, size) => {
    expect(popupSize(given)).toEqual(size);
  });

  it("tolerates spaces around the numbers (an env value typed by hand)", () => {
    expect(popupSize("500 x 700")).toEqual({ width: 500, height: 700 });
    expect(popupSize(" 500x700 ")).toEqual({ width: 500, height: 700 });
  });

  it.each([
    { width: 500, height: 700 },
    { width: 200, height: 4000 },
  ])("takes a size object %j", (given) => {
    expect(popupSize(given)).toEqual(given);
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["a zero side", "0x600"],
    ["both zero", "0x0"],
    ["a negative width", "-483x600"],
    ["a negative height", "483x-600"],
    ["a fraction", "483.5x600"],
    ["a decimal comma", "483,5x600"],
    ["too small", "199x600"],
    ["too large", "4001x600"],
    ["huge", "99999x99999"],
    ["too many digits", "123456x600"],
    ["exponent", "4e2x600"],
    ["hex", "0x1E3x600"],
    ["one side", "483"],
    ["three sides", "483x600x10"],
    ["no separator", "483 600"],
    ["another separator", "483*600"],
    ["units", "483pxx600px"],
    ["words", "wide"],
    ["garbage", "x"],
    ["markup", "<script>x</script>"],
    ["a trailing newline and more", "483x600\nx"],
  ])("falls back to 483x600 for %s (%j)", (_kind, given) => {
    expect(popupSize(given)).toEqual(DEFAULT_POPUP_SIZE);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a zero width", { width: 0, height: 600 }],
    ["a negative side", { width: 483, height: -600 }],
    ["a fractional side", { width: 483.5, height: 600 }],
    ["NaN", { width: Number.NaN, height: 600 }],
    ["Infinity", { width: Number.POSITIVE_INFINITY, height: 600 }],
    ["too large", { width: 4001, height: 600 }],
    ["too small", { width: 483, height: 199 }],
    ["missing sides", {} as PopupSize],
    ["sides as strings", { width: "483", height: "600" } as unknown as PopupSize],
  ])("falls back to 483x600 for %s", (_kind, given) => {
    expect(popupSize(given)).toEqual(DEFAULT_POPUP_SIZE);
  });

  it.each([
    ["a number", 483],
    ["a boolean", true],
    ["an array", [483, 600]],
  ])("falls back to 483x600 for %s of the wrong type", (_kind, given) => {
    expect(popupSize(given as never)).toEqual(DEFAULT_POPUP_SIZE);
  });
});

describe("popupFeatures", () => {
  const size = { width: 483, height: 600 };

  it("centres the popup over the opener", () => {
    // (1280 - 483) / 2 = 398.5 -> 100 + 398.5 rounds to 499; (800 - 600) / 2 = 100 -> 150.
    expect(popupFeatures(size, { left: 100, top: 50, width: 1280, height: 800 })).toBe("popup=yes,width=483,height=600,left=499,top=150");
    expect(popupFeatures({ width: 500, height: 700 }, { left: 0, top: 0, width: 1500, height: 900 })).toBe("popup=yes,width=500,height=700,left=500,top=100");
  });

  it("keeps the popup on screen when the opener is smaller than the popup", () => {
    expect(popupFeatures(size, { left: 0, top: 0, width: 300, height: 400 })).toBe("popup=yes,width=483,height=600,left=0,top=0");
  });

  it("clamps a position left of or above the screen to 0", () => {
    expect(popupFeatures(size, { left: -1920, top: -40, width: 800, height: 600 })).toBe("popup=yes,width=483,height=600,left=0,top=0");
  });

  it("asks for a popup window of exactly the given size", () => {
    const features = Object.fromEntries(
      popupFeatures({ width: 640, height: 480 }, { left: 10, top: 20, width: 1024, height: 768 })
        .split(",")
        .map((pair) => pair.split("=")),
    );
    expect(features).toEqual({ popup: "yes", width: "640", height: "480", left: "202", top: "164" });
  });
});

describe("readSignInMessage", () => {
  const ORIGIN = "http://127.0.0.1:8787";
  const popup = { name: "the popup" };
  const expected = { origin: ORIGIN, popup };
  const success = { type: SIGN_IN_MESSAGE_TYPE, ok: true, next: "/authenticate" };
  const event = (overrides: Partial<{ origin: string; source: unknown; data: unknown }> = {}) =>
    ({ origin: ORIGIN, source: popup, data: success, ...overrides }) as Pick<MessageEvent, "origin" | "source" | "data">;

  it("accepts a success from the popup on the portal's own origin", () => {
    expect(readSignInMessage(event(), expected)).toEqual({ type: SIGN_IN_MESSAGE_TYPE, ok: true, next: "/authenticate" });
  });

  it("accepts a failure with a known code", () => {
    const data = { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: "cancelled" };
    expect(readSignInMessage(event({ data }), expected)).toEqual(data);
    const switched = { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: "user_switch" };
    expect(readSignInMessage(event({ data: switched }), expected)).toEqual(switched);
  });

  it("copies only the known fields", () => {
    const data = { ...success, extra: "<img src=x>", next: "/authenticate" };
    expect(readSignInMessage(event({ data }), expected)).toStrictEqual({ type: SIGN_IN_MESSAGE_TYPE, ok: true, next: "/authenticate" });
  });

  it.each([
    ["a look-alike host", "http://127.0.0.1:8787.evil.example"],
    ["another port", "http://127.0.0.1:8788"],
    ["another scheme", "https://127.0.0.1:8787"],
    ["the same host by another name", "http://localhost:8787"],
    ["a trailing slash", "http://127.0.0.1:8787/"],
    ["the provider", "https://login.microsoftonline.com"],
    ["an opaque origin", "null"],
    ["no origin", ""],
  ])("ignores a message from %s (%s)", (_kind, origin) => {
    expect(readSignInMessage(event({ origin }), expected)).toBeNull();
  });

  it("ignores a message from another window of the right origin", () => {
    expect(readSignInMessage(event({ source: { name: "another window" } }), expected)).toBeNull();
    expect(readSignInMessage(event({ source: null }), expected)).toBeNull();
  });

  it("ignores everything when no popup was opened (a null popup never matches a null source)", () => {
    expect(readSignInMessage(event({ source: null }), { origin: ORIGIN, popup: null })).toBeNull();
    expect(readSignInMessage(event(), { origin: ORIGIN, popup: null })).toBeNull();
  });

  it.each([
    ["null", null],
    ["a string", JSON.stringify(success)],
    ["a number", 1],
    ["an array", [success]],
    ["another type", { ...success, type: "partners-portal:other" }],
    ["no type", { ok: true, next: "/authenticate" }],
    ["ok as a string", { ...success, ok: "true" }],
    ["ok missing", { type: SIGN_IN_MESSAGE_TYPE, next: "/authenticate" }],
    ["success without next", { type: SIGN_IN_MESSAGE_TYPE, ok: true }],
    ["an open redirect to another site", { ...success, next: "https://evil.example" }],
    ["a protocol-relative next", { ...success, next: "//evil.example/authenticate" }],
    ["a javascript: next", { ...success, next: "javascript:alert(1)" }],
    ["another portal page", { ...success, next: "/select-business" }],
    ["a next with a query", { ...success, next: "/authenticate?x=1" }],
    ["an unknown code", { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: "hacked" }],
    ["a code from Object.prototype", { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: "toString" }],
    ["a failure without a code", { type: SIGN_IN_MESSAGE_TYPE, ok: false }],
    ["a failure whose code is a message", { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: SIGN_IN_FAILURES.cancelled }],
  ])("ignores %s", (_kind, data) => {
    expect(readSignInMessage(event({ data }), expected)).toBeNull();
  });
});

describe("sign-in failure messages", () => {
  it("gives each known code its own message", () => {
    expect(signInFailureMessage("cancelled")).toBe("Sign-in was cancelled.");
    expect(signInFailureMessage("no_account")).toBe("No portal account uses this email address. Check it, or ask your administrator to invite you.");
    expect(signInFailureMessage("unreachable")).toBe(GENERIC);
    for (const [code, message] of Object.entries(SIGN_IN_FAILURES)) {
      expect(isSignInFailure(code), code).toBe(true);
      expect(signInFailureMessage(code), code).toBe(message);
      expect(message.trim(), code).not.toBe("");
    }
  });

  it("says user_switch in SPEC section 8's own words", () => {
    expect(SIGN_IN_FAILURES.user_switch).toBe(SPEC_USER_SWITCH);
    expect(signInFailureMessage("user_switch")).toBe(SPEC_USER_SWITCH);
  });

  it.each([["bogus"], [""], ["USER_SWITCH"], ["toString"], ["__proto__"], ["hasOwnProperty"], [null], [undefined], [42], [{ code: "cancelled" }]])(
    "gives the generic message for %j",
    (code) => {
      expect(isSignInFailure(code)).toBe(false);
      expect(signInFailureMessage(code)).toBe(GENERIC);
    },
  );

  it("covers SPEC section 8's sign-in cases", () => {
    for (const code of ["user_switch", "popup_closed", "no_network", "interaction_required", "redirect_storage", "in_progress"]) {
      expect(isSignInFailure(code), code).toBe(true);
    }
  });
});

describe("the Worker's security headers around the popup", () => {
  const request = new Request("https://portal.example.com/auth/oidc/google/callback?code=c&state=s");
  const secured = (headers: Record<string, string>) =>
    withSecurityHeaders(new Response("<!doctype html>", { headers: { "Content-Type": "text/html", ...headers } }), request, "n0nce", "REQ-1", [
      "https://login.microsoftonline.com",
    ]).headers;

  it("keeps the callback's own COOP (the popup must keep its opener); every other page gets same-origin-allow-popups", () => {
    expect(secured({ "Cross-Origin-Opener-Policy": "unsafe-none" }).get("Cross-Origin-Opener-Policy")).toBe("unsafe-none");
    expect(secured({}).get("Cross-Origin-Opener-Policy")).toBe("same-origin-allow-popups");
  });

  it("keeps a page's no-referrer, but no page can loosen the referrer policy", () => {
    expect(secured({ "Referrer-Policy": "no-referrer" }).get("Referrer-Policy")).toBe("no-referrer");
    expect(secured({ "Referrer-Policy": "unsafe-url" }).get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(secured({}).get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("form-action names 'self' and then the providers' origins", () => {
    expect(secured({}).get("Content-Security-Policy")).toContain("; form-action 'self' https://login.microsoftonline.com;");
    expect(contentSecurityPolicy("n", [])).toContain("; form-action 'self';");
    expect(contentSecurityPolicy("n", ["https://a.example", "https://b.example"])).toContain("; form-action 'self' https://a.example https://b.example;");
  });
});
