import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, decodeCursor, encodeCursor, likePattern, pageSize, toPage } from "../../functions/data/page";

describe("cursors", () => {
  it("round-trip a key of strings and numbers, URL-safe", () => {
    const cursor = encodeCursor(["Ama's Shop/ü?", 42]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 2)).toEqual(["Ama's Shop/ü?", 42]);
  });

  it.each([
    ["empty", ""],
    ["garbage", "%%%"],
    ["not base64 JSON", btoa("hello")],
    ["an object", btoa(JSON.stringify({ a: 1 }))],
    ["a nested value", btoa(JSON.stringify([[1], 2]))],
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

describe("likePattern", () => {
  it("escapes the user's wildcards", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(likePattern("MTN", "prefix")).toBe("MTN%");
  });
});
