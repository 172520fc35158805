import { describe, expect, it } from "vitest";
import { readTrail } from "#app/lib/lists/list-url";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decodeCursor, encodeCursor, pageSize, toPage } from "./page";

describe("cursors", () => {
  it("round-trip a key of strings and numbers, URL-safe", () => {
    const cursor = encodeCursor(["Ama's Shop/ü?", 42]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 2)).toEqual(["Ama's Shop/ü?", 42]);
  });

  // Names as people in Ghana write them: Akan, Ga and Ewe letters, emoji, Arabic script, and all at once.
  it.each(["Ɔkyeame Ɛnterprise", "Nkrumah Ŋmɛ", "Kofi's 🍍 Stall", "مطعم السلام", 'Ɛsi\'s 🍲 Chop Bar — مطعم, "Ŋutifafa" / 100%', "👩🏾‍🍳"])(
    "round-trip %s, URL-safe",
    (name) => {
      const cursor = encodeCursor([name, "mer_0001"]);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor, 2)).toEqual([name, "mer_0001"]);
    },
  );

  it("the longest name a form takes still makes a cursor the page trail keeps", () => {
    // 120 characters of three UTF-8 bytes each: more than any Ghanaian or Arabic name takes.
    const cursor = encodeCursor(["ꝏ".repeat(120), "mer_ffffffffffffffffffffffffffffff"]);
    expect(readTrail(new URLSearchParams({ trail: `${encodeCursor(["a", "b"])}.${cursor}` }))).toEqual([encodeCursor(["a", "b"]), cursor]);
  });

  it.each([
    ["empty", ""],
    ["garbage", "%%%"],
    ["not base64 JSON", btoa("hello")],
    ["an object", btoa(JSON.stringify({ a: 1 }))],
    ["a nested value", btoa(JSON.stringify([[1], 2]))],
    ["base64 of bytes that are not UTF-8", btoa('["\xFCber", 1]').replace(/=+$/, "")],
    ["a cursor with characters base64url has not", "WyLGhmTJlCIsMV0+/"],
  ])("a cursor that is %s starts the list again", (_name, cursor) => {
    expect(decodeCursor(cursor, 2)).toBeNull();
  });

  it("a cursor of another list's shape starts again", () => {
    expect(decodeCursor(encodeCursor([1]), 2)).toBeNull();
  });
});

describe("page sizes", () => {
  it.each([
    [undefined, DEFAULT_PAGE_SIZE],
    [0, 1],
    [-5, 1],
    [10.7, 10],
    [10_000, MAX_PAGE_SIZE],
    [Number.NaN, DEFAULT_PAGE_SIZE],
  ])("%s gives %i", (asked, size) => {
    expect(pageSize(asked)).toBe(size);
  });
});

describe("toPage", () => {
  it("gives a next cursor only when an extra row was fetched", () => {
    const key = (n: number) => [n];
    expect(toPage([1, 2, 3], 2, key)).toEqual({ rows: [1, 2], next: encodeCursor([2]) });
    expect(toPage([1, 2], 2, key)).toEqual({ rows: [1, 2], next: null });
    expect(toPage([], 2, key)).toEqual({ rows: [], next: null });
  });
});
