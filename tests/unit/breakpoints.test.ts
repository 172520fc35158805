import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MOBILE_MAX_WIDTH, MOBILE_MEDIA_QUERY, isMobileWidth } from "#app/lib/breakpoints";

describe("mobile breakpoint (SPEC 9: mobile at a width of 980 px or less)", () => {
  it("is 980 px", () => {
    expect(MOBILE_MAX_WIDTH).toBe(980);
    expect(MOBILE_MEDIA_QUERY).toBe("(max-width: 980px)");
  });

  it.each([
    [0, true],
    [320, true],
    [979, true],
    [980, true],
    [980.5, false],
    [981, false],
    [1280, false],
  ])("width %s is mobile: %s", (width, expected) => {
    expect(isMobileWidth(width)).toBe(expected);
  });
});

describe("app/styles/app.css", () => {
  const cssPath = resolve(import.meta.dirname, "../../app/styles/app.css");
  const css = readFileSync(cssPath, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const preludes = [...css.matchAll(/@media\b([^{]*)\{/g)].map((m) => (m[1] ?? "").trim());
  // Every parenthesised media feature that mentions a width (min-/max-width,
  // device widths, range syntax), normalised to "name: value".
  const widthFeatures = preludes.flatMap((prelude) =>
    [...prelude.matchAll(/\(([^()]*width[^()]*)\)/gi)].map((m) =>
      (m[1] ?? "")
        .trim()
        .replace(/\s+/g, " ")
        .replace(/\s*:\s*/, ": ")
        .toLowerCase(),
    ),
  );

  it("has media queries", () => {
    expect(preludes.length).toBeGreaterThan(0);
  });

  it("uses exactly one width breakpoint, max-width: 980px", () => {
    expect(new Set(widthFeatures)).toEqual(new Set(["max-width: 980px"]));
  });

  it("writes that breakpoint as MOBILE_MEDIA_QUERY", () => {
    expect(preludes).toContain(MOBILE_MEDIA_QUERY);
  });
});
