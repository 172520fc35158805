import { describe, expect, it } from "vitest";
import { keptParams, narrowedQuery } from "./list-url";

describe("keptParams", () => {
  it("keeps what the form does not set, in order, and never the page or its trail", () => {
    const current = new URLSearchParams("range=custom&from=2026-11-01&to=2026-11-20&status=failed&page=3&trail=a.b&tx=pay_1");
    expect(keptParams(current, ["q", "status", "tx"])).toEqual([
      ["range", "custom"],
      ["from", "2026-11-01"],
      ["to", "2026-11-20"],
    ]);
  });

  it("passes names from Ghana and emoji through untouched", () => {
    expect(keptParams(new URLSearchParams({ q: "Ɛsi Ŋkansa 🍍", range: "30d" }), ["status"])).toEqual([
      ["q", "Ɛsi Ŋkansa 🍍"],
      ["range", "30d"],
    ]);
  });
});

describe("narrowedQuery", () => {
  it("leaves out empty fields and fields at their default, and trims what is typed", () => {
    const fields: [string, string][] = [
      ["range", "30d"],
      ["q", "  0244 "],
      ["status", ""],
      ["sort", "newest"],
    ];
    expect(narrowedQuery(fields, { sort: "newest" }).toString()).toBe("range=30d&q=0244");
  });

  it("sends each name once: the form's own field, after a kept one, wins, and an emptied one removes it", () => {
    const fields: [string, string][] = [
      ["status", "failed"],
      ["channel", "card"],
      ["status", "successful"],
      ["channel", " "],
    ];
    expect([...narrowedQuery(fields)]).toEqual([["status", "successful"]]);
  });
});
