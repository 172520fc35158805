// The list machinery's pure parts: the URL's page and trail, page numbers from
// keyset pages, and CSV fields that a spreadsheet cannot turn into formulas.
import { describe, expect, it } from "vitest";
import { csvField, csvLine } from "#server/plumbing/csv";
import { MAX_PAGES_WALKED, encodeCursor, numberedPage, type Page } from "#server/lists/page";
import { filterHref, pageHref, readPage, readTrail } from "#app/lib/lists/list-url";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";

/** 10 rows, 3 a page, as a keyset loader would give them; counts the queries. */
function loader(total = 10, size = 3) {
  const calls: (string | null)[] = [];
  const load = async (after: string | null): Promise<Page<number>> => {
    calls.push(after);
    const start = after === null ? 0 : Number(JSON.parse(atob(after))[0]) + 1;
    const rows = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
    const last = rows.at(-1);
    return { rows, next: last !== undefined && last + 1 < total ? encodeCursor([last]) : null };
  };
  return { load, calls };
}

describe("numberedPage", () => {
  it("page 1 is one query and its trail opens page 2", async () => {
    const { load, calls } = loader();
    const page = await numberedPage(load, [], 1);
    expect(page.rows).toEqual([0, 1, 2]);
    expect(page.number).toBe(1);
    expect(page.trail).toHaveLength(1);
    expect(calls).toEqual([null]);
  });

  it("a page whose cursor is in the trail is one query", async () => {
    const { load, calls } = loader();
    const first = await numberedPage(load, [], 1);
    const second = await numberedPage(load, first.trail, 2);
    const third = await numberedPage(load, second.trail, 3);
    expect(third.rows).toEqual([6, 7, 8]);
    expect(calls).toHaveLength(3);
  });

  it("a page just ahead of the trail reads the pages in between, at most MAX_PAGES_WALKED", async () => {
    const { load, calls } = loader(100);
    const page = await numberedPage(load, [], 3);
    expect(page.number).toBe(3);
    expect(page.rows).toEqual([6, 7, 8]);
    expect(calls).toHaveLength(3);
    const far = loader(100);
    const capped = await numberedPage(far.load, [], 50);
    expect(capped.number).toBe(MAX_PAGES_WALKED + 1);
    expect(far.calls).toHaveLength(MAX_PAGES_WALKED + 1);
  });

  it("a page past the end shows the last page, with no next", async () => {
    const { load } = loader(5);
    const page = await numberedPage(load, [], 3);
    expect(page.number).toBe(2);
    expect(page.rows).toEqual([3, 4]);
    expect(page.next).toBeNull();
  });

  it("nonsense page numbers mean page 1", async () => {
    for (const wanted of [0, -4, Number.NaN]) expect((await numberedPage(loader().load, [], wanted)).number).toBe(1);
  });
});

describe("list URLs", () => {
  it("keep the filters, set the page and carry the trail up to it", () => {
    const params = new URLSearchParams("q=kwaku&status=active&page=2&trail=AAA");
    expect(pageHref(params, 3, ["AAA", "BBB", "CCC"])).toBe("?q=kwaku&status=active&page=3&trail=AAA.BBB");
    expect(pageHref(params, 1, ["AAA"])).toBe("?q=kwaku&status=active");
  });

  it("a changed filter goes back to page 1", () => {
    const params = new URLSearchParams("q=kwaku&page=4&trail=A.B.C");
    expect(filterHref(params, { status: "inactive" })).toBe("?q=kwaku&status=inactive");
    expect(filterHref(params, { q: null })).toBe("?");
  });

  it("read only well-formed pages and cursors", () => {
    expect(readPage(new URLSearchParams("page=7"))).toBe(7);
    for (const bad of ["0", "-1", "2.5", "abc", "99999999"]) expect(readPage(new URLSearchParams(`page=${bad}`)), bad).toBe(1);
    expect(readTrail(new URLSearchParams("trail=abc_-1.<script>.def"))).toEqual(["abc_-1", "def"]);
  });

  it("drop a filter value that does not fit instead of failing the page", () => {
    const url = new URL("https://portal.test/merchants?q=%20Kwaku%20&status=deleted&sort=newest");
    const { filters } = listParams(url, { q: searchParam, status: oneOf(["active", "inactive"] as const), sort: oneOf(["name", "newest"] as const) });
    expect(filters).toEqual({ q: "Kwaku", status: undefined, sort: "newest" });
  });
});

describe("CSV fields", () => {
  it("quote commas, quotes and line breaks", () => {
    expect(csvLine(["Papa Kwaku's, Ltd", 'The "best"', "two\nlines", 42, null])).toBe('"Papa Kwaku\'s, Ltd","The ""best""","two\nlines",42,\r\n');
  });

  it("neutralise text a spreadsheet would run as a formula", () => {
    for (const formula of ['=HYPERLINK("http://evil")', "+233", "-1+1", "@SUM(A1)", "\tx"]) expect(csvField(formula).replace(/^"/, "")).toMatch(/^'/);
    // Numbers stay numbers.
    expect(csvField(-5)).toBe("-5");
  });
});
