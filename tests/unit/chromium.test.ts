import { afterEach, describe, expect, it } from "vitest";
import { chromiumPath, testBrowserPath } from "../support/chromium";

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

describe("testBrowserPath", () => {
  it("prefers the headless shell when it is installed and CHROMIUM_PATH is not set", () => {
    delete process.env.CHROMIUM_PATH;
    expect(testBrowserPath(process.execPath)).toBe(process.execPath);
  });

  it("falls back to Chromium when the shell is not installed", () => {
    delete process.env.CHROMIUM_PATH;
    const outcome = (pick: () => string) => {
      try {
        return pick();
      } catch (error) {
        return String(error);
      }
    };
    expect(outcome(() => testBrowserPath("/nonexistent/shell"))).toBe(outcome(chromiumPath));
  });

  it("lets CHROMIUM_PATH win over the shell", () => {
    process.env.CHROMIUM_PATH = process.execPath;
    expect(testBrowserPath("/nonexistent/shell")).toBe(process.execPath);
    expect(testBrowserPath(new URL(import.meta.url).pathname)).toBe(process.execPath); // a shell that exists
  });
});
