// A right-to-left override in a name makes it display reversed, so a name can pass for another (decision 034).
// The name rule refuses the bidirectional controls, with a message on the field.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bidiControlMessage } from "#app/lib/forms/validation";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

const merchant = (code: string, name: string) => ({
  code,
  name,
  trading_name: "Ɔkyeame 🍍",
  tin: `C00${code.replace(/\D/g, "").padStart(8, "0")}`,
  sector: "Groceries",
  town: "Kumasi",
  region: "Ashanti",
  address: "Plot 4, Bantama High Street, Kumasi",
  contact_name: "Akua Frimpong",
  contact_phone: "024 412 3456",
  contact_email: "akua@bantamacold.example.com",
  submission: randomUUID(),
});

async function addMerchant(form: Record<string, string>): Promise<Response> {
  const cookie = (await signedInCookie(portal(), "esi.owusu@example.com", KUMASI)).Cookie;
  return portal().fetch("/merchants/add-merchant", {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

describe("a merchant name with a bidirectional control", () => {
  it.each(["\u202E", "\u202A", "\u2066", "\u2069", "\u200F", "\u061C"])(
    "U+%s is refused on the name field, and nothing is asked for approval",
    async (control) => {
      const code = `MRC-07${control.codePointAt(0)!.toString().slice(-2)}`;
      const refused = await addMerchant(merchant(code, `Ɔkyeame ${control}gnp.exe Stores`));
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toContain("reverses how text is shown");
      const db = await portal().db();
      const asked = await db
        .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND json_extract(after_json, '$.code') = ?")
        .bind(KUMASI, code)
        .first<number>("n");
      expect(asked).toBe(0);
    },
  );

  it("a name in Ghanaian letters and emoji still passes", async () => {
    expect((await addMerchant(merchant("MRC-0799", "Ɔkyeame Ɛnterprise Ŋ 🍍"))).status).toBe(302);
  });
});

describe("a team invitation's name with a bidirectional control", () => {
  async function invite(name: string, email: string): Promise<Response> {
    return portal().fetch("/settings?tab=team", {
      method: "POST",
      headers: {
        Origin: portal().url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
        ...(await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI)),
      },
      body: new URLSearchParams({ intent: "invite", name, email, phone: "024 555 0177", gender: "female", role: "Operations" }).toString(),
    });
  }
  const asked = async (email: string) =>
    (await portal().db())
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND json_extract(after_json, '$.email') = ?")
      .bind(KUMASI, email)
      .first<number>("n");

  it("U+202E is refused on the name field, and nothing is asked for approval", async () => {
    const refused = await invite("Efua \u202EoddA", "efua.rtl@example.com");
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(bidiControlMessage("name"));
    expect(html).toMatch(/id="invite-name"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="invite-name"/);
    expect(await asked("efua.rtl@example.com")).toBe(0);
  });

  it("a name in Ghanaian letters and emoji is asked for approval", async () => {
    const sent = await invite("Ɔforiwaa Ɛsi Ŋ 🌺", "oforiwaa.esi@example.com");
    expect(sent.status).toBeLessThan(400);
    expect(await asked("oforiwaa.esi@example.com")).toBe(1);
  });
});
