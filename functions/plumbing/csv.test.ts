// A CSV export holds exactly the filtered rows or fails visibly: the
// first page is read before the answer exists, an empty list ends after its header row, and a page that fails
// later errors the download rather than ending it as if the list were shorter.
import { describe, expect, it } from "vitest";
import { INCOMPLETE, csvLine, csvResponse } from "./csv";
import type { Page } from "../lists/page";

const COLUMNS = [{ header: "Name", value: (row: { name: string }) => row.name }];

/** Pages of the given names, cursor "1", "2"...; `fail` names the page (0-based) whose load throws. */
function pages(names: string[][], fail?: number) {
  const asked: (string | null)[] = [];
  const load = async (after: string | null): Promise<Page<{ name: string }>> => {
    asked.push(after);
    const index = after === null ? 0 : Number(after);
    if (index === fail) throw new Error("D1_ERROR: LIKE or GLOB pattern too complex");
    return { rows: (names[index] ?? []).map((name) => ({ name })), next: index + 1 < names.length ? String(index + 1) : null };
  };
  return { load, asked };
}

const decoded = async (response: Response) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());

describe("csvResponse", () => {
  it("answers an empty list with the header row alone, and ends", async () => {
    const response = await csvResponse("x.csv", COLUMNS, pages([[]]).load);
    expect(await decoded(response)).toBe("\uFEFFName\r\n");
  });

  it("holds every row of every page, Ɔ, Ɛ, Ŋ and emoji included", async () => {
    const { load, asked } = pages([["Ɔkɔdeɛ"], ["Ŋmɛ 🎉", "Ama"], ["Kofi"]]);
    const response = await csvResponse("x.csv", COLUMNS, load);
    expect(await decoded(response)).toBe("\uFEFFName\r\nƆkɔdeɛ\r\nŊmɛ 🎉\r\nAma\r\nKofi\r\n");
    expect(asked).toEqual([null, "1", "2"]);
  });

  it("goes on past a page with no rows that is not the last, and ends after the last", async () => {
    const response = await csvResponse("x.csv", COLUMNS, pages([["Ama"], [], []]).load);
    expect(await decoded(response)).toBe("\uFEFFName\r\nAma\r\n");
  });

  it("fails before answering when the first page fails: the loader's error, never a 200 with a header row", async () => {
    await expect(csvResponse("x.csv", COLUMNS, pages([["Ama"]], 0).load)).rejects.toThrow(/pattern too complex/);
  });

  it("errors the download when a later page fails, so it is not taken for a shorter list", async () => {
    const response = await csvResponse("x.csv", COLUMNS, pages([["Ama"], ["Kofi"], ["Esi"]], 2).load);
    expect(response.status).toBe(200);
    // (TextDecoderStream drops the byte-order mark.)
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const read = async (): Promise<void> => {
      const { done, value } = await reader.read();
      if (done) return;
      text += value;
      return read();
    };
    await expect(read()).rejects.toThrow(/pattern too complex/);
    // What was sent says so in its last line, should a proxy end the broken download as if it were whole.
    expect(text).toBe(`Name\r\nAma\r\nKofi\r\n${csvLine([INCOMPLETE])}`);
  });
});
