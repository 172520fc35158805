import { describe, expect, it } from "vitest";
import { pageWindow } from "./pagination";

describe("pageWindow (SPEC 9: previous, current and next, padded to three)", () => {
  it.each([
    [1, 9, [1, 2, 3]],
    [2, 9, [1, 2, 3]],
    [3, 9, [2, 3, 4]],
    [5, 9, [4, 5, 6]],
    [8, 9, [7, 8, 9]],
    [9, 9, [7, 8, 9]],
    [1, 3, [1, 2, 3]],
    [2, 3, [1, 2, 3]],
    [3, 3, [1, 2, 3]],
    [1, 2, [1, 2]],
    [2, 2, [1, 2]],
    [1, 1, [1]],
  ])("page %s of %s -> %j", (current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it.each([
    [1, 0],
    [0, 0],
    [1, -3],
    [1, 0.5],
    [1, Number.NaN],
    [1, Number.POSITIVE_INFINITY],
  ])("page %s of %s pages -> []", (current, total) => {
    expect(pageWindow(current, total)).toEqual([]);
  });

  it.each([
    ["above the last page", 20, 9, [7, 8, 9]],
    ["zero", 0, 9, [1, 2, 3]],
    ["negative", -4, 9, [1, 2, 3]],
    ["NaN", Number.NaN, 9, [1, 2, 3]],
    ["above the only page", 5, 1, [1]],
    ["fractional", 5.7, 9, [4, 5, 6]],
  ])("clamps a current page %s", (_label, current, total, expected) => {
    expect(pageWindow(current, total)).toEqual(expected);
  });

  it("treats a fractional page count as its whole pages", () => {
    expect(pageWindow(3, 3.9)).toEqual([1, 2, 3]);
  });

  it("always includes the (clamped) current page and never more than three pages", () => {
    for (let total = 1; total <= 12; total += 1) {
      for (let current = 1; current <= total; current += 1) {
        const pages = pageWindow(current, total);
        expect(pages).toContain(current);
        expect(pages).toHaveLength(Math.min(3, total));
        expect(pages.every((p, i) => i === 0 || p === (pages[i - 1] ?? 0) + 1)).toBe(true);
        expect(pages[0]).toBeGreaterThanOrEqual(1);
        expect(pages[pages.length - 1]).toBeLessThanOrEqual(total);
      }
    }
  });
});
