import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ConfigError, configOf, DEV_SESSION_SECRET, railsConfigOf, relyingPartyFor } from "./env";
import { retryDelaySeconds, totalRetryWindowSeconds } from "./analytics/retry";

const SECRET_32 = "s".repeat(32);
const SECRET_31 = "s".repeat(31);

function configError(env: Record<string, unknown>): ConfigError {
  try {
    configOf(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`configOf accepted ${JSON.stringify(env)}`);
}

describe("configOf(env).app", () => {
  it("defaults to development with the dev secret", () => {
    expect(configOf({}).app).toEqual({ environment: "development", sessionSecret: DEV_SESSION_SECRET, signInOrigins: [], serverTiming: false });
  });

  it("ignores unrelated vars", () => {
    expect(configOf({ OTHER: "x", DB: {} }).app).toEqual({
      environment: "development",
      sessionSecret: DEV_SESSION_SECRET,
      signInOrigins: [],
      serverTiming: false,
    });
  });

  it.each(["development", "test"] as const)("uses the dev secret in %s when none is set", (environment) => {
    expect(configOf({ ENVIRONMENT: environment }).app).toEqual({ environment, sessionSecret: DEV_SESSION_SECRET, signInOrigins: [], serverTiming: false });
  });

  it("has a dev secret long enough to pass its own rule", () => {
    expect(DEV_SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it.each(["development", "test", "production"] as const)("uses a given 32-character secret in %s", (environment) => {
    expect(configOf({ ENVIRONMENT: environment, SESSION_SECRET: SECRET_32 }).app).toEqual({
      environment,
      sessionSecret: SECRET_32,
      signInOrigins: [],
      serverTiming: false,
    });
  });

  it("requires SESSION_SECRET in production", () => {
    const error = configError({ ENVIRONMENT: "production" });
    expect(error.name).toBe("ConfigError");
    expect(error.message).toMatch(/SESSION_SECRET/);
    expect(error.message).toMatch(/production/);
  });

  it("never falls back to the dev secret in production", () => {
    expect(() => configOf({ ENVIRONMENT: "production", SESSION_SECRET: undefined }).app).toThrow(ConfigError);
    expect(() => configOf({ ENVIRONMENT: "production", SESSION_SECRET: "" }).app).toThrow(ConfigError);
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
    expect(configOf({ ENVIRONMENT: "development", SESSION_SECRET: "" }).app.sessionSecret).toBe(DEV_SESSION_SECRET);
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

describe("analytics settings (configOf(env).events, checked with the rest)", () => {
  const ENDPOINT = "https://events.example.com/v1/events";

  it("defaults to storing events in D1, retrying from 30 s up to 15 minutes, with no replay endpoint", () => {
    expect(configOf({}).events).toEqual({ endpoint: null, apiKey: null, retryBaseSeconds: 30, retryMaxSeconds: 900, replaySecret: null });
  });

  it("reads every analytics var", () => {
    expect(
      configOf({
        ENVIRONMENT: "production",
        SESSION_SECRET: SECRET_32,
        EVENTS_ENDPOINT: ENDPOINT,
        EVENTS_API_KEY: "key-1",
        EVENTS_RETRY_BASE_SECONDS: "5",
        EVENTS_RETRY_MAX_SECONDS: "600",
        EVENTS_REPLAY_SECRET: SECRET_32,
      }).events,
    ).toEqual({ endpoint: ENDPOINT, apiKey: "key-1", retryBaseSeconds: 5, retryMaxSeconds: 600, replaySecret: SECRET_32 });
  });

  it("treats empty values (as in a .dev.vars line) as unset", () => {
    const env = { EVENTS_ENDPOINT: "", EVENTS_API_KEY: "", EVENTS_RETRY_BASE_SECONDS: "", EVENTS_RETRY_MAX_SECONDS: "", EVENTS_REPLAY_SECRET: "" };
    expect(configOf(env).events).toEqual(configOf({}).events);
  });

  it("allows an http endpoint outside production (a local fake service), never in production", () => {
    const local = { EVENTS_ENDPOINT: "http://127.0.0.1:9999/events", EVENTS_API_KEY: "k" };
    expect(configOf(local).events.endpoint).toBe(local.EVENTS_ENDPOINT);
    const error = configError({ ...local, ENVIRONMENT: "production", SESSION_SECRET: SECRET_32 });
    expect(error.message).toMatch(/EVENTS_ENDPOINT must be an https URL in production/);
  });

  it.each([["not a url"], ["ftp://events.example.com/x"], ["/relative"]])("refuses the endpoint %j", (endpoint) => {
    expect(configError({ EVENTS_ENDPOINT: endpoint, EVENTS_API_KEY: "k" }).message).toMatch(/EVENTS_ENDPOINT/);
  });

  it("requires EVENTS_API_KEY with an endpoint", () => {
    expect(configError({ EVENTS_ENDPOINT: ENDPOINT }).message).toMatch(/EVENTS_API_KEY is required/);
  });

  it.each([
    ["EVENTS_RETRY_BASE_SECONDS", "1.5"],
    ["EVENTS_RETRY_BASE_SECONDS", "-1"],
    ["EVENTS_RETRY_BASE_SECONDS", "thirty"],
    ["EVENTS_RETRY_BASE_SECONDS", "3601"],
    ["EVENTS_RETRY_MAX_SECONDS", "0"],
    ["EVENTS_RETRY_MAX_SECONDS", "43201"],
    ["EVENTS_RETRY_MAX_SECONDS", 60],
  ])("refuses %s=%j", (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(name));
  });

  it("refuses a base delay above the cap", () => {
    expect(configError({ EVENTS_RETRY_BASE_SECONDS: "60", EVENTS_RETRY_MAX_SECONDS: "30" }).message).toMatch(/EVENTS_RETRY_BASE_SECONDS must not be more/);
  });

  it("refuses a replay secret under 32 characters", () => {
    expect(configError({ EVENTS_REPLAY_SECRET: SECRET_31 }).message).toMatch(/EVENTS_REPLAY_SECRET must be at least 32/);
  });

  it("parseConfig fails on a bad analytics var too, and still returns only the app settings", () => {
    expect(() => configOf({ EVENTS_RETRY_BASE_SECONDS: "soon" }).app).toThrow(/EVENTS_RETRY_BASE_SECONDS/);
    expect(configOf({ EVENTS_ENDPOINT: ENDPOINT, EVENTS_API_KEY: "k" }).app).toEqual({
      environment: "development",
      sessionSecret: DEV_SESSION_SECRET,
      signInOrigins: [],
      serverTiming: false,
    });
  });
});

describe("analytics retry schedule (wrangler.toml and the defaults)", () => {
  const toml = readFileSync(resolve(import.meta.dirname, "../wrangler.toml"), "utf8");
  const consumers = toml.split("[[queues.consumers]]").slice(1);
  const consumer = (queue: string) => consumers.find((block) => new RegExp(`^\\s*queue = "${queue}"`, "m").test(block));
  const number = (block: string | undefined, key: string) => Number(new RegExp(`^${key} = (\\d+)`, "m").exec(block ?? "")?.[1]);
  const defaults = configOf({}).events;

  it("doubles from the base delay up to the cap, in whole seconds", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => retryDelaySeconds(attempt, defaults))).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
    expect(retryDelaySeconds(3, { retryBaseSeconds: 0, retryMaxSeconds: 1 })).toBe(0);
  });

  it("keeps an event retrying for more than an hour before it is dead-lettered", () => {
    const events = consumer("partners-portal-events");
    expect(events, "a consumer for partners-portal-events").toBeDefined();
    expect(events).toMatch(/^dead_letter_queue = "partners-portal-events-dlq"$/m);
    const maxRetries = number(events, "max_retries");
    expect(maxRetries).toBe(12);
    const window = totalRetryWindowSeconds(maxRetries, defaults);
    expect(window).toBeGreaterThan(3600);
    expect(window).toBe(7230);
  });

  it("runs one consumer of the events at a time, so the events service gets one request at a time (SPEC section 7)", () => {
    expect(number(consumer("partners-portal-events"), "max_concurrency")).toBe(1);
  });

  it("has a consumer for the dead-letter queue that may retry parking", () => {
    const dlq = consumer("partners-portal-events-dlq");
    expect(dlq, "a consumer for partners-portal-events-dlq").toBeDefined();
    expect(number(dlq, "max_retries")).toBeGreaterThanOrEqual(10);
  });
});

describe("configOf(env).auth (sign-in)", () => {
  it("defaults: the session secret, an OTP key derived from it, no previous key, no gateway", () => {
    expect(configOf({}).auth).toEqual({
      environment: "development",
      sessionSecret: DEV_SESSION_SECRET,
      sessionSecretPrevious: null,
      otpSecret: `otp:${DEV_SESSION_SECRET}`,
      smsGatewayUrl: null,
      smsGatewayToken: null,
      smsProviderName: null,
      smsProvider: null,
      relyingParty: { fromRequest: true, name: "Partners Portal" },
      platformDecisionsNeedPasskey: false,
    });
  });

  it("insists on passkeys for the platform's decisions only when PLATFORM_DECISIONS_NEED_PASSKEY is on", () => {
    expect(configOf({ PLATFORM_DECISIONS_NEED_PASSKEY: "on" }).auth.platformDecisionsNeedPasskey).toBe(true);
    expect(configOf({ PLATFORM_DECISIONS_NEED_PASSKEY: "" }).auth.platformDecisionsNeedPasskey).toBe(false);
    expect(() => configOf({ PLATFORM_DECISIONS_NEED_PASSKEY: "yes" })).toThrow("PLATFORM_DECISIONS_NEED_PASSKEY must be on or off");
  });

  it("passkeys: the configured relying party exactly; unset, the request's own outside production and none in production", () => {
    const configured = configOf({ WEBAUTHN_RP_ID: "portal.example.com", WEBAUTHN_ORIGIN: "https://portal.example.com" }).auth;
    expect(configured.relyingParty).toEqual({ id: "portal.example.com", origin: "https://portal.example.com", name: "Partners Portal" });
    expect(relyingPartyFor(configured, "https://evil.example/authenticate")).toEqual(configured.relyingParty);
    expect(relyingPartyFor(configOf({}).auth, "http://localhost:8787/authenticate")).toEqual({
      id: "localhost",
      origin: "http://localhost:8787",
      name: "Partners Portal",
    });
    const production = configOf({ ENVIRONMENT: "production", SESSION_SECRET: SECRET_32 }).auth;
    expect(relyingPartyFor(production, "https://portal.example.com/authenticate")).toBeNull();
  });

  it.each([
    [{ WEBAUTHN_RP_ID: "portal.example.com" }, /must be set together/],
    [{ WEBAUTHN_ORIGIN: "https://portal.example.com" }, /must be set together/],
    [{ WEBAUTHN_RP_ID: "other.example", WEBAUTHN_ORIGIN: "https://portal.example.com" }, /host of WEBAUTHN_ORIGIN/],
    [{ WEBAUTHN_RP_ID: "portal.example.com", WEBAUTHN_ORIGIN: "https://portal.example.com/login" }, /origin only/],
    [{ WEBAUTHN_RP_ID: "https://portal.example.com", WEBAUTHN_ORIGIN: "https://portal.example.com" }, /host name without scheme/],
    [
      { ENVIRONMENT: "production", SESSION_SECRET: SECRET_32, WEBAUTHN_RP_ID: "portal.example.com", WEBAUTHN_ORIGIN: "http://portal.example.com" },
      /https URL in production/,
    ],
  ])("refuses the passkey settings %j", (env, message) => {
    expect(() => configOf(env).auth).toThrow(message);
  });

  it("takes the previous session key, the OTP key and the gateway", () => {
    const auth = configOf({
      ENVIRONMENT: "production",
      SESSION_SECRET: SECRET_32,
      SESSION_SECRET_PREVIOUS: "p".repeat(32),
      OTP_SECRET: "o".repeat(32),
      SMS_GATEWAY_URL: "https://sms.example.com/send",
      SMS_GATEWAY_TOKEN: "token",
    }).auth;
    expect(auth).toMatchObject({
      sessionSecretPrevious: "p".repeat(32),
      otpSecret: "o".repeat(32),
      smsGatewayUrl: "https://sms.example.com/send",
      smsGatewayToken: "token",
    });
  });

  it("leaves parseConfig's answer as it was", () => {
    expect(configOf({ SESSION_SECRET_PREVIOUS: "p".repeat(32), SMS_GATEWAY_URL: "http://127.0.0.1:9/x", SMS_GATEWAY_TOKEN: "t" }).app).toEqual({
      environment: "development",
      sessionSecret: DEV_SESSION_SECRET,
      signInOrigins: [],
      serverTiming: false,
    });
  });

  it.each([
    [{ SESSION_SECRET_PREVIOUS: "short" }, /SESSION_SECRET_PREVIOUS.*32/],
    [{ OTP_SECRET: "short" }, /OTP_SECRET.*32/],
    [{ SMS_GATEWAY_URL: "not a url", SMS_GATEWAY_TOKEN: "t" }, /SMS_GATEWAY_URL/],
    [{ SMS_GATEWAY_URL: "ftp://sms.example.com", SMS_GATEWAY_TOKEN: "t" }, /SMS_GATEWAY_URL must be an http or https URL/],
    [{ SMS_GATEWAY_URL: "https://sms.example.com" }, /SMS_GATEWAY_TOKEN is required/],
    [{ ENVIRONMENT: "production", SESSION_SECRET: SECRET_32, SMS_GATEWAY_URL: "http://sms.example.com", SMS_GATEWAY_TOKEN: "t" }, /https URL in production/],
    [{ SESSION_SECRET: SECRET_32, SESSION_SECRET_PREVIOUS: SECRET_32 }, /must differ/],
  ])("refuses %j, in parseConfig as well", (env, message) => {
    expect(() => configOf(env).auth).toThrow(message);
    expect(configError(env).message).toMatch(message);
  });

  it("treats empty sign-in vars as unset", () => {
    expect(configOf({ SESSION_SECRET_PREVIOUS: "", OTP_SECRET: "", SMS_GATEWAY_URL: "", SMS_GATEWAY_TOKEN: "" }).auth.smsGatewayUrl).toBeNull();
  });
});

describe("configOf(env).oidc (OpenID Connect sign-in)", () => {
  const MICROSOFT = { MICROSOFT_ISSUER: "https://login.microsoftonline.com/common/v2.0/", MICROSOFT_CLIENT_ID: "ms-id", MICROSOFT_CLIENT_SECRET: "ms-secret" };
  const GOOGLE = { GOOGLE_ISSUER: "https://accounts.google.com", GOOGLE_CLIENT_ID: "g-id", GOOGLE_CLIENT_SECRET: "g-secret" };

  it("defaults: neither provider configured, redirects on the request's origin", () => {
    expect(configOf({}).oidc).toEqual({ environment: "development", microsoft: null, google: null, redirectBaseUrl: null, popupSize: null });
  });

  it("takes both providers (issuer without a trailing slash) and the redirect base's origin", () => {
    expect(
      configOf({
        ENVIRONMENT: "production",
        SESSION_SECRET: SECRET_32,
        ...MICROSOFT,
        ...GOOGLE,
        OIDC_REDIRECT_BASE_URL: "https://portal.example.com/ignored",
      }).oidc,
    ).toEqual({
      environment: "production",
      microsoft: { issuer: "https://login.microsoftonline.com/common/v2.0", clientId: "ms-id", clientSecret: "ms-secret" },
      google: { issuer: "https://accounts.google.com", clientId: "g-id", clientSecret: "g-secret" },
      redirectBaseUrl: "https://portal.example.com",
      popupSize: null,
    });
  });

  it("names the configured providers' origins for CSP form-action, and passes the popup size on as given", () => {
    expect(configOf({ ...MICROSOFT, ...GOOGLE }).app.signInOrigins).toEqual(["https://login.microsoftonline.com", "https://accounts.google.com"]);
    expect(configOf({ ...GOOGLE }).app.signInOrigins).toEqual(["https://accounts.google.com"]);
    // The browser decides what an invalid size means (483x600), so any text up to 40 characters is accepted here.
    expect(configOf({ SIGN_IN_POPUP_SIZE: "not a size" }).oidc.popupSize).toBe("not a size");
    expect(() => configOf({ SIGN_IN_POPUP_SIZE: "9".repeat(41) }).app).toThrow(/SIGN_IN_POPUP_SIZE/);
  });

  it("treats empty values as unset and leaves the app and sign-in settings as they were", () => {
    const env = { GOOGLE_ISSUER: "", GOOGLE_CLIENT_ID: "", GOOGLE_CLIENT_SECRET: "", ...MICROSOFT };
    expect(configOf(env).oidc.google).toBeNull();
    expect(configOf(env).app).toEqual({
      environment: "development",
      sessionSecret: DEV_SESSION_SECRET,
      signInOrigins: ["https://login.microsoftonline.com"],
      serverTiming: false,
    });
    expect(Object.keys(configOf(env).auth).sort()).toEqual([
      "environment",
      "otpSecret",
      "platformDecisionsNeedPasskey",
      "relyingParty",
      "sessionSecret",
      "sessionSecretPrevious",
      "smsGatewayToken",
      "smsGatewayUrl",
      "smsProvider",
      "smsProviderName",
    ]);
  });

  it.each([
    [
      { GOOGLE_ISSUER: "https://accounts.google.com", GOOGLE_CLIENT_ID: "g-id" },
      /GOOGLE_ISSUER, GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together/,
    ],
    [{ MICROSOFT_CLIENT_SECRET: "s" }, /MICROSOFT_ISSUER, MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET must be set together/],
    [{ ...GOOGLE, GOOGLE_ISSUER: "not a url" }, /GOOGLE_ISSUER must be a URL/],
    [{ ...GOOGLE, GOOGLE_ISSUER: "ftp://accounts.google.com" }, /GOOGLE_ISSUER must be an http or https URL/],
    [
      { ENVIRONMENT: "production", SESSION_SECRET: SECRET_32, ...GOOGLE, GOOGLE_ISSUER: "http://127.0.0.1:9" },
      /GOOGLE_ISSUER must be an https URL in production/,
    ],
    [
      { ENVIRONMENT: "production", SESSION_SECRET: SECRET_32, OIDC_REDIRECT_BASE_URL: "http://portal.example.com" },
      /OIDC_REDIRECT_BASE_URL must be an https URL in production/,
    ],
  ])("refuses %j, in parseConfig as well", (env, message) => {
    expect(() => configOf(env).oidc).toThrow(message);
    expect(configError(env).message).toMatch(message);
  });
});

describe("SERVER_TIMING", () => {
  it("is off unless set on, and never on in production, which must not describe its insides", () => {
    expect(configOf({}).app.serverTiming).toBe(false);
    expect(configOf({ SERVER_TIMING: "on" }).app.serverTiming).toBe(true);
    expect(configOf({ SERVER_TIMING: "on", ENVIRONMENT: "test" }).app.serverTiming).toBe(true);
    expect(configOf({ SERVER_TIMING: "on", ENVIRONMENT: "production", SESSION_SECRET: SECRET_32 }).app.serverTiming).toBe(false);
    expect(() => configOf({ SERVER_TIMING: "yes" }).app).toThrow(/SERVER_TIMING must be on or off/);
  });
});

describe("configOf", () => {
  it("parses an env once: the app, sign-in, events and Partner API settings are parts of one checked object", () => {
    const env = { ENVIRONMENT: "development", API_RATE_LIMIT_PER_MINUTE: "30" };
    const config = configOf(env);
    expect(configOf(env)).toBe(config);
    expect(configOf(env).app).toBe(config.app);
    expect(configOf(env).auth).toBe(config.auth);
    expect(configOf(env).events).toBe(config.events);
    expect(configOf(env).api).toEqual({ rateLimitPerMinute: 30 });
    // Another env is parsed on its own.
    expect(configOf({ ENVIRONMENT: "development" })).not.toBe(config);
  });

  it("a bad Partner API setting fails the whole configuration, naming it", () => {
    expect(() => configOf({ API_RATE_LIMIT_PER_MINUTE: "lots" })).toThrow(ConfigError);
    expect(() => configOf({ API_RATE_LIMIT_PER_MINUTE: "lots" })).toThrow(/API_RATE_LIMIT_PER_MINUTE must be a whole number/);
  });
});

describe("the Worker's Env type", () => {
  it("types each secret and optional setting the parse reads as text or absent, beside wrangler.toml's bindings and vars", () => {
    expectTypeOf<Env["SESSION_SECRET"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Env["SMS_GATEWAY_TOKEN"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Env["API_RATE_LIMIT_PER_MINUTE"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Env["DB"]>().toEqualTypeOf<D1Database>();
    // @ts-expect-error: a name the parse does not read is no setting
    expectTypeOf<Env["SESION_SECRET"]>();
  });
});

describe("configOf(env).auth: SMS providers (decision 040)", () => {
  const SID = `AC${"0123456789abcdef".repeat(2)}`;
  const SETS: Record<string, Record<string, string>> = {
    arkesel: { SMS_PROVIDER: "arkesel", ARKESEL_API_KEY: "ark-key", SMS_SENDER_ID: "Partners" },
    hubtel: { SMS_PROVIDER: "hubtel", HUBTEL_CLIENT_ID: "id", HUBTEL_CLIENT_SECRET: "secret", SMS_SENDER_ID: "Partners" },
    mnotify: { SMS_PROVIDER: "mnotify", MNOTIFY_API_KEY: "mn-key", SMS_SENDER_ID: "Partners" },
    africastalking: { SMS_PROVIDER: "africastalking", AT_USERNAME: "portal", AT_API_KEY: "at-key" },
    twilio: { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+15005550006" },
  };

  it("unset: today's choice (no provider settings)", () => {
    expect(configOf({}).auth).toMatchObject({ smsProviderName: null, smsProvider: null });
    expect(configOf({ SMS_PROVIDER: "", ARKESEL_API_KEY: "ignored" }).auth.smsProvider).toBeNull();
  });

  it.each(Object.entries(SETS))("%s: its settings, for its adapter", (name, env) => {
    expect(configOf(env).auth.smsProviderName).toBe(name);
    expect(configOf(env).auth.smsProvider).toMatchObject({ name, baseUrl: null });
  });

  it("the fakes' base URL outside production only; outbox explicitly, never in production", () => {
    expect(configOf({ ...SETS.arkesel, SMS_PROVIDER_BASE_URL: "http://127.0.0.1:9/" }).auth.smsProvider).toMatchObject({ baseUrl: "http://127.0.0.1:9" });
    expect(configOf({ SMS_PROVIDER: "outbox" }).auth).toMatchObject({ smsProviderName: "outbox", smsProvider: null });
  });

  it.each([
    [{ SMS_PROVIDER: "nexmo" }, /SMS_PROVIDER: SMS_PROVIDER must be one of generic, outbox, arkesel, hubtel, mnotify, africastalking, twilio/],
    [{ SMS_PROVIDER: "arkesel", SMS_SENDER_ID: "Partners" }, /ARKESEL_API_KEY is required when SMS_PROVIDER is arkesel/],
    [{ SMS_PROVIDER: "arkesel", ARKESEL_API_KEY: "k" }, /SMS_SENDER_ID is required when SMS_PROVIDER is arkesel/],
    [{ ...SETS.arkesel, ARKESEL_API_KEY: "key with space" }, /ARKESEL_API_KEY must be printable ASCII without spaces or line breaks/],
    [{ ...SETS.arkesel, ARKESEL_API_KEY: "key\n" }, /ARKESEL_API_KEY must be printable ASCII/],
    [{ ...SETS.hubtel, SMS_SENDER_ID: "PartnersPortal" }, /SMS_SENDER_ID must be at most 11 letters, digits or spaces, with at least one letter/],
    [{ ...SETS.hubtel, SMS_SENDER_ID: "0244123456" }, /SMS_SENDER_ID must be at most 11/],
    [{ ...SETS.hubtel, SMS_SENDER_ID: "Ɔkyeame" }, /SMS_SENDER_ID must be at most 11/],
    [{ SMS_PROVIDER: "hubtel", HUBTEL_CLIENT_ID: "id", SMS_SENDER_ID: "P" }, /HUBTEL_CLIENT_SECRET is required when SMS_PROVIDER is hubtel/],
    [{ SMS_PROVIDER: "mnotify", SMS_SENDER_ID: "P" }, /MNOTIFY_API_KEY is required when SMS_PROVIDER is mnotify/],
    [{ SMS_PROVIDER: "africastalking", AT_API_KEY: "k" }, /AT_USERNAME is required when SMS_PROVIDER is africastalking/],
    [{ ...SETS.twilio, TWILIO_ACCOUNT_SID: "AC123" }, /TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits/],
    [{ ...SETS.twilio, TWILIO_FROM: "" }, /TWILIO_FROM, SMS_SENDER_ID or TWILIO_MESSAGING_SERVICE_SID is required when SMS_PROVIDER is twilio/],
    [{ ...SETS.twilio, TWILIO_FROM: "0244123456" }, /TWILIO_FROM must be a \+E.164 number or a sender id/],
    [{ SMS_PROVIDER: "generic" }, /SMS_GATEWAY_URL is required when SMS_PROVIDER is generic/],
    [{ ...SETS.mnotify, SMS_GATEWAY_URL: "https://sms.example.com", SMS_GATEWAY_TOKEN: "t" }, /SMS_GATEWAY_URL is set but SMS_PROVIDER is mnotify/],
    [
      { ...SETS.arkesel, ENVIRONMENT: "production", SESSION_SECRET: SECRET_32, SMS_PROVIDER_BASE_URL: "https://fake.example" },
      /SMS_PROVIDER_BASE_URL must not be set in production/,
    ],
    [{ SMS_PROVIDER: "outbox", ENVIRONMENT: "production", SESSION_SECRET: SECRET_32 }, /SMS_PROVIDER cannot be outbox in production/],
  ])("%o is one clear ConfigError naming the variable", (env, message) => {
    expect(() => configOf(env)).toThrow(ConfigError);
    expect(() => configOf(env)).toThrow(message);
  });
});

describe("configOf(env).rails (the payout and refund rails)", () => {
  it("is the rails' one parse of this env, parsed once with the rest", () => {
    const env = { PAYOUT_RAIL: "switch", SWITCH_RAIL_URL: "https://switch.example/", RAIL_POLL_AFTER_MINUTES: "7" };
    const { rails } = configOf(env);
    expect(rails).toBe(railsConfigOf(env));
    expect(configOf(env).rails).toBe(rails);
    expect(rails).toMatchObject({ payout: { rail: null, problem: expect.stringContaining("SWITCH_RAIL_SECRET") }, pollAfterMs: 7 * 60_000 });
  });

  it("is read from the load context on a request, never parsed again from the request's env", () => {
    // A request's env is wrapped anew for each request (d1-coalesce, timing): a parse keyed by it would run every time.
    // Only what runs outside a request parses it: the rails' callbacks (given the Worker's own env) and the cron jobs.
    const root = resolve(__dirname, "..");
    const modules = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? modules(join(dir, entry.name)) : /\.test\.tsx?$/.test(entry.name) ? [] : [join(dir, entry.name)],
      );
    const parsing = [...modules("app"), ...modules("functions")].filter((file) => /\brailsConfigOf\(/.test(readFileSync(join(root, file), "utf8")));
    expect(parsing.sort()).toEqual(["functions/env.ts", "functions/operators/jobs.ts", "functions/rails/callbacks.ts"]);
  });
});
