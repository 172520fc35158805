// A form re-sent with the same submission id runs once (decision 015): the
// browser re-sends it after a lost connection, when the first send may well
// have arrived. Through the built Worker, with the session's cookie.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const ESI = "esi.owusu@example.com";
const KOFI = "kofi.boateng@example.com";

const merchant = (code: string, extra: Record<string, string> = {}) => ({
  code,
  name: `Ɔkyeame Ɛnterprise ${code}`,
  trading_name: "Ɔkyeame 🍍",
  tin: `C00${code.replace(/\D/g, "").padStart(8, "0")}`,
  sector: "Groceries",
  town: "Kumasi",
  region: "Ashanti",
  address: "Plot 4, Bantama High Street, Kumasi",
  contact_name: "Akua Frimpong",
  contact_phone: "024 412 3456",
  contact_email: "akua@bantamacold.example.com",
  ...extra,
});

function post(path: string, form: Record<string, string>, cookie: string) {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

async function requestsFor(code: string): Promise<number> {
  const db = await portal().db();
  return (
    (await db
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND json_extract(after_json, '$.code') = ?")
      .bind(KUMASI, code)
      .first<number>("n")) ?? 0
  );
}

describe("a form re-sent with its submission id", () => {
  it("runs once: the re-send gets the first answer again, flash included, and makes no second request", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const form = { ...merchant("MRC-0501"), submission: randomUUID() };
    const first = await post("/merchants/add-merchant", form, cookie);
    expect(first.status).toBe(302);
    expect(first.headers.get("X-Submission-Replayed")).toBeNull();
    const again = await post("/merchants/add-merchant", form, cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(again.headers.get("X-Submission-Replayed")).toBe("1");
    // The flash rides again: the first answer's cookie never reached the browser.
    const flash = (response: Response) => response.headers.getSetCookie().filter((cookie) => cookie.startsWith("pp_flash="));
    expect(flash(again)).toEqual(flash(first));
    expect(flash(first)).toHaveLength(1);
    expect(await requestsFor("MRC-0501")).toBe(1);
  });

  it("through Remix's data requests too (what the browser sends)", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const form = { ...merchant("MRC-0502"), submission: randomUUID() };
    const first = await post("/merchants/add-merchant.data", form, cookie);
    expect(first.ok).toBe(true);
    const body = await first.text();
    const again = await post("/merchants/add-merchant.data", form, cookie);
    expect(again.status).toBe(first.status);
    expect(again.headers.get("X-Submission-Replayed")).toBe("1");
    expect(await again.text()).toBe(body);
    expect(await requestsFor("MRC-0502")).toBe(1);
  });

  it("a new submission id is a new submission", async () => {
    const cookie = (await signedInCookie(portal(), KOFI, KUMASI)).Cookie;
    await post("/merchants/add-merchant", { ...merchant("MRC-0503"), submission: randomUUID() }, cookie);
    // The same merchant asked twice is the engine's rule to refuse, not the submission id's.
    const second = await post("/merchants/add-merchant", { ...merchant("MRC-0503"), submission: randomUUID() }, cookie);
    expect(second.status).toBe(400);
    expect(second.headers.get("X-Submission-Replayed")).toBeNull();
    expect(await requestsFor("MRC-0503")).toBe(1);
  });

  it("a refusal is not kept: the corrected form, sent with the same id, runs", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const submission = randomUUID();
    const refused = await post("/merchants/add-merchant", { ...merchant("MRC-0504", { contact_email: "akua@bantama" }), submission }, cookie);
    expect(refused.status).toBe(400);
    const corrected = await post("/merchants/add-merchant", { ...merchant("MRC-0504"), submission }, cookie);
    expect(corrected.status).toBe(302);
    expect(corrected.headers.get("X-Submission-Replayed")).toBeNull();
    expect(await requestsFor("MRC-0504")).toBe(1);
  });

  it("belongs to its session: another session sending the same id is not given the first one's answer", async () => {
    const submission = randomUUID();
    const esi = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const kofi = (await signedInCookie(portal(), KOFI, KUMASI)).Cookie;
    const first = await post("/merchants/add-merchant", { ...merchant("MRC-0505"), submission }, esi);
    expect(first.status).toBe(302);
    const other = await post("/merchants/add-merchant", { ...merchant("MRC-0506"), submission }, kofi);
    expect(other.status).toBe(302);
    expect(other.headers.get("X-Submission-Replayed")).toBeNull();
    expect(other.headers.get("Set-Cookie")).not.toBe(first.headers.get("Set-Cookie"));
    expect(await requestsFor("MRC-0505")).toBe(1);
    expect(await requestsFor("MRC-0506")).toBe(1);
  });

  it("two sends at once make one request: the second waits for the first's answer", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const form = { ...merchant("MRC-0507"), submission: randomUUID() };
    const [a, b] = await Promise.all([post("/merchants/add-merchant", form, cookie), post("/merchants/add-merchant", form, cookie)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect([a.headers.get("X-Submission-Replayed"), b.headers.get("X-Submission-Replayed")].sort()).toEqual(["1", null].sort());
    expect(await requestsFor("MRC-0507")).toBe(1);
  });

  it("is not replayed once the person signed out (decision 034): the session must still be active, not only its cookie signed", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const form = { ...merchant("MRC-0510"), submission: randomUUID() };
    const first = await post("/merchants/add-merchant", form, cookie);
    expect(first.status).toBe(302);
    expect(first.headers.getSetCookie().some((c) => c.startsWith("pp_flash="))).toBe(true);
    expect((await post("/logout", {}, cookie)).status).toBe(302);
    // The same signed cookie, kept by a shared computer's browser, sends the kept form again.
    const again = await post("/merchants/add-merchant", form, cookie);
    expect(again.headers.get("X-Submission-Replayed")).toBeNull();
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toMatch(/^\/login/);
    expect(again.headers.getSetCookie().some((c) => c.startsWith("pp_flash="))).toBe(false);
    expect(await requestsFor("MRC-0510")).toBe(1);
  });

  it("an id that is not one of ours, or no session, runs as any form does", async () => {
    const cookie = (await signedInCookie(portal(), ESI, KUMASI)).Cookie;
    const form = { ...merchant("MRC-0508"), submission: "not-an-id" };
    expect((await post("/merchants/add-merchant", form, cookie)).status).toBe(302);
    expect((await post("/merchants/add-merchant", form, cookie)).status).toBe(400);
    const signedOut = await post("/merchants/add-merchant", { ...merchant("MRC-0509"), submission: randomUUID() }, "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/\/login/);
  });
});
