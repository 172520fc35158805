import { describe, expect, it } from "vitest";
import { isNetworkFailure } from "./submission";

describe("isNetworkFailure", () => {
  it.each(["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed", "Network request failed", "fetch failed"])(
    "is a TypeError saying %j (no answer came)",
    (message) => {
      expect(isNetworkFailure(new TypeError(message))).toBe(true);
    },
  );

  it("is not a bug in the page, nor a server's answer, nor anything else", () => {
    expect(isNetworkFailure(new TypeError("Cannot read properties of undefined (reading 'reason')"))).toBe(false);
    expect(isNetworkFailure(new Error("Failed to fetch"))).toBe(false);
    expect(isNetworkFailure(new Response(null, { status: 500 }))).toBe(false);
    expect(isNetworkFailure("Failed to fetch")).toBe(false);
    expect(isNetworkFailure(null)).toBe(false);
  });
});
