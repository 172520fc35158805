import { describe, expect, it } from "vitest";
import { readMerchantSearch } from "./merchant-search";

describe("readMerchantSearch (SPEC 5: number-heavy means more digits than letters)", () => {
  it.each([
    ["", {}],
    ["   ", {}],
    ["Papa Kwaku", { search: "Papa Kwaku" }],
    ["Ɔkɔdeɛ 24", { search: "Ɔkɔdeɛ 24" }],
    ["mrc 12", { search: "mrc 12" }],
    ["mrc 0012", { number: { plain: "MRC0012", phone: "012" } }],
    ["MRC-0012", { number: { plain: "MRC0012", phone: "012" } }],
    ["024 412 3456", { number: { plain: "0244123456", phone: "233244123456" } }],
    ["+233 24 412 3456", { number: { plain: "+233244123456", phone: "233244123456" } }],
    ["C00-1234", { number: { plain: "C001234", phone: "01234" } }],
    ["12", { number: { plain: "12", phone: null } }],
  ])("%j → %j", (typed, expected) => {
    expect(readMerchantSearch(typed)).toEqual(expected);
  });
});
