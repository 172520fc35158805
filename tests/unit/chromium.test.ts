import { afterEach, describe, expect, it } from "vitest";
import { chromiumPath } from "../support/chromium";

const saved = process.env.CHROMIUM_PATH;
afterEach(() => {
  if (saved === undefined) delete process.env.CHROMIUM_PATH;
  else process.env.CHROMIUM_PATH = saved;
});

describe("chromiumPath", () => {
  it("says how to get a browser when none is found", () => {
    process.env.CHROMIUM_PATH = "/nonexistent/chromium";
    expect(() => chromiumPath()).toThrow(/No Chromium found at \/nonexistent\/chromium.*apt-get install chromium.*CHROMIUM_PATH/);
  });

  it("uses CHROMIUM_PATH when it exists", () => {
    process.env.CHROMIUM_PATH = process.execPath; // any existing executable
    expect(chromiumPath()).toBe(process.execPath);
  });
});
