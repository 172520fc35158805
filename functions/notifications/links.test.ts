// An unsubscribe link is its own authority (no session): only a token this portal signed opens it, for exactly the
// person, business, kind and channel it was signed for.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_KINDS } from "./kinds";
import { isUnsubscribePath, readUnsubscribeToken, unsubscribePath, unsubscribeToken } from "./links";

const SECRET = "a-session-secret-for-the-unsubscribe-links-0001";
const id = fc.stringMatching(/^[a-z0-9_~]{1,40}$/);
const what = fc.record({ businessId: id, userId: id, kind: fc.constantFrom(...NOTIFICATION_KINDS), channel: fc.constant("email" as const) });

describe("unsubscribe tokens", () => {
  it("read back as what they were signed for, and only under the key that signed them", async () => {
    await fc.assert(
      fc.asyncProperty(what, async (signed) => {
        const token = await unsubscribeToken(SECRET, signed);
        expect(await readUnsubscribeToken(SECRET, token)).toEqual(signed);
        expect(await readUnsubscribeToken(`${SECRET}-other`, token)).toBeNull();
        expect(isUnsubscribePath(unsubscribePath(token))).toBe(true);
      }),
    );
  });

  it("refuse any change to a token, and anything that is not one", async () => {
    await fc.assert(
      fc.asyncProperty(what, fc.nat(), fc.constantFrom(..."abcdefABCDEF0123456789-_."), async (signed, at, character) => {
        const token = await unsubscribeToken(SECRET, signed);
        const i = at % token.length;
        const changed = token.slice(0, i) + character + token.slice(i + 1);
        fc.pre(changed !== token);
        expect(await readUnsubscribeToken(SECRET, changed)).toBeNull();
      }),
    );
    for (const junk of ["", ".", "x.y", `${"A".repeat(500)}.${"0".repeat(64)}`, "%00.00"]) expect(await readUnsubscribeToken(SECRET, junk)).toBeNull();
  });
});
