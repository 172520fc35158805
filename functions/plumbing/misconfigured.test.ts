import { describe, expect, it } from "vitest";
import { ConfigError, configOf, configProblems } from "../env";
import { misconfiguredMessage } from "./misconfigured";

function errorOf(env: Record<string, unknown>): ConfigError {
  try {
    configOf(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("configProblems", () => {
  it("names each broken setting once per problem, without the schema's repeated name", () => {
    expect(configProblems(errorOf({ SMS_GATEWAY_URL: "nope" }))).toContain("SMS_GATEWAY_URL must be a URL");
  });

  it("never carries a value: valibot's 'but received' goes", () => {
    const problems = configProblems(errorOf({ ENVIRONMENT: "secret-looking-value" }));
    expect(problems.join()).toContain("ENVIRONMENT");
    expect(problems.join()).not.toContain("secret-looking-value");
    expect(problems.join()).not.toContain("received");
  });

  it("keeps the cross-checks' own sentences", () => {
    expect(configProblems(errorOf({ ENVIRONMENT: "production" }))).toEqual(["SESSION_SECRET is required in production"]);
  });
});

it("misconfiguredMessage says who can fix it", () => {
  expect(misconfiguredMessage(errorOf({ ENVIRONMENT: "production" }))).toBe(
    "The portal is not configured correctly: SESSION_SECRET is required in production. The people who deploy it must correct this setting; nothing done here can.",
  );
});
