import { describe, expect, it } from "vitest";
import { ConfigError, DEV_SESSION_SECRET, parseConfig } from "../../functions/env";

const SECRET_32 = "s".repeat(32);
const SECRET_31 = "s".repeat(31);

function configError(env: Record<string, unknown>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe("parseConfig", () => {
  it("defaults to development with the dev secret", () => {
    expect(parseConfig({})).toEqual({ environment: "development", sessionSecret: DEV_SESSION_SECRET });
  });

  it("ignores unrelated vars", () => {
    expect(parseConfig({ OTHER: "x", DB: {} })).toEqual({ environment: "development", sessionSecret: DEV_SESSION_SECRET });
  });

  it.each(["development", "test"] as const)("uses the dev secret in %s when none is set", (environment) => {
    expect(parseConfig({ ENVIRONMENT: environment })).toEqual({ environment, sessionSecret: DEV_SESSION_SECRET });
  });

  it("has a dev secret long enough to pass its own rule", () => {
    expect(DEV_SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it.each(["development", "test", "production"] as const)("uses a given 32-character secret in %s", (environment) => {
    expect(parseConfig({ ENVIRONMENT: environment, SESSION_SECRET: SECRET_32 })).toEqual({ environment, sessionSecret: SECRET_32 });
  });

  it("requires SESSION_SECRET in production", () => {
    const error = configError({ ENVIRONMENT: "production" });
    expect(error.name).toBe("ConfigError");
    expect(error.message).toMatch(/SESSION_SECRET/);
    expect(error.message).toMatch(/production/);
  });

  it("never falls back to the dev secret in production", () => {
    expect(() => parseConfig({ ENVIRONMENT: "production", SESSION_SECRET: undefined })).toThrow(ConfigError);
    expect(() => parseConfig({ ENVIRONMENT: "production", SESSION_SECRET: "" })).toThrow(ConfigError);
  });

  it.each([
    ["production", SECRET_31],
    ["development", SECRET_31],
    ["test", "short"],
  ])("refuses a short secret in %s, naming SESSION_SECRET", (environment, secret) => {
    const error = configError({ ENVIRONMENT: environment, SESSION_SECRET: secret });
    expect(error.message).toMatch(/SESSION_SECRET/);
    expect(error.message).toMatch(/32/);
  });

  it("treats an empty SESSION_SECRET (as in a .dev.vars line) as unset outside production", () => {
    expect(parseConfig({ ENVIRONMENT: "development", SESSION_SECRET: "" }).sessionSecret).toBe(DEV_SESSION_SECRET);
  });

  it.each([[1234], [{ secret: SECRET_32 }], [null]])("refuses a non-string secret %j", (secret) => {
    expect(configError({ SESSION_SECRET: secret }).message).toMatch(/SESSION_SECRET/);
  });

  it.each([["staging"], ["Production"], ["prod"], [""], [1], [null]])("refuses the unknown ENVIRONMENT %j", (environment) => {
    const error = configError({ ENVIRONMENT: environment, SESSION_SECRET: SECRET_32 });
    expect(error.message).toMatch(/ENVIRONMENT/);
  });

  it("reports every problem at once", () => {
    const error = configError({ ENVIRONMENT: "staging", SESSION_SECRET: SECRET_31 });
    expect(error.message).toMatch(/ENVIRONMENT/);
    expect(error.message).toMatch(/SESSION_SECRET/);
  });
});
