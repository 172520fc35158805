// Pure sign-in rules: code generation, session validity, return URLs, the cookie's
// keys (kid, rotation, tampering) and the same-origin check.
import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "./origin";
import { codeHmac, newCode } from "./one-time-codes";
import { dedupe, isValidSession, readSessionCookie, returnUrlFor, sessionCookie, sessionKeyId, type SessionData } from "./session";
import { configOf } from "../env";

const NOW = Date.parse("2026-05-01T09:00:00Z");
const A = "a".repeat(40);
const B = "b".repeat(40);
const SESSION: SessionData = {
  sid: "s1",
  sub: "usr_1",
  email: "a@example.com",
  authenticationChannel: "google",
  stage: "verified",
  tokenExpiration: NOW + 60_000,
  returnUrl: "/login",
  otpToken: "c1",
  selectedPhoneNumber: "233244123456",
  linkedNumbers: ["233244123456"],
  activeBusiness: null,
};
const request = (cookie: string) => new Request("https://portal.example.com/", { headers: { Cookie: cookie.split(";")[0]! } });

describe("one-time codes", () => {
  it("are 6 digits, vary, and keep leading zeros", () => {
    const codes = Array.from({ length: 2000 }, newCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(new Set(codes.map((code) => code[0])).size).toBe(10);
  });

  it("are stored as an HMAC that depends on the key, the challenge and the code", async () => {
    const mac = await codeHmac(A, "ch1", "123456");
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(await codeHmac(A, "ch1", "123456")).toBe(mac);
    expect(await codeHmac(B, "ch1", "123456")).not.toBe(mac);
    expect(await codeHmac(A, "ch2", "123456")).not.toBe(mac);
    expect(await codeHmac(A, "ch1", "123457")).not.toBe(mac);
  });
});

describe("session rules", () => {
  it("return URLs per channel", () => {
    expect(returnUrlFor("microsoft")).toBe("/login");
    expect(returnUrlFor("google")).toBe("/login");
    expect(returnUrlFor("userUniqueEmail")).toBe("/login-option");
  });

  it("valid only with an otp token, an email and an unexpired token expiration", () => {
    expect(isValidSession(SESSION, NOW)).toBe(true);
    expect(isValidSession({ ...SESSION, otpToken: null }, NOW)).toBe(false);
    expect(isValidSession({ ...SESSION, email: "" }, NOW)).toBe(false);
    expect(isValidSession(SESSION, SESSION.tokenExpiration)).toBe(false);
    expect(isValidSession(SESSION, SESSION.tokenExpiration - 1)).toBe(true);
  });

  it("linked numbers lose their duplicates", () => {
    expect(dedupe(["233244000001", "233244000002", "233244000001"])).toEqual(["233244000001", "233244000002"]);
  });
});

describe("the session cookie", () => {
  const current = configOf({ SESSION_SECRET: A }).auth;

  it("carries the kid of the signing key and reads back", async () => {
    const cookie = await sessionCookie(new Request("https://portal.example.com/"), current, SESSION, NOW);
    const header = JSON.parse(Buffer.from(cookie.split("=")[1]!.split(".")[0]!, "base64url").toString()) as { alg: string; kid: string };
    expect(header).toEqual({ alg: "HS256", kid: await sessionKeyId(A), typ: "JWT" });
    expect(await sessionKeyId(A)).not.toBe(await sessionKeyId(B));
    expect(await readSessionCookie(request(cookie), current, NOW)).toEqual({ kind: "authentic", session: SESSION });
  });

  it("verifies with the previous key after rotation, refuses an unknown kid and a forged signature", async () => {
    const cookie = await sessionCookie(new Request("https://portal.example.com/"), current, SESSION, NOW);
    expect((await readSessionCookie(request(cookie), configOf({ SESSION_SECRET: B, SESSION_SECRET_PREVIOUS: A }).auth, NOW)).kind).toBe("authentic");
    expect(await readSessionCookie(request(cookie), configOf({ SESSION_SECRET: B }).auth, NOW)).toEqual({ kind: "refused", reason: "unknown-kid" });
    const [h, p, s] = cookie.split(";")[0]!.split("=")[1]!.split(".") as [string, string, string];
    const altered = Buffer.from(JSON.stringify({ ...SESSION, activeBusiness: "bus_x" })).toString("base64url");
    expect(await readSessionCookie(request(`__Host-pp_session=${h}.${altered}.${s}`), current, NOW)).toEqual({ kind: "refused", reason: "bad-signature" });
    expect(p).not.toBe(altered);
  });

  it("an expired cookie is refused but its return URL is kept", async () => {
    const cookie = await sessionCookie(new Request("https://portal.example.com/"), current, { ...SESSION, returnUrl: "/login-option" }, NOW);
    expect(await readSessionCookie(request(cookie), current, SESSION.tokenExpiration)).toEqual({
      kind: "expired",
      returnUrl: "/login-option",
      verified: true,
      business: null,
    });
    expect(await readSessionCookie(request(cookie), current, SESSION.tokenExpiration + 3_600_000)).toEqual({
      kind: "expired",
      returnUrl: "/login-option",
      verified: true,
      business: null,
    });
  });
});

describe("isSameOriginRequest", () => {
  const post = (headers: Record<string, string>) => new Request("https://portal.example.com/x", { method: "POST", headers });
  it("accepts only the site's own origin for state-changing methods", () => {
    expect(isSameOriginRequest(post({ Origin: "https://portal.example.com" }))).toBe(true);
    expect(isSameOriginRequest(post({ "Sec-Fetch-Site": "same-origin" }))).toBe(true);
    expect(isSameOriginRequest(post({ Origin: "http://portal.example.com" }))).toBe(false);
    expect(isSameOriginRequest(post({ "Sec-Fetch-Site": "cross-site" }))).toBe(false);
    expect(isSameOriginRequest(post({}))).toBe(false);
    expect(isSameOriginRequest(new Request("https://portal.example.com/x", { headers: { Origin: "https://evil.example" } }))).toBe(true);
  });
});
