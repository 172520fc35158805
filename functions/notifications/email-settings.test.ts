// Which way emails go: the outbox outside production unless told otherwise; production needs a provider with its
// settings, and says which variable is missing, never its value.
import { describe, expect, it } from "vitest";
import { emailConfigOf, LOCAL_PORTAL_URL } from "./email-settings";

const PRODUCTION = { ENVIRONMENT: "production", EMAIL_FROM: "Partners Portal <notices@portal.example.com>", PORTAL_URL: "https://portal.example.com" };

describe("emailConfigOf", () => {
  it("uses the dev outbox outside production, with npm start's address for the links", () => {
    expect(emailConfigOf({ ENVIRONMENT: "development" })).toEqual({ sender: { provider: "outbox" }, portalUrl: LOCAL_PORTAL_URL, invalid: [] });
  });

  it("takes each provider with its settings in production", () => {
    expect(emailConfigOf({ ...PRODUCTION, EMAIL_PROVIDER: "resend", RESEND_API_KEY: "re_live_0123456789" }).sender).toEqual({
      provider: "resend",
      from: PRODUCTION.EMAIL_FROM,
      apiKey: "re_live_0123456789",
      baseUrl: "https://api.resend.com",
    });
    expect(emailConfigOf({ ...PRODUCTION, EMAIL_PROVIDER: "postmark", POSTMARK_SERVER_TOKEN: "pm-token-0001" }).sender).toMatchObject({
      provider: "postmark",
      baseUrl: "https://api.postmarkapp.com",
    });
    expect(emailConfigOf({ ...PRODUCTION, EMAIL_PROVIDER: "cloudflare", EMAIL: {} }).sender).toEqual({ provider: "cloudflare", from: PRODUCTION.EMAIL_FROM });
  });

  it("names what production lacks, and never a value", () => {
    const problem = (env: Record<string, unknown>) => {
      const sender = emailConfigOf(env).sender;
      return sender.provider === null ? sender.problem : null;
    };
    expect(problem({ ENVIRONMENT: "production" })).toMatch(/^EMAIL_PROVIDER is not set/);
    expect(problem({ ...PRODUCTION, EMAIL_PROVIDER: "outbox" })).toMatch(/^EMAIL_PROVIDER is outbox, which production refuses/);
    expect(problem({ ...PRODUCTION, EMAIL_PROVIDER: "resend" })).toBe("RESEND_API_KEY is not set: Resend needs an API key");
    expect(problem({ ...PRODUCTION, PORTAL_URL: undefined, EMAIL_PROVIDER: "postmark", POSTMARK_SERVER_TOKEN: "pm-token-0001" })).toMatch(
      /^PORTAL_URL is not set/,
    );
    expect(problem({ ...PRODUCTION, EMAIL_PROVIDER: "resend", RESEND_API_KEY: "re_live_0123456789", EMAIL_PROVIDER_BASE_URL: "http://127.0.0.1:9" })).toBe(
      "EMAIL_PROVIDER_BASE_URL may only be set outside production",
    );
    const bad = problem({ ...PRODUCTION, EMAIL_PROVIDER: "resend", RESEND_API_KEY: "has a space secret" });
    expect(bad).toMatch(/^RESEND_API_KEY must be/);
    expect(bad).not.toContain("secret");
  });
});
