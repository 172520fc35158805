// A notice's words go to email and the bell: nothing a person sends along (a reason, a merchant's name) may carry a
// card number, or a phone or account number in full, however it is written; names from Ghana and emoji pass whole.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import { cardNumber, numeralSpelling } from "../../tests/support/card-spellings";
import { ROLES } from "../permissions";
import {
  choicesFor,
  decidedWords,
  isAlwaysSent,
  isChoosable,
  kindHasChannel,
  kindIsFor,
  NOTIFICATION_KINDS,
  requestAsks,
  safeWords,
  waitingWords,
  wantsByDefault,
} from "./kinds";

const text = fc.string({ unit: "grapheme", maxLength: 40 });

describe("safeWords", () => {
  it("leaves no card number, however it is spelled", () => {
    fc.assert(
      fc.property(
        text,
        fc.oneof(
          cardNumber,
          numeralSpelling.map((s) => s.text),
        ),
        text,
        (before, number, after) => {
          const safe = safeWords(`${before} ${number} ${after}`);
          expect(looksLikeCardNumber(safe), safe).toBe(false);
        },
      ),
    );
  });

  it("leaves no phone or account number whole, however it is spaced, and keeps a payment's reference", () => {
    const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 7, maxLength: 16 });
    const gaps = fc.array(fc.constantFrom("", "", " ", "-"), { minLength: 16, maxLength: 16 });
    fc.assert(
      fc.property(text, digits, gaps, text, (before, number, between, after) => {
        const written = number.map((d, i) => `${d}${i < number.length - 1 ? between[i] : ""}`).join("");
        const safe = safeWords(`${before} ${written} ${after}`);
        // Masked to its last four, or wholly when the card scanner took it for a card number.
        expect(safe.replace(/[ -]/g, "")).not.toContain(number.join(""));
        expect(safe.includes(`••••${number.slice(-4).join("")}`) || !/[0-9]/.test(safe)).toBe(true);
      }),
    );
    expect(safeWords("Payment KFF-261104-0000002 and TRF-MRC-0002-a1b2c3d4")).toBe("Payment KFF-261104-0000002 and TRF-MRC-0002-a1b2c3d4");
  });

  it("keeps the last four digits of a phone or account number, and the rest of the words", () => {
    expect(safeWords("Call 0244 123 456 about account 1234567890123.")).toBe("Call ••••3456 about account ••••0123.");
    fc.assert(
      fc.property(fc.stringMatching(/^(?:[A-Za-zƆƐŊɔɛŋ ]|🍍){0,30}$/u), (words) => {
        expect(safeWords(words)).toBe(words.replace(/\s+/g, " ").trim());
      }),
    );
  });
});

describe("the words of a notice", () => {
  it("say who asks what, of which record, and a rejection's reason", () => {
    expect(waitingWords({ kind: "merchant", action: "create", maker: "Esi Owusu", subject: "Ɔkyeame Ŋkansa 🍍" })).toEqual({
      title: "A request waits for your decision",
      body: "Esi Owusu asks to add a merchant: Ɔkyeame Ŋkansa 🍍.",
    });
    expect(
      decidedWords({
        kind: "settlement_account",
        action: "update",
        status: "rejected",
        checker: "Kofi Boateng",
        subject: null,
        reason: "Wrong 4111 1111 1111 1111",
      }),
    ).toEqual({
      title: "Your request was rejected",
      body: "Kofi Boateng rejected your request to change the settlement account. Reason: Wrong #### #### #### ####",
    });
    expect(requestAsks("employee", "create")).toBe("invite an employee");
    expect(requestAsks("point_of_sale", "create")).toBe("add a point of sale");
    expect(requestAsks("transfer", "create")).toBe("move money in a transfer");
  });
});

describe("who a kind is for, and what they get unless they choose", () => {
  it("always sends security notices, and nobody can choose them away", () => {
    for (const kind of ["security.sign_in", "security.factor_changed", "security.signed_out_everywhere"] as const) {
      expect(isAlwaysSent(kind)).toBe(true);
      for (const role of ROLES) expect(wantsByDefault(kind, "email", role)).toBe(true);
      expect(isChoosable(kind, "email")).toBe(false);
    }
  });

  it("sends failed money to Finance by email, and to the administrators only when they turn it on; never to a Viewer", () => {
    expect(wantsByDefault("settlement.failed", "email", "Finance")).toBe(true);
    expect(wantsByDefault("settlement.failed", "email", "Administrator")).toBe(false);
    expect(kindIsFor("settlement.failed", "Viewer")).toBe(false);
    expect(kindIsFor("settlement.failed", "Operations")).toBe(false);
    expect(kindIsFor("payout.failed", "Super Administrator")).toBe(true);
  });

  it("uses SMS for the few kinds that warrant it, on only where it must be", () => {
    const bySms = NOTIFICATION_KINDS.filter((kind) => kindHasChannel(kind, "sms"));
    expect(bySms).not.toContain("request.approved");
    expect(bySms).not.toContain("digest");
    expect(ROLES.every((role) => !wantsByDefault("request.waiting", "sms", role))).toBe(true);
    expect(wantsByDefault("member.removed", "sms", "Viewer")).toBe(true);
  });

  it("lists a person's choices by their role, without the notice they get before they can choose", () => {
    expect(choicesFor("Viewer")).not.toContain("request.waiting");
    expect(choicesFor("Administrator")).toContain("webhook.failing");
    for (const role of ROLES) expect(choicesFor(role)).not.toContain("member.added");
  });
});
