// The Partner API's settings from the Worker's environment.
import { describe, expect, it } from "vitest";
import { configOf } from "./env";

const apiConfig = (env: object) => configOf(env).api;

describe("apiConfig", () => {
  it("defaults to 1,200 requests a minute per key, also for an empty value", () => {
    expect(apiConfig({}).rateLimitPerMinute).toBe(1200);
    expect(apiConfig({ API_RATE_LIMIT_PER_MINUTE: "" }).rateLimitPerMinute).toBe(1200);
  });
  it("takes a whole number and refuses anything else", () => {
    expect(apiConfig({ API_RATE_LIMIT_PER_MINUTE: "30" }).rateLimitPerMinute).toBe(30);
    for (const bad of ["0", "-1", "1.5", "lots"]) expect(() => apiConfig({ API_RATE_LIMIT_PER_MINUTE: bad })).toThrow();
  });
});
