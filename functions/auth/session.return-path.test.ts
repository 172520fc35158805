import { describe, expect, it } from "vitest";
import { placeOf } from "./guards";
import { endedMessage, safeReturnPath } from "./session";

describe("safeReturnPath (where signing in again may send a person: this portal's own pages only)", () => {
  it.each([
    ["/merchants", "/merchants"],
    ["/merchants?status=active&q=%C6%90kua", "/merchants?status=active&q=%C6%90kua"],
    ["/merchants/mer_123/point-of-sale", "/merchants/mer_123/point-of-sale"],
    ["/", "/"],
  ])("keeps %s", (value, kept) => {
    expect(safeReturnPath(value)).toBe(kept);
  });

  it.each([
    // Another origin, however it is spelled.
    "//evil.example/merchants",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/merchants\\..\\..\\evil",
    "https://evil.example/merchants",
    "javascript:alert(1)",
    "evil.example/merchants",
    "merchants",
    // Control characters (a tab or a newline the browser would strip, then read "//").
    "/\t/evil.example",
    "/\n/evil.example",
    "/merchants\u0000",
    "/merchants\u007f",
    // Not the same text after parsing: dot segments, a fragment.
    "/merchants/../..//evil.example",
    "/a/./b",
    "/merchants#x",
    // The sign-in pages themselves.
    "/login",
    "/login-option?ended=idle",
    "/authenticate/verify",
    "/select-business",
    "/logout",
    "/auth/oidc/google/callback",
    // Nothing, too long, not a string.
    "",
    `/${"a".repeat(2000)}`,
    null,
    42,
  ])("refuses %j", (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });
});

describe("placeOf (the page an ended session remembers)", () => {
  const ORIGIN = "https://portal.example";
  it("a GET: its own path and query", () => {
    expect(placeOf(new Request(`${ORIGIN}/merchants?page=2`))).toBe("/merchants?page=2");
  });

  it("a POST: the form's page from a same-origin Referer, else the action's path without its query", () => {
    const post = (referer: string | null) =>
      new Request(`${ORIGIN}/merchants/add-merchant?index`, { method: "POST", headers: referer ? { Referer: referer } : {} });
    expect(placeOf(post(`${ORIGIN}/merchants/add-merchant?step=2`))).toBe("/merchants/add-merchant?step=2");
    expect(placeOf(post("https://evil.example/merchants"))).toBe("/merchants/add-merchant");
    expect(placeOf(post("not a url"))).toBe("/merchants/add-merchant");
    expect(placeOf(post(null))).toBe("/merchants/add-merchant");
    expect(placeOf(post(`${ORIGIN}/login-option`))).toBeNull();
  });
});

describe("endedMessage", () => {
  it("says why for the two limits, nothing for anything else", () => {
    expect(endedMessage("idle")).toBe("You were signed out after 30 minutes without activity.");
    expect(endedMessage("absolute")).toBe("You were signed out: a session lasts 12 hours. Sign in again.");
    expect(endedMessage("<script>")).toBeNull();
    expect(endedMessage("constructor")).toBeNull();
    expect(endedMessage(null)).toBeNull();
  });
});
