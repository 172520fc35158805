// The exact limits of the sign-in and code endpoints through the built Worker (as set in
// functions/auth/limits.ts): the request after a limit is a 429 with Retry-After and the wait said by the field,
// per account (from many addresses) and per address (from several accounts); another address is not held up.
import { describe, expect, it } from "vitest";
import { AUTH_LIMITS, tooManyMessage } from "#server/auth/limits";
import type { RateLimit } from "#server/plumbing/rate-limit";
import { textOf } from "../support/html";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

let serial = 0;
/** A fresh address of the test network. */
function freshIp(): string {
  serial += 1;
  return `198.51.${Math.floor(serial / 250) + 10}.${(serial % 250) + 1}`;
}

/** A fresh active person with one linked phone (only the limits are under test, not who they are). */
async function freshPerson(): Promise<string> {
  serial += 1;
  const id = `usr_limits_${serial}`;
  const email = `limits.${serial}@example.com`;
  const db = await portal().db();
  const at = new Date().toISOString();
  await db.batch([
    db.prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)").bind(id, email, `Ɔkyeame ${serial}`, at),
    db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(id, `23324${String(7_000_000 + serial).padStart(7, "0")}`, at),
  ]);
  return email;
}

function postForm(path: string, form: Record<string, string>, ip: string, cookie = "") {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(form).toString(),
  });
}

function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("pp_session=ey"));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie.split(";")[0]!;
}

/** A login in progress for `email` (identified), begun from an address of its own. */
async function identified(email: string): Promise<string> {
  const response = await postForm("/login-option", { email }, freshIp());
  expect(response.headers.get("Location")).toBe("/authenticate");
  return sessionCookieOf(response);
}

/** The same, with a code sent to its phone (the verify page's state). */
async function codeSent(email: string): Promise<string> {
  const response = await postForm("/authenticate", { phone: "0" }, freshIp(), await identified(email));
  expect(response.headers.get("Location")).toBe("/authenticate/verify");
  return sessionCookieOf(response);
}

/**
 * `send` until the request after `limit.max` (the window starts at the first); that one must be a 429 with the
 * window's remaining seconds in Retry-After and the wait by the form's field.
 */
async function expectRefusedAfter(limit: RateLimit, send: (i: number) => Promise<Response>, already = 0): Promise<Response> {
  const start = Date.now();
  for (let i = already; i < limit.max; i += 1) expect((await send(i)).status, `request ${i + 1} of ${limit.max}`).not.toBe(429);
  const refused = await send(limit.max);
  const elapsed = Math.ceil((Date.now() - start) / 1000);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get("Retry-After"));
  expect(retryAfter).toBeLessThanOrEqual(limit.windowMs / 1000);
  expect(retryAfter).toBeGreaterThanOrEqual(limit.windowMs / 1000 - elapsed - 1);
  const body = await refused.text();
  if (refused.headers.get("Content-Type")?.includes("json")) expect(JSON.parse(body)).toEqual({ code: "too_many", message: tooManyMessage(retryAfter) });
  else expect(textOf(body)).toContain(tooManyMessage(retryAfter));
  return refused;
}

describe("/login-option (an email looked up)", () => {
  it("per account: the same email from a new address each time", async () => {
    const email = await freshPerson();
    const refused = await expectRefusedAfter(AUTH_LIMITS.signInPerAccount, () => postForm("/login-option", { email: ` ${email.toUpperCase()} ` }, freshIp()));
    expect(refused.headers.get("Set-Cookie") ?? "").not.toContain("pp_session=ey");
    // Another account is not held up.
    expect((await postForm("/login-option", { email: await freshPerson() }, freshIp())).status).toBe(302);
  });

  it("per address: unknown and known emails from one address; another address is not held up", async () => {
    const ip = freshIp();
    await expectRefusedAfter(AUTH_LIMITS.signInPerAddress, (i) => postForm("/login-option", { email: `nobody.${serial}.${i}@example.com` }, ip));
    const known = await freshPerson();
    expect((await postForm("/login-option", { email: known }, ip)).status).toBe(429);
    expect((await postForm("/login-option", { email: known }, freshIp())).status).toBe(302);
  });
});

describe("/auth/oidc/{provider}/start", () => {
  it("per address (no account is known yet): a 429 in JSON for the page's script; another address goes on", async () => {
    const ip = freshIp();
    const start = () =>
      portal().fetch("/auth/oidc/google/start", {
        method: "POST",
        headers: { Origin: portal().url, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip },
        body: "mode=popup",
      });
    await expectRefusedAfter(AUTH_LIMITS.signInPerAddress, start);
    const other = await portal().fetch("/auth/oidc/google/start", {
      method: "POST",
      headers: { Origin: portal().url, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": freshIp() },
      body: "mode=popup",
    });
    expect(other.status).not.toBe(429);
  });
});

describe("/authenticate (a code sent) and Send a new code", () => {
  it("per account: sends and resends count together, from any address", async () => {
    // The first send is counted already.
    const cookie = await codeSent(await freshPerson());
    const send = (i: number) =>
      i % 2 === 0 ? postForm("/authenticate/verify", { intent: "resend" }, freshIp(), cookie) : postForm("/authenticate", { phone: "0" }, freshIp(), cookie);
    await expectRefusedAfter(AUTH_LIMITS.codeSendPerAccount, send, 1);
  });

  it("per address: a second account on a busy address is refused; the same account elsewhere is not", async () => {
    const ip = freshIp();
    const perAccount = AUTH_LIMITS.codeSendPerAccount.max;
    const accounts = Math.ceil(AUTH_LIMITS.codeSendPerAddress.max / perAccount);
    let sent = 0;
    for (let a = 0; a < accounts; a += 1) {
      const cookie = await identified(await freshPerson());
      for (let i = 0; i < perAccount && sent < AUTH_LIMITS.codeSendPerAddress.max; i += 1, sent += 1) {
        expect((await postForm("/authenticate", { phone: "0" }, ip, cookie)).status).not.toBe(429);
      }
    }
    const second = await identified(await freshPerson());
    const refused = await postForm("/authenticate", { phone: "0" }, ip, second);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(AUTH_LIMITS.codeSendPerAddress.windowMs / 1000 - 120);
    expect(textOf(await refused.text())).toMatch(/Too many attempts\. Try again in \d+ minutes\./);
    expect((await postForm("/authenticate", { phone: "0" }, freshIp(), second)).headers.get("Location")).toBe("/authenticate/verify");
  });
});

describe("/authenticate/verify (a code typed)", () => {
  it("per account: wrong codes from a new address each time", async () => {
    const cookie = await codeSent(await freshPerson());
    await expectRefusedAfter(AUTH_LIMITS.codeVerifyPerAccount, () => postForm("/authenticate/verify", { intent: "verify", code: "000000" }, freshIp(), cookie));
  });

  it("per address: a second account on a busy address is refused; another address is not", async () => {
    const ip = freshIp();
    const perAccount = AUTH_LIMITS.codeVerifyPerAccount.max;
    const accounts = Math.ceil(AUTH_LIMITS.codeVerifyPerAddress.max / perAccount);
    let typed = 0;
    for (let a = 0; a < accounts; a += 1) {
      const cookie = await codeSent(await freshPerson());
      for (let i = 0; i < perAccount && typed < AUTH_LIMITS.codeVerifyPerAddress.max; i += 1, typed += 1) {
        expect((await postForm("/authenticate/verify", { intent: "verify", code: "000000" }, ip, cookie)).status).not.toBe(429);
      }
    }
    const second = await codeSent(await freshPerson());
    const refused = await postForm("/authenticate/verify", { intent: "verify", code: "000000" }, ip, second);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(AUTH_LIMITS.codeVerifyPerAddress.windowMs / 1000 - 120);
    expect(textOf(await refused.text())).toMatch(/Too many attempts\. Try again in \d+ minutes\./);
    expect((await postForm("/authenticate/verify", { intent: "verify", code: "000000" }, freshIp(), second)).status).toBe(400);
  });
});
