import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantTimeEqual, hex, sha256Hex } from "./sha256";

describe("constantTimeEqual", () => {
  // Texts as they are compared (hex, base64, "v1,..." signatures) and any other: Ghana's letters, emoji (two UTF-16
  // units), units that differ only above the low byte.
  const text = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.stringMatching(/^[0-9a-f]{0,64}$/),
    fc.string({ unit: fc.constantFrom("a", "Ɔ", "Ɛ", "Ŋ", "\u0161", "🎉", "\u0100"), maxLength: 12 }),
  );

  it("says two texts are the same exactly when they are", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
      }),
    );
  });

  it("finds one character changed anywhere, however small the change", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 64 }).map((units) => String.fromCharCode(...units)),
        fc.nat(),
        fc.integer({ min: 1, max: 0xffff }),
        (a, at, flip) => {
          const i = at % a.length;
          const changed = a.slice(0, i) + String.fromCharCode(a.charCodeAt(i) ^ flip) + a.slice(i + 1);
          expect(constantTimeEqual(a, a)).toBe(true);
          expect(constantTimeEqual(a, changed)).toBe(false);
          expect(constantTimeEqual(changed, a)).toBe(false);
        },
      ),
    );
  });

  it("tells a text from its own beginning or a longer one", () => {
    fc.assert(
      fc.property(text, fc.string({ minLength: 1, maxLength: 8 }), (a, more) => {
        expect(constantTimeEqual(a, a + more) || constantTimeEqual(a + more, a)).toBe(false);
      }),
    );
  });

  it("is the one such compare: no other server or app module writes its own", () => {
    const roots = ["functions", "app"].map((tree) => path.resolve(__dirname, "../..", tree));
    const modules = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) return modules(file);
        return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
      });
    // An XOR over two texts' characters, node's timingSafeEqual imported, or the Workers' crypto.subtle one called (the
    // API reference's example for a business's own server is a text shown, not an import of ours).
    const copies = roots
      .flatMap(modules)
      .filter((file) => !file.endsWith(path.join("plumbing", "sha256.ts")))
      .filter((file) =>
        /charCodeAt\([^)]*\)\s*\^|\^\s*\w+\.charCodeAt\(|^import\b[^;]*\btimingSafeEqual\b|\.timingSafeEqual\(/m.test(readFileSync(file, "utf8")),
      );
    expect(copies.map((file) => path.relative(path.resolve(__dirname, "../.."), file))).toEqual([]);
  });
});

describe("sha256Hex", () => {
  it("writes the digest as lowercase hex", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex(new Uint8Array([0, 15, 255]))).toBe("000fff");
  });
});
