// Each SMS provider through the built Worker (decision 040): with SMS_PROVIDER and its settings as vars, a
// sign-in code reaches the provider's local fake (tests/support/fake-sms-providers.ts) in the documented request and
// signs the person in; a refusal (a bad number, a refused key, no balance) shows the person words they can act on, on
// /authenticate with the phone choice still there, and in the fresh-check dialog's answer; the log and the audit log
// keep the provider's own answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import { CODE_MESSAGES } from "#server/auth/one-time-codes";
import { OTP_MESSAGES } from "#server/auth/otp";
import { CHECK_MESSAGES } from "#server/auth/fresh-check";
import { startFakeSmsProviders, type FakeSmsProviders, type ProviderName } from "../support/fake-sms-providers";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ESI_KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const PROVIDERS: ProviderName[] = ["arkesel", "hubtel", "mnotify", "africastalking", "twilio"];

let fake: FakeSmsProviders;
beforeAll(async () => {
  fake = await startFakeSmsProviders();
});
afterAll(() => fake?.close());

let serial = 0;

describe.each(PROVIDERS)("SMS_PROVIDER=%s", (provider) => {
  const lines: string[] = [];
  const portal = usePortal(() => ({ vars: fake.vars(provider), logTo: (line) => lines.push(line) }));

  /** A fresh person (limits never carry over) with one linked phone; returns the email and the number. */
  async function freshPerson(): Promise<{ email: string; msisdn: string }> {
    serial += 1;
    const email = `sms.${provider}.${serial}@example.com`;
    const msisdn = `23324${String(8_000_000 + serial).padStart(7, "0")}`;
    const db = await portal().db();
    const at = new Date().toISOString();
    await db.batch([
      db
        .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)")
        .bind(`usr_sms_${serial}`, email, `Ɔkyeame Ɛsi ${serial}`, at),
      db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(`usr_sms_${serial}`, msisdn, at),
    ]);
    return { email, msisdn };
  }

  function postForm(path: string, form: Record<string, string>, cookie = "") {
    return portal().fetch(path, {
      method: "POST",
      headers: {
        Origin: portal().url,
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": `198.51.100.${serial % 250}`,
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
  }

  function sessionCookieOf(response: Response): string {
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("pp_session=ey"));
    if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
    return cookie.split(";")[0]!;
  }

  async function identified(email: string): Promise<string> {
    const response = await postForm("/login-option", { email });
    expect(response.headers.get("Location")).toBe("/authenticate");
    return sessionCookieOf(response);
  }

  it("a sign-in code reaches the provider in its documented request, and signs the person in", async () => {
    fake.mode = "ok";
    const { email, msisdn } = await freshPerson();
    const cookie = await identified(email);
    const before = fake.received.length;
    const sent = await postForm("/authenticate", { phone: "0" }, cookie);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/authenticate/verify");
    const received = fake.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ provider, to: expect.stringMatching(new RegExp(`^\\+?${msisdn}$`)) as string });
    const code = /\b(\d{6})\b/.exec(received[0]!.body)![1]!;
    const verified = await postForm("/authenticate/verify", { intent: "verify", code }, sessionCookieOf(sent));
    expect(verified.status).toBe(302);
    expect(verified.headers.get("Location")).not.toMatch(/authenticate/);
    expect(fake.violations).toEqual([]);
  });

  it("a refused number or key: /authenticate says what to do, keeps the phone choice, and the log says why", async () => {
    for (const [mode, words] of [
      ["number", CODE_MESSAGES.numberRefused],
      ["auth", OTP_MESSAGES.noSms],
      ["balance", OTP_MESSAGES.noSms],
    ] as const) {
      fake.mode = mode;
      const { email } = await freshPerson();
      const response = await postForm("/authenticate", { phone: "0" }, await identified(email));
      expect(response.status, mode).toBe(400);
      const html = await response.text();
      expect(textOf(html)).toContain(words);
      // The person's place: the same page, with the phone choice to try again or pick another.
      expect(html).toContain('name="phone"');
      expect(html).not.toMatch(/Internal Server Error/);
    }
    fake.mode = "ok";
    const audit = await portal().core().prepare("SELECT after_json FROM audit_log WHERE action = 'auth.otp.send_failed'").all<{ after_json: string }>();
    expect(audit.results.map((row) => (JSON.parse(row.after_json) as { refusal: string }).refusal).sort()).toEqual(["auth", "balance", "number"]);
    expect(audit.results.every((row) => (JSON.parse(row.after_json) as { via: string }).via === provider)).toBe(true);
    await expect.poll(() => lines.some((line) => line.includes('"event":"sms.not_sent"') && line.includes('"refusal":"balance"'))).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it("the fresh-check dialog's answer says what to do when the provider refuses", async () => {
    const id = await requestChange(ESI_KUMASI, META, {
      kind: "merchant",
      action: "create",
      after: {
        code: `MER-S${String(serial).padStart(4, "0")}`,
        name: `Ɛnam Foods ${serial}`,
        trading_name: `Ɛnam ${serial}`,
        tin: `C${String(7_200_000_000 + serial)}`,
        sector: "Retail",
        town: "Kumasi",
        region: "Ashanti",
        address: "12 Adum Road",
        contact_name: "Ama Ɔkomfo",
        contact_phone: "233244000333",
        contact_email: "enam@example.com",
      },
    });
    const kofi = await signedInCookie(portal(), "kofi.boateng@example.com");
    fake.mode = "sender";
    const refused = await portal().fetch("/auth/check", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.250", ...kofi },
      body: JSON.stringify({ intent: "send-code", binding: `decide:${id}` }),
    });
    fake.mode = "ok";
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: CHECK_MESSAGES.noSms });
    expect(fake.violations).toEqual([]);
  });
});
