// The words of the notices besides requests: safe whatever people typed (no card, phone or account number whole, no
// secret in a webhook URL), names from Ghana and emoji whole, a browser named as people know it, the digest's lines
// capped and counted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import { cardNumber } from "../../tests/support/card-spellings";
import { browserName, digestWords, memberWords, refundFailedWords, securityWords, webhookWords } from "./event-words";
import { noticeSms, SMS_MAX_CHARACTERS } from "./send";

const text = fc.string({ unit: "grapheme", maxLength: 60 });

describe("the notices' words", () => {
  it("carry no card number or whole phone number, whatever the reason or name typed", () => {
    fc.assert(
      fc.property(text, cardNumber, fc.stringMatching(/^0[2-5]\d{8}$/), (name, card, phone) => {
        const refund = refundFailedWords({ merchant: name, amount: 12_345, reference: "KFF-261104-0000002", reason: `card ${card} and wallet ${phone}` });
        expect(looksLikeCardNumber(refund.body), refund.body).toBe(false);
        expect(refund.body).not.toContain(phone);
      }),
    );
  });

  it("keep a payment's reference and the amount whole beside a masked phone number", () => {
    fc.assert(
      fc.property(text, fc.stringMatching(/^0[2-5]\d{8}$/), (name, phone) => {
        const refund = refundFailedWords({ merchant: name, amount: 12_345, reference: "KFF-261104-0000002", reason: `wallet ${phone} closed` });
        expect(refund.body).not.toContain(phone);
        expect(refund.body).toContain(`••••${phone.slice(-4)}`);
        expect(refund.body).toContain("KFF-261104-0000002");
        expect(refund.body).toContain("GHS 123.45");
      }),
    );
  });

  it("name Ghana's people whole", () => {
    expect(memberWords({ action: "added", business: "Ɔdɔ Ŋkwa Foods 🍊", role: "Finance", by: "Ɛsi Mensah" }).body).toBe(
      "Ɛsi Mensah added you to Ɔdɔ Ŋkwa Foods 🍊 as Finance. Sign in to start.",
    );
  });

  it("name a webhook endpoint by its host only: a path may carry a partner's token", () => {
    const words = webhookWords({ disabled: false, url: "https://hooks.example.com/in/sk_live_abc123?token=xyz", reason: null });
    expect(words.body).toContain("hooks.example.com");
    expect(words.body).not.toMatch(/sk_live|token|xyz/);
    expect(webhookWords({ disabled: true, url: "not a url", reason: "Disabled" }).body).toContain("an endpoint");
  });

  it("name a browser as people know it, never its whole user agent", () => {
    expect(browserName("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36")).toBe("Chrome on Android");
    expect(browserName("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1")).toBe(
      "Safari on iOS",
    );
    expect(browserName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0")).toBe("Edge on Windows");
    expect(browserName(null)).toBe("an unknown browser");
    const words = securityWords({ action: "auth.passkey.added", at: "2026-12-04T14:05:00.000Z", userAgent: "curl/8.0 secret-agent-string" });
    expect(words.body).toBe(
      "A passkey was added to your sign-in (a browser, 04 Dec 2026 14:05). If this was not you, sign out everywhere from Settings and tell your administrator.",
    );
  });

  it("list at most the digest's lines, and count the rest", () => {
    const lines = Array.from({ length: 13 }, (_, i) => `Your request was approved: line ${i}`);
    const words = digestWords({ day: Date.UTC(2026, 11, 5), waiting: 1, lines, silent: 1, limit: 10 });
    expect(words.title).toBe("Your digest for 05 Dec 2026");
    const out = words.body.split("\n");
    expect(out[0]).toBe("1 request waits for your decision.");
    expect(out.filter((line) => line.startsWith("• Your request"))).toHaveLength(10);
    expect(out).toContain("• and 3 more under the bell.");
    expect(out.at(-1)).toBe("1 terminal is silent (not seen for a day): POS Terminals, Silent, lists them.");
  });

  it("keep a text message short and without a link, however long the notice", () => {
    fc.assert(
      fc.property(text, fc.string({ unit: "grapheme", maxLength: 600 }), fc.boolean(), (title, body, test) => {
        const sms = noticeSms({ businessName: "Kumasi Fresh Foods", title, body, test });
        expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARACTERS);
        expect(sms.startsWith(test ? "[Test] Partners Portal, Kumasi Fresh Foods: " : "Partners Portal, Kumasi Fresh Foods: ")).toBe(true);
      }),
    );
  });
});
