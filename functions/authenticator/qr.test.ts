// The QR encoder against the standard's known values (Reed-Solomon, format and version bits, capacities) and two
// symbols that a reader decoded back to their text (zbarimg, when they were made), kept as fingerprints.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dataCodewords, dataCodewordsOf, formatBits, interleaved, qrModules, qrSvg, rsDivisor, rsRemainder, versionBits, versionFor } from "./qr";

const fingerprint = (modules: boolean[][]) =>
  createHash("sha256")
    .update(modules.map((row) => row.map((dark) => (dark ? "1" : "0")).join("")).join("\n"))
    .digest("hex");

describe("QR code", () => {
  it("computes Reed-Solomon error correction as the standard's worked example (1-M, HELLO WORLD)", () => {
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect(rsRemainder(data, rsDivisor(10))).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  });

  it("writes the format bits of level M for each mask, and the version bits", () => {
    const expected = [
      0b101010000010010, 0b101000100100101, 0b101111001111100, 0b101101101001011, 0b100010111111001, 0b100000011001110, 0b100111110010111, 0b100101010100000,
    ];
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(formatBits)).toEqual(expected);
    expect(versionBits(7)).toBe(0b000111110010010100);
    expect(versionBits(10)).toBe(0b001010010011010011);
  });

  it("holds the standard's byte capacities at level M", () => {
    // Data codewords of versions 1 to 10 at level M (table 7), and the bytes each holds in byte mode.
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(dataCodewords)).toEqual([16, 28, 44, 64, 86, 108, 124, 154, 182, 216]);
    expect(versionFor(14)).toBe(1);
    expect(versionFor(15)).toBe(2);
    expect(versionFor(180)).toBe(9);
    expect(versionFor(181)).toBe(10);
    expect(versionFor(213)).toBe(10);
    expect(() => versionFor(214)).toThrow(RangeError);
  });

  it("pads the data with 0xEC and 0x11 after the terminator", () => {
    const codewords = dataCodewordsOf(new TextEncoder().encode("A"), 1);
    expect(codewords.slice(0, 4)).toEqual([0x40, 0x14, 0x10, 0xec]);
    expect(codewords.slice(4, 6)).toEqual([0x11, 0xec]);
    expect(codewords).toHaveLength(16);
    expect(interleaved(codewords, 1)).toHaveLength(26);
    // Version 5: two blocks of 43, interleaved, then their error correction.
    expect(interleaved(dataCodewordsOf(new Uint8Array(80), 5), 5)).toHaveLength(134);
  });

  it("draws symbols a reader decodes (fingerprints of ones decoded when they were made)", () => {
    const uri =
      "otpauth://totp/Partners%20Portal:ama.mensah@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Partners%20Portal&algorithm=SHA1&digits=6&period=30";
    const hello = qrModules("HELLO");
    expect(hello).toHaveLength(21);
    expect(fingerprint(hello)).toBe("71bc9ab3ffcaa0d281e4873d98c839634768a360dd4020111d405a3c41752367");
    const enrolment = qrModules(uri);
    expect(enrolment).toHaveLength(53);
    expect(fingerprint(enrolment)).toBe("d48d84270c68be6964320a8c777396b8906cc7e474a478a74954c71aa2ae2bf0");
  });

  it("renders SVG with a quiet zone and its label escaped", () => {
    const svg = qrSvg("HELLO", 'Scan "this" & <go>');
    expect(svg).toContain('viewBox="0 0 29 29"');
    expect(svg).toContain('aria-label="Scan &quot;this&quot; &amp; &lt;go>"');
    expect(svg.startsWith("<svg")).toBe(true);
  });
});
