import { describe, expect, it } from "vitest";
import { DEFAULT_ERROR_MESSAGE, errorMessage } from "./errors";

describe("errorMessage (SPEC 8: data.message, response.data.message, message, fallback)", () => {
  const all = { data: { message: "data" }, response: { data: { message: "response" } }, message: "own" };

  it.each([
    ["all present: data.message first", all, "fallback", "data"],
    ["no data.message: response.data.message", { ...all, data: {} }, "fallback", "response"],
    ["only own message", { message: "own" }, "fallback", "own"],
    ["nothing: the fallback", {}, "fallback", "fallback"],
    ["empty data.message skipped", { ...all, data: { message: "" } }, "fallback", "response"],
    ["empty response message skipped", { data: { message: "" }, response: { data: { message: "" } }, message: "own" }, "fallback", "own"],
    ["all empty: the fallback", { data: { message: "" }, response: { data: { message: "" } }, message: "" }, "fallback", "fallback"],
    ["null data.message skipped", { data: { message: null }, message: "own" }, undefined, "own"],
    ["non-string data.message skipped", { data: { message: 42 }, response: { data: { message: "response" } } }, undefined, "response"],
    ["object message skipped", { message: { text: "x" } }, "fallback", "fallback"],
    ["data is a string", { data: "oops", message: "own" }, undefined, "own"],
    ["data is null", { data: null, response: null, message: "own" }, undefined, "own"],
    ["response.data is a string", { response: { data: "oops" }, message: "own" }, undefined, "own"],
    ["a blank message is skipped (it would show an empty alert)", { data: { message: " " }, message: "own" }, undefined, "own"],
    ["a blank fallback is none", {}, "  ", undefined],
  ])("%s", (_label, error, fallback, expected) => {
    expect(errorMessage(error, fallback)).toBe(expected);
  });

  it("reads an Error's own message", () => {
    expect(errorMessage(new Error("boom"), "fallback")).toBe("boom");
    expect(errorMessage(new TypeError(""), "fallback")).toBe("fallback");
  });

  it("prefers data.message over the message of an Error", () => {
    const error = Object.assign(new Error("own"), { data: { message: "from server" } });
    expect(errorMessage(error)).toBe("from server");
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "boom"],
    ["a number", 500],
    ["a boolean", true],
  ])("uses the fallback for %s", (_label, error) => {
    expect(errorMessage(error, "fallback")).toBe("fallback");
    expect(errorMessage(error, DEFAULT_ERROR_MESSAGE)).toBe(DEFAULT_ERROR_MESSAGE);
  });

  it.each([
    ["no fallback", {}, undefined],
    ["an empty fallback", {}, ""],
    ["null and no fallback", null, undefined],
    ["a string and no fallback", "boom", undefined],
    ["empty messages and an empty fallback", { data: { message: "" }, message: "" }, ""],
  ])("is undefined with %s", (_label, error, fallback) => {
    expect(errorMessage(error, fallback)).toBeUndefined();
  });

  it("has SPEC's default message", () => {
    expect(DEFAULT_ERROR_MESSAGE).toBe("Action Failed. Please check connectivity and try again");
  });
});
