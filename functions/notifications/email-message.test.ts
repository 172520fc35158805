// The email as a mail client gets it: the words escaped (a name is never markup), the links, the one-click headers,
// the test mark, and the same words as text.
import { describe, expect, it } from "vitest";
import { noticeEmailMessage, type NoticeEmail } from "./email-message";

const EMAIL: NoticeEmail = {
  to: "kofi.boateng@example.com",
  businessName: "Kumasi <Fresh> & Foods",
  kind: "request.waiting",
  title: "A request waits for your decision",
  body: 'Esi Owusu asks to add a merchant: <img src=x onerror="alert(1)"> Ɔkyeame 🍍.',
  openUrl: "https://portal.example.com/notifications/ntf_0123/open",
  unsubscribeUrl: "https://portal.example.com/notifications/unsubscribe/abc.def",
  preferencesUrl: "https://portal.example.com/settings#notifications",
  test: false,
  deliveryId: "ndl_0123_email",
};

describe("noticeEmailMessage", () => {
  it("escapes what people typed, links to the notice and carries RFC 8058's headers", () => {
    const message = noticeEmailMessage(EMAIL);
    expect(message.html).not.toContain("<img");
    expect(message.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; Ɔkyeame 🍍.");
    expect(message.html).toContain("Kumasi &lt;Fresh&gt; &amp; Foods");
    expect(message.html).toContain('href="https://portal.example.com/notifications/ntf_0123/open"');
    expect(message.html).not.toMatch(/<script/i);
    expect(message.text).toContain("Open in Partners Portal: https://portal.example.com/notifications/ntf_0123/open");
    expect(message.text).toContain(EMAIL.body);
    expect(message.headers).toEqual({
      "List-Unsubscribe": "<https://portal.example.com/notifications/unsubscribe/abc.def>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(message.subject).toBe("A request waits for your decision");
    expect(message.idempotencyKey).toBe("ndl_0123_email");
  });

  it("marks a test business's email as test, in the subject and the first lines", () => {
    const message = noticeEmailMessage({ ...EMAIL, test: true });
    expect(message.subject).toBe("[Test] A request waits for your decision");
    expect(message.text).toMatch(/^Partners Portal · Kumasi <Fresh> & Foods\nTest mode/);
    expect(message.html).toContain("Test mode: nothing here touches live money.");
  });

  it("a security notice has no unsubscribe, in the headers or the words, and says it is always sent", () => {
    const message = noticeEmailMessage({ ...EMAIL, kind: "security.factor_changed", title: "A passkey was added", unsubscribeUrl: null });
    expect(message.headers).toEqual({});
    expect(message.html).not.toContain("unsubscribe");
    expect(message.text).not.toContain("Stop these emails");
    expect(message.text).toContain("Security notices about your sign-in are always sent");
  });

  it("keeps a digest's lines on lines of their own", () => {
    const body = "3 requests wait for your decision.\n• Your request was approved: Kofi approved it.";
    const message = noticeEmailMessage({ ...EMAIL, kind: "digest", title: "Your digest for 05 Dec 2026", body });
    expect(message.text).toContain(body);
    expect(message.html).toContain("white-space:pre-line");
  });
});
