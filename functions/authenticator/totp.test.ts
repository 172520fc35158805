// RFC 6238 and RFC 4226's own test vectors, base32 (RFC 4648 section 10) and the enrolment URI apps scan.
import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, groupedSecret, hotp, matchingStep, otpauthUri, timeStep, totpAt } from "./totp";

// Both RFCs' secret: the ASCII of "12345678901234567890" (SHA-1 rows).
const SECRET = new TextEncoder().encode("12345678901234567890");

describe("TOTP", () => {
  it("gives RFC 6238 Appendix B's SHA-1 codes (8 digits, 30 s)", async () => {
    const rows: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
      [20000000000, "65353130"],
    ];
    for (const [seconds, code] of rows) expect(await totpAt(SECRET, seconds * 1000, 8)).toBe(code);
  });

  it("gives RFC 4226 Appendix D's HOTP values (6 digits)", async () => {
    const codes = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    for (const [counter, code] of codes.entries()) expect(await hotp(SECRET, counter)).toBe(code);
  });

  it("takes a code of the step before, now or after, never one of a step already used", async () => {
    const now = 1111111111 * 1000;
    const step = timeStep(now);
    const before = await hotp(SECRET, step - 1);
    const after = await hotp(SECRET, step + 1);
    expect(await matchingStep(SECRET, await hotp(SECRET, step), now, null)).toBe(step);
    expect(await matchingStep(SECRET, before, now, null)).toBe(step - 1);
    expect(await matchingStep(SECRET, after, now, null)).toBe(step + 1);
    expect(await matchingStep(SECRET, await hotp(SECRET, step - 2), now, null)).toBeNull();
    expect(await matchingStep(SECRET, await hotp(SECRET, step + 2), now, null)).toBeNull();
    // Replay: the step used last (or an earlier one) is not taken again.
    expect(await matchingStep(SECRET, await hotp(SECRET, step), now, step)).toBeNull();
    expect(await matchingStep(SECRET, before, now, step - 1)).toBeNull();
    expect(await matchingStep(SECRET, after, now, step)).toBe(step + 1);
    expect(await matchingStep(SECRET, "12345", now, null)).toBeNull();
    expect(await matchingStep(SECRET, "abcdef", now, null)).toBeNull();
  });
});

describe("base32", () => {
  it("encodes and decodes RFC 4648's vectors (without padding)", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "MY"],
      ["fo", "MZXQ"],
      ["foo", "MZXW6"],
      ["foob", "MZXW6YQ"],
      ["fooba", "MZXW6YTB"],
      ["foobar", "MZXW6YTBOI"],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(new TextEncoder().encode(plain))).toBe(encoded);
      expect(new TextDecoder().decode(base32Decode(encoded)!)).toBe(plain);
    }
    expect(base32Encode(SECRET)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });

  it("forgives how a secret is typed (case, spaces, padding) and refuses other letters", () => {
    expect(base32Decode("mzxw 6ytb oi======")).toEqual(new TextEncoder().encode("foobar"));
    expect(base32Decode("MZXW1")).toBeNull();
  });

  it("groups a secret by 4 for typing", () => {
    expect(groupedSecret("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")).toBe("GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ");
    expect(groupedSecret("ABCDEF")).toBe("ABCD EF");
  });
});

describe("the enrolment URI", () => {
  it("names the issuer twice, the account, and SHA-1, 6 digits, 30 s", () => {
    expect(otpauthUri("ama.mensah@example.com", "JBSWY3DPEHPK3PXP")).toBe(
      "otpauth://totp/Partners%20Portal:ama.mensah@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Partners%20Portal&algorithm=SHA1&digits=6&period=30",
    );
  });

  it("escapes what a label cannot hold", () => {
    expect(otpauthUri("a+b:c@example.com", "AAAA")).toMatch(/^otpauth:\/\/totp\/Partners%20Portal:a%2Bb%3Ac@example\.com\?/);
  });
});
