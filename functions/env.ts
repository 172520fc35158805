import * as v from "valibot";

/** Used only outside production so `npm start` works with no secrets set. */
export const DEV_SESSION_SECRET = "dev-only-session-secret-never-use-in-production-0000";

/** Analytics relay retry defaults (seconds); see functions/analytics/retry.ts for the schedule they make. */
export const EVENTS_RETRY_BASE_SECONDS_DEFAULT = 30;
export const EVENTS_RETRY_MAX_SECONDS_DEFAULT = 900;
/** Webhook delivery defaults (seconds); see functions/webhooks/backoff.ts for the schedule they make. */
export const WEBHOOKS_RETRY_BASE_SECONDS_DEFAULT = 60;
export const WEBHOOKS_RETRY_MAX_SECONDS_DEFAULT = 3600;
export const WEBHOOKS_RETRY_WINDOW_SECONDS_DEFAULT = 86_400;
export const WEBHOOKS_TIMEOUT_SECONDS_DEFAULT = 10;
/** Payments older than this many whole months go to the cold archive (functions/archive/job.ts). */
export const ARCHIVE_RETENTION_MONTHS_DEFAULT = 13;
/** Cloudflare Queues refuses a longer retry delay (12 hours). */
const MAX_QUEUE_DELAY_SECONDS = 43_200;

function protocolOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

const Environment = v.picklist(["development", "test", "production"]);

const seconds = (name: string, min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be a whole number of seconds`),
      v.regex(/^\d{1,6}$/, `${name} must be a whole number of seconds`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
    String(fallback),
  );

const httpUrl = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be a URL`),
      v.url(`${name} must be a URL`),
      v.check((value) => /^https?:$/.test(protocolOf(value) ?? ""), `${name} must be an http or https URL`),
    ),
  );

const oidcText = (name: string) =>
  v.optional(v.pipe(v.string(`${name} must be a string`), v.minLength(1), v.maxLength(1000, `${name} must be at most 1000 characters`)));

const RawConfig = v.object({
  ENVIRONMENT: v.optional(Environment, "development"),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, "SESSION_SECRET must be at least 32 characters"))),
  // Analytics (functions/analytics/). No endpoint: events are stored in D1 (the local default).
  EVENTS_ENDPOINT: v.optional(
    v.pipe(
      v.string("EVENTS_ENDPOINT must be a URL"),
      v.url("EVENTS_ENDPOINT must be a URL"),
      v.check((value) => /^https?:$/.test(protocolOf(value) ?? ""), "EVENTS_ENDPOINT must be an http or https URL"),
    ),
  ),
  EVENTS_API_KEY: v.optional(v.pipe(v.string("EVENTS_API_KEY must be a string"), v.maxLength(1000, "EVENTS_API_KEY must be at most 1000 characters"))),
  EVENTS_RETRY_BASE_SECONDS: seconds("EVENTS_RETRY_BASE_SECONDS", 0, 3600, EVENTS_RETRY_BASE_SECONDS_DEFAULT),
  EVENTS_RETRY_MAX_SECONDS: seconds("EVENTS_RETRY_MAX_SECONDS", 1, MAX_QUEUE_DELAY_SECONDS, EVENTS_RETRY_MAX_SECONDS_DEFAULT),
  // Webhooks (functions/webhooks): the backoff, the window after which a delivery is failed, and the answer timeout.
  WEBHOOKS_RETRY_BASE_SECONDS: seconds("WEBHOOKS_RETRY_BASE_SECONDS", 1, 3600, WEBHOOKS_RETRY_BASE_SECONDS_DEFAULT),
  WEBHOOKS_RETRY_MAX_SECONDS: seconds("WEBHOOKS_RETRY_MAX_SECONDS", 1, MAX_QUEUE_DELAY_SECONDS, WEBHOOKS_RETRY_MAX_SECONDS_DEFAULT),
  WEBHOOKS_RETRY_WINDOW_SECONDS: seconds("WEBHOOKS_RETRY_WINDOW_SECONDS", 1, 7 * 86_400, WEBHOOKS_RETRY_WINDOW_SECONDS_DEFAULT),
  WEBHOOKS_TIMEOUT_SECONDS: seconds("WEBHOOKS_TIMEOUT_SECONDS", 1, 30, WEBHOOKS_TIMEOUT_SECONDS_DEFAULT),
  EVENTS_REPLAY_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, "EVENTS_REPLAY_SECRET must be at least 32 characters"))),
  // The cold archive (functions/archive): whole months older than this go to R2. Below 3 would archive payments a settlement may still need.
  ARCHIVE_RETENTION_MONTHS: v.optional(
    v.pipe(
      v.string("ARCHIVE_RETENTION_MONTHS must be a whole number of months"),
      v.regex(/^\d{1,3}$/, "ARCHIVE_RETENTION_MONTHS must be a whole number of months"),
      v.transform(Number),
      v.minValue(3, "ARCHIVE_RETENTION_MONTHS must be at least 3"),
      v.maxValue(120, "ARCHIVE_RETENTION_MONTHS must be at most 120"),
    ),
    String(ARCHIVE_RETENTION_MONTHS_DEFAULT),
  ),
  // Sign-in (functions/auth). The key the session cookie was signed with before the last rotation.
  SESSION_SECRET_PREVIOUS: v.optional(v.pipe(v.string(), v.minLength(32, "SESSION_SECRET_PREVIOUS must be at least 32 characters"))),
  // The one-time codes' HMAC key; derived from SESSION_SECRET when unset.
  OTP_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, "OTP_SECRET must be at least 32 characters"))),
  // The SMS gateway; none: codes go to the dev outbox (/__dev/outbox), never in production.
  SMS_GATEWAY_URL: v.optional(
    v.pipe(
      v.string("SMS_GATEWAY_URL must be a URL"),
      v.url("SMS_GATEWAY_URL must be a URL"),
      v.check((value) => /^https?:$/.test(protocolOf(value) ?? ""), "SMS_GATEWAY_URL must be an http or https URL"),
    ),
  ),
  SMS_GATEWAY_TOKEN: v.optional(v.pipe(v.string("SMS_GATEWAY_TOKEN must be a string"), v.maxLength(1000, "SMS_GATEWAY_TOKEN must be at most 1000 characters"))),
  // OpenID Connect sign-in (functions/oidc/). A provider is configured when its three values are set.
  MICROSOFT_ISSUER: httpUrl("MICROSOFT_ISSUER"),
  MICROSOFT_CLIENT_ID: oidcText("MICROSOFT_CLIENT_ID"),
  MICROSOFT_CLIENT_SECRET: oidcText("MICROSOFT_CLIENT_SECRET"),
  GOOGLE_ISSUER: httpUrl("GOOGLE_ISSUER"),
  GOOGLE_CLIENT_ID: oidcText("GOOGLE_CLIENT_ID"),
  GOOGLE_CLIENT_SECRET: oidcText("GOOGLE_CLIENT_SECRET"),
  // The portal's public origin for the redirect URIs; unset: the origin of the request.
  OIDC_REDIRECT_BASE_URL: httpUrl("OIDC_REDIRECT_BASE_URL"),
  // The sign-in popup's size as WIDTHxHEIGHT; SPEC section 9: an invalid one gives the default 483x600.
  SIGN_IN_POPUP_SIZE: v.optional(v.pipe(v.string(), v.maxLength(40, "SIGN_IN_POPUP_SIZE must be at most 40 characters"))),
  // Passkeys (functions/passkeys/, decision 024): the relying party id (a host name, no scheme or port) and the
  // one origin answers must come from; both or neither. Unset: outside production the request's own host and origin,
  // in production no passkeys at all (never guessed from a request there).
  WEBAUTHN_RP_ID: v.optional(
    v.pipe(
      v.string("WEBAUTHN_RP_ID must be a host name"),
      v.maxLength(253, "WEBAUTHN_RP_ID must be at most 253 characters"),
      v.regex(/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/, "WEBAUTHN_RP_ID must be a lower-case host name without scheme or port"),
    ),
  ),
  WEBAUTHN_ORIGIN: httpUrl("WEBAUTHN_ORIGIN"),
  // The name authenticators show next to the passkey.
  WEBAUTHN_RP_NAME: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100, "WEBAUTHN_RP_NAME must be at most 100 characters")), "Partners Portal"),
  // "on": each answer says where its time went (Server-Timing, functions/plumbing/timing.ts). Never in production.
  SERVER_TIMING: v.optional(v.picklist(["on", "off"], "SERVER_TIMING must be on or off"), "off"),
  // The platform insists on a passkey for each of its decisions (decision 039), as a business may for its own.
  PLATFORM_DECISIONS_NEED_PASSKEY: v.optional(v.picklist(["on", "off"], "PLATFORM_DECISIONS_NEED_PASSKEY must be on or off"), "off"),
  // The Partner API: requests a minute per key (a batch of 100 payments is one request).
  API_RATE_LIMIT_PER_MINUTE: v.optional(
    v.pipe(
      v.string("API_RATE_LIMIT_PER_MINUTE must be a whole number"),
      v.regex(/^\d{1,6}$/, "API_RATE_LIMIT_PER_MINUTE must be a whole number"),
      v.transform(Number),
      v.minValue(1, "API_RATE_LIMIT_PER_MINUTE must be at least 1"),
    ),
    "1200",
  ),
});

const OPTIONAL_TEXT_VARS = [
  "SESSION_SECRET",
  "EVENTS_ENDPOINT",
  "EVENTS_API_KEY",
  "EVENTS_RETRY_BASE_SECONDS",
  "EVENTS_RETRY_MAX_SECONDS",
  "EVENTS_REPLAY_SECRET",
  "WEBHOOKS_RETRY_BASE_SECONDS",
  "WEBHOOKS_RETRY_MAX_SECONDS",
  "WEBHOOKS_RETRY_WINDOW_SECONDS",
  "WEBHOOKS_TIMEOUT_SECONDS",
  "ARCHIVE_RETENTION_MONTHS",
  "SESSION_SECRET_PREVIOUS",
  "OTP_SECRET",
  "SMS_GATEWAY_URL",
  "SMS_GATEWAY_TOKEN",
  "MICROSOFT_ISSUER",
  "MICROSOFT_CLIENT_ID",
  "MICROSOFT_CLIENT_SECRET",
  "GOOGLE_ISSUER",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "OIDC_REDIRECT_BASE_URL",
  "SIGN_IN_POPUP_SIZE",
  "SERVER_TIMING",
  "PLATFORM_DECISIONS_NEED_PASSKEY",
  "WEBAUTHN_RP_ID",
  "WEBAUTHN_ORIGIN",
  "WEBAUTHN_RP_NAME",
  "API_RATE_LIMIT_PER_MINUTE",
] as const;

// ---------------------------------------------------------------------------------------------------------------------
// SMS providers (functions/sms/providers.ts, decision 040). Kept in one block, checked after the main schema, so other
// settings can be added above without touching it. SMS_PROVIDER names the adapter; each provider's own settings are
// required only when it is chosen, and a missing or malformed one is a ConfigError naming the variable.
// ---------------------------------------------------------------------------------------------------------------------

export const SMS_PROVIDERS = ["generic", "outbox", "arkesel", "hubtel", "mnotify", "africastalking", "twilio"] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

const SMS_PROVIDER_VARS = [
  "SMS_PROVIDER",
  "SMS_SENDER_ID",
  "SMS_PROVIDER_BASE_URL",
  "ARKESEL_API_KEY",
  "HUBTEL_CLIENT_ID",
  "HUBTEL_CLIENT_SECRET",
  "MNOTIFY_API_KEY",
  "AT_USERNAME",
  "AT_API_KEY",
  "TWILIO_ACCOUNT_SID",
  "TWILIO_AUTH_TOKEN",
  "TWILIO_FROM",
  "TWILIO_MESSAGING_SERVICE_SID",
] as const;

// A key pasted with a space or a line break would be sent as is and refused as a bad key: caught here instead.
const providerSecret = (name: string) =>
  v.optional(
    v.pipe(
      v.string(`${name} must be text`),
      v.maxLength(1000, `${name} must be at most 1000 characters`),
      v.regex(/^[\x21-\x7e]+$/, `${name} must be printable ASCII without spaces or line breaks`),
    ),
  );

// What an alphanumeric sender id can be on every provider here: at most 11 letters, digits or inner spaces (GSM 03.40's
// limit; mNotify says "without any special character"), with a letter, or the network reads it as a number.
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9](?:[A-Za-z0-9 ]{0,9}[A-Za-z0-9])?$/;
const SENDER_ID_RULE = "at most 11 letters, digits or spaces, with at least one letter";

const SmsProviderVars = v.object({
  SMS_PROVIDER: v.optional(v.picklist(SMS_PROVIDERS, `SMS_PROVIDER must be one of ${SMS_PROVIDERS.join(", ")}`)),
  SMS_SENDER_ID: v.optional(v.pipe(v.string(), v.regex(SENDER_ID, `SMS_SENDER_ID must be ${SENDER_ID_RULE}`))),
  SMS_PROVIDER_BASE_URL: httpUrl("SMS_PROVIDER_BASE_URL"),
  ARKESEL_API_KEY: providerSecret("ARKESEL_API_KEY"),
  HUBTEL_CLIENT_ID: providerSecret("HUBTEL_CLIENT_ID"),
  HUBTEL_CLIENT_SECRET: providerSecret("HUBTEL_CLIENT_SECRET"),
  MNOTIFY_API_KEY: providerSecret("MNOTIFY_API_KEY"),
  AT_USERNAME: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,100}$/, "AT_USERNAME must be an Africa's Talking application username"))),
  AT_API_KEY: providerSecret("AT_API_KEY"),
  TWILIO_ACCOUNT_SID: v.optional(v.pipe(v.string(), v.regex(/^AC[0-9a-fA-F]{32}$/, "TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal digits"))),
  TWILIO_AUTH_TOKEN: providerSecret("TWILIO_AUTH_TOKEN"),
  TWILIO_FROM: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => /^\+[1-9]\d{7,14}$/.test(value) || SENDER_ID.test(value), `TWILIO_FROM must be a +E.164 number or a sender id of ${SENDER_ID_RULE}`),
    ),
  ),
  TWILIO_MESSAGING_SERVICE_SID: v.optional(
    v.pipe(v.string(), v.regex(/^MG[0-9a-fA-F]{32}$/, "TWILIO_MESSAGING_SERVICE_SID must be MG followed by 32 hexadecimal digits")),
  ),
});

/** One provider's settings, as its adapter (functions/sms/providers.ts) needs them. */
export type SmsProviderConfig =
  | { name: "arkesel"; apiKey: string; senderId: string; baseUrl: string | null }
  | { name: "hubtel"; clientId: string; clientSecret: string; senderId: string; baseUrl: string | null }
  | { name: "mnotify"; apiKey: string; senderId: string; baseUrl: string | null }
  | { name: "africastalking"; username: string; apiKey: string; senderId: string | null; baseUrl: string | null }
  | { name: "twilio"; accountSid: string; authToken: string; from: string | null; messagingServiceSid: string | null; baseUrl: string | null };

/**
 * SMS_PROVIDER and its settings. Returns the provider's settings; null for the generic gateway and the dev outbox (and
 * when SMS_PROVIDER is unset: today's choice, the gateway when SMS_GATEWAY_URL is set, else the outbox outside
 * production). `outbox` says so explicitly (never in production). Problems are pushed onto `problems`.
 */
function smsProviderOf(
  env: Record<string, unknown>,
  environment: v.InferOutput<typeof Environment>,
  gatewayUrl: string | undefined,
  problems: string[],
): { provider: SmsProviderName | null; config: SmsProviderConfig | null } {
  const input: Record<string, unknown> = {};
  for (const name of SMS_PROVIDER_VARS) input[name] = env[name] === "" ? undefined : env[name];
  const parsed = v.safeParse(SmsProviderVars, input);
  if (!parsed.success) {
    problems.push(...parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "env"}: ${issue.message}`));
    return { provider: null, config: null };
  }
  const raw = parsed.output;
  const provider = raw.SMS_PROVIDER ?? null;
  const required = <T>(name: (typeof SMS_PROVIDER_VARS)[number], value: T | undefined): T | null => {
    if (value === undefined) problems.push(`${name} is required when SMS_PROVIDER is ${provider}`);
    return value ?? null;
  };
  // The fakes' address (tests, npm start); production talks to the providers' documented hosts only.
  if (raw.SMS_PROVIDER_BASE_URL && environment === "production") problems.push("SMS_PROVIDER_BASE_URL must not be set in production");
  if (provider === "outbox" && environment === "production") problems.push("SMS_PROVIDER cannot be outbox in production");
  if (provider === "generic" && !gatewayUrl) problems.push("SMS_GATEWAY_URL is required when SMS_PROVIDER is generic");
  if (provider !== null && provider !== "generic" && gatewayUrl) problems.push(`SMS_GATEWAY_URL is set but SMS_PROVIDER is ${provider}: unset one of them`);
  const baseUrl = raw.SMS_PROVIDER_BASE_URL ? raw.SMS_PROVIDER_BASE_URL.replace(/\/+$/, "") : null;
  const before = problems.length;
  let config: SmsProviderConfig | null = null;
  switch (provider) {
    case "arkesel": {
      const apiKey = required("ARKESEL_API_KEY", raw.ARKESEL_API_KEY);
      const senderId = required("SMS_SENDER_ID", raw.SMS_SENDER_ID);
      if (apiKey && senderId) config = { name: provider, apiKey, senderId, baseUrl };
      break;
    }
    case "hubtel": {
      const clientId = required("HUBTEL_CLIENT_ID", raw.HUBTEL_CLIENT_ID);
      const clientSecret = required("HUBTEL_CLIENT_SECRET", raw.HUBTEL_CLIENT_SECRET);
      const senderId = required("SMS_SENDER_ID", raw.SMS_SENDER_ID);
      if (clientId && clientSecret && senderId) config = { name: provider, clientId, clientSecret, senderId, baseUrl };
      break;
    }
    case "mnotify": {
      const apiKey = required("MNOTIFY_API_KEY", raw.MNOTIFY_API_KEY);
      const senderId = required("SMS_SENDER_ID", raw.SMS_SENDER_ID);
      if (apiKey && senderId) config = { name: provider, apiKey, senderId, baseUrl };
      break;
    }
    case "africastalking": {
      const username = required("AT_USERNAME", raw.AT_USERNAME);
      const apiKey = required("AT_API_KEY", raw.AT_API_KEY);
      // Optional at Africa's Talking (their shared sender otherwise); Ghana's networks may still refuse an unregistered one.
      if (username && apiKey) config = { name: provider, username, apiKey, senderId: raw.SMS_SENDER_ID ?? null, baseUrl };
      break;
    }
    case "twilio": {
      const accountSid = required("TWILIO_ACCOUNT_SID", raw.TWILIO_ACCOUNT_SID);
      const authToken = required("TWILIO_AUTH_TOKEN", raw.TWILIO_AUTH_TOKEN);
      const from = raw.TWILIO_FROM ?? raw.SMS_SENDER_ID ?? null;
      const messagingServiceSid = raw.TWILIO_MESSAGING_SERVICE_SID ?? null;
      if (!from && !messagingServiceSid) problems.push("TWILIO_FROM, SMS_SENDER_ID or TWILIO_MESSAGING_SERVICE_SID is required when SMS_PROVIDER is twilio");
      if (accountSid && authToken) config = { name: provider, accountSid, authToken, from, messagingServiceSid, baseUrl };
      break;
    }
    default:
      break;
  }
  return { provider, config: problems.length > before ? null : config };
}
// --- end of the SMS providers block ----------------------------------------------------------------------------------

/**
 * The settings wrangler.toml does not declare (secrets put with `wrangler secret put`, .dev.vars, optional vars), typed
 * on Env as the Worker receives them: text, or absent. `wrangler types` sees only wrangler.toml; this adds the rest,
 * from the same list the parse reads, so a new setting is typed where it is checked.
 */
type UndeclaredSettings = {
  readonly [Name in Exclude<(typeof OPTIONAL_TEXT_VARS)[number] | (typeof SMS_PROVIDER_VARS)[number], keyof Cloudflare.Env>]?: string;
};

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends UndeclaredSettings {}
}

export interface AppConfig {
  environment: v.InferOutput<typeof Environment>;
  sessionSecret: string;
  /** Origins of the configured OpenID providers (CSP form-action). */
  signInOrigins: string[];
  /** Send the Server-Timing header (functions/plumbing/timing.ts); always false in production, which must not describe its insides. */
  serverTiming: boolean;
}

/** The analytics pipeline's settings (POST /api/events, the queue consumer, the replay endpoint). */
export interface EventsConfig {
  /** Where the consumer relays events; null: store them in D1 (shown at /__dev/events outside production). */
  endpoint: string | null;
  /** Sent as X-Api-Key with every relayed event. Required when there is an endpoint. */
  apiKey: string | null;
  /** The first retry delay; each later one doubles, up to retryMaxSeconds. */
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  /** Bearer secret of POST /api/events/replay; null: that endpoint does not exist. */
  replaySecret: string | null;
}

/** Webhook delivery settings (functions/webhooks). */
export interface WebhooksConfig {
  /** Which URLs are allowed (functions/webhooks/url-rules.ts): http://localhost only in development. */
  environment: v.InferOutput<typeof Environment>;
  /** The first retry delay; each later one doubles, up to retryMaxSeconds. */
  retryBaseSeconds: number;
  retryMaxSeconds: number;
  /** A delivery still failing this long after its event is marked failed. */
  retryWindowSeconds: number;
  /** How long a receiver has to answer. */
  timeoutMs: number;
}

/** Sign-in settings (functions/auth): session keys, the one-time-code key, SMS delivery. */
export interface AuthConfig {
  environment: v.InferOutput<typeof Environment>;
  /** Signs every new session cookie, and verifies them. */
  sessionSecret: string;
  /** Verifies cookies signed before the last rotation; never signs. */
  sessionSecretPrevious: string | null;
  /** HMAC key of the stored one-time codes. */
  otpSecret: string;
  /** null: the dev outbox (outside production) or no SMS at all (production). */
  smsGatewayUrl: string | null;
  /** Sent as `Authorization: Bearer` to the gateway. Required when there is a gateway. */
  smsGatewayToken: string | null;
  /** SMS_PROVIDER as set (null: unset, the choice above); with a named provider, its settings in smsProvider. */
  smsProviderName: SmsProviderName | null;
  smsProvider: SmsProviderConfig | null;
  /**
   * Who passkeys are made for and where their answers must come from (decision 024): as configured; "request" outside
   * production when unset ({ fromRequest }: the request's own host and origin, relyingPartyFor); null in production when unset (no
   * passkeys).
   */
  relyingParty: RelyingParty | { fromRequest: true; name: string } | null;
  /** Only a passkey checks a platform decision (PLATFORM_DECISIONS_NEED_PASSKEY; decision 039). */
  platformDecisionsNeedPasskey: boolean;
}

/** A WebAuthn relying party: answers are verified against exactly this id and origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** The relying party a request is served as: the configured one, or outside production the request's own. */
export function relyingPartyFor(config: AuthConfig, requestUrl: string): RelyingParty | null {
  if (!config.relyingParty || !("fromRequest" in config.relyingParty)) return config.relyingParty;
  const url = new URL(requestUrl);
  return { id: url.hostname, origin: url.origin, name: config.relyingParty.name };
}

/** One OpenID provider's client registration. */
export interface OidcClientConfig {
  /** Discovery is read from `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** OpenID Connect sign-in settings (functions/oidc/); null: that provider is not configured. */
export interface OidcConfig {
  environment: v.InferOutput<typeof Environment>;
  microsoft: OidcClientConfig | null;
  google: OidcClientConfig | null;
  /** The portal origin the redirect URIs are built on; null: the request's origin. */
  redirectBaseUrl: string | null;
  /** As configured ("WIDTHxHEIGHT"); the browser falls back to 483x600 when it is not a usable size. */
  popupSize: string | null;
}

/** The cold archive's settings (functions/archive). */
export interface ArchiveConfig {
  /** Whole months kept in D1; older months go to the ARCHIVE bucket. */
  retentionMonths: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The Partner API's settings. */
export interface ApiConfig {
  /** Requests a minute per API key (a batch of 100 payments is one request). */
  rateLimitPerMinute: number;
}

/** Every setting of the Worker, from one parse of its vars and secrets. */
export interface FullConfig {
  app: AppConfig;
  api: ApiConfig;
  events: EventsConfig;
  auth: AuthConfig;
  oidc: OidcConfig;
  webhooks: WebhooksConfig;
  archive: ArchiveConfig;
  /** The payout and refund rails (the block at the end): the same object railsConfigOf gives for this env. */
  rails: RailsConfig;
}

function parseAll(env: Record<string, unknown>): FullConfig {
  const input: Record<string, unknown> = { ENVIRONMENT: env.ENVIRONMENT };
  // An empty value (NAME= in .dev.vars) means "not set".
  for (const name of OPTIONAL_TEXT_VARS) input[name] = env[name] === "" ? undefined : env[name];
  const parsed = v.safeParse(RawConfig, input);
  if (!parsed.success) {
    const issues = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "env"}: ${issue.message}`);
    throw new ConfigError(`Invalid Worker configuration: ${issues.join("; ")}`);
  }
  const raw = parsed.output;
  const problems: string[] = [];
  if (raw.ENVIRONMENT === "production" && !raw.SESSION_SECRET) problems.push("SESSION_SECRET is required in production");
  if (raw.EVENTS_ENDPOINT && !raw.EVENTS_API_KEY) problems.push("EVENTS_API_KEY is required when EVENTS_ENDPOINT is set");
  if (raw.ENVIRONMENT === "production" && raw.EVENTS_ENDPOINT && protocolOf(raw.EVENTS_ENDPOINT) !== "https:") {
    problems.push("EVENTS_ENDPOINT must be an https URL in production");
  }
  if (raw.SMS_GATEWAY_URL && !raw.SMS_GATEWAY_TOKEN) problems.push("SMS_GATEWAY_TOKEN is required when SMS_GATEWAY_URL is set");
  if (raw.ENVIRONMENT === "production" && raw.SMS_GATEWAY_URL && protocolOf(raw.SMS_GATEWAY_URL) !== "https:") {
    problems.push("SMS_GATEWAY_URL must be an https URL in production");
  }
  const sms = smsProviderOf(env, raw.ENVIRONMENT, raw.SMS_GATEWAY_URL, problems);
  if (raw.SESSION_SECRET_PREVIOUS && raw.SESSION_SECRET_PREVIOUS === raw.SESSION_SECRET) {
    problems.push("SESSION_SECRET_PREVIOUS must differ from SESSION_SECRET");
  }
  if (raw.EVENTS_RETRY_BASE_SECONDS > raw.EVENTS_RETRY_MAX_SECONDS) {
    problems.push("EVENTS_RETRY_BASE_SECONDS must not be more than EVENTS_RETRY_MAX_SECONDS");
  }
  if (raw.WEBHOOKS_RETRY_BASE_SECONDS > raw.WEBHOOKS_RETRY_MAX_SECONDS) {
    problems.push("WEBHOOKS_RETRY_BASE_SECONDS must not be more than WEBHOOKS_RETRY_MAX_SECONDS");
  }
  const oidcClient = (prefix: "MICROSOFT" | "GOOGLE"): OidcClientConfig | null => {
    const issuer = raw[`${prefix}_ISSUER`];
    const clientId = raw[`${prefix}_CLIENT_ID`];
    const clientSecret = raw[`${prefix}_CLIENT_SECRET`];
    if (!issuer && !clientId && !clientSecret) return null;
    if (!issuer || !clientId || !clientSecret) {
      problems.push(`${prefix}_ISSUER, ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
      return null;
    }
    if (raw.ENVIRONMENT === "production" && protocolOf(issuer) !== "https:") problems.push(`${prefix}_ISSUER must be an https URL in production`);
    return { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret };
  };
  const microsoft = oidcClient("MICROSOFT");
  const google = oidcClient("GOOGLE");
  if (raw.ENVIRONMENT === "production" && raw.OIDC_REDIRECT_BASE_URL && protocolOf(raw.OIDC_REDIRECT_BASE_URL) !== "https:") {
    problems.push("OIDC_REDIRECT_BASE_URL must be an https URL in production");
  }
  if (Boolean(raw.WEBAUTHN_RP_ID) !== Boolean(raw.WEBAUTHN_ORIGIN)) problems.push("WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN must be set together");
  if (raw.WEBAUTHN_RP_ID && raw.WEBAUTHN_ORIGIN) {
    const origin = new URL(raw.WEBAUTHN_ORIGIN);
    // WebAuthn: the id is the origin's host or a registrable suffix of it.
    if (origin.hostname !== raw.WEBAUTHN_RP_ID && !origin.hostname.endsWith(`.${raw.WEBAUTHN_RP_ID}`)) {
      problems.push("WEBAUTHN_RP_ID must be the host of WEBAUTHN_ORIGIN or a suffix of it");
    }
    if (origin.origin !== raw.WEBAUTHN_ORIGIN.replace(/\/+$/, "")) problems.push("WEBAUTHN_ORIGIN must be an origin only (scheme, host, port)");
    if (raw.ENVIRONMENT === "production" && origin.protocol !== "https:") problems.push("WEBAUTHN_ORIGIN must be an https URL in production");
  }
  if (problems.length > 0) throw new ConfigError(`Invalid Worker configuration: ${problems.join("; ")}`);
  const sessionSecret = raw.SESSION_SECRET ?? DEV_SESSION_SECRET;
  return {
    app: {
      environment: raw.ENVIRONMENT,
      sessionSecret,
      // A sign-in form without JavaScript posts to the portal, which redirects to the provider:
      // CSP's form-action covers that redirect too.
      signInOrigins: [microsoft, google].flatMap((client) => (client ? [new URL(client.issuer).origin] : [])),
      serverTiming: raw.SERVER_TIMING === "on" && raw.ENVIRONMENT !== "production",
    },
    auth: {
      environment: raw.ENVIRONMENT,
      sessionSecret,
      sessionSecretPrevious: raw.SESSION_SECRET_PREVIOUS ?? null,
      otpSecret: raw.OTP_SECRET ?? `otp:${sessionSecret}`,
      smsGatewayUrl: raw.SMS_GATEWAY_URL ?? null,
      smsGatewayToken: raw.SMS_GATEWAY_TOKEN ?? null,
      smsProviderName: sms.provider,
      smsProvider: sms.config,
      relyingParty:
        raw.WEBAUTHN_RP_ID && raw.WEBAUTHN_ORIGIN
          ? { id: raw.WEBAUTHN_RP_ID, origin: new URL(raw.WEBAUTHN_ORIGIN).origin, name: raw.WEBAUTHN_RP_NAME }
          : raw.ENVIRONMENT === "production"
            ? null
            : { fromRequest: true as const, name: raw.WEBAUTHN_RP_NAME },
      platformDecisionsNeedPasskey: raw.PLATFORM_DECISIONS_NEED_PASSKEY === "on",
    },
    oidc: {
      environment: raw.ENVIRONMENT,
      microsoft,
      google,
      redirectBaseUrl: raw.OIDC_REDIRECT_BASE_URL ? new URL(raw.OIDC_REDIRECT_BASE_URL).origin : null,
      popupSize: raw.SIGN_IN_POPUP_SIZE ?? null,
    },
    events: {
      endpoint: raw.EVENTS_ENDPOINT ?? null,
      apiKey: raw.EVENTS_API_KEY ?? null,
      retryBaseSeconds: raw.EVENTS_RETRY_BASE_SECONDS,
      retryMaxSeconds: raw.EVENTS_RETRY_MAX_SECONDS,
      replaySecret: raw.EVENTS_REPLAY_SECRET ?? null,
    },
    webhooks: {
      environment: raw.ENVIRONMENT,
      retryBaseSeconds: raw.WEBHOOKS_RETRY_BASE_SECONDS,
      retryMaxSeconds: raw.WEBHOOKS_RETRY_MAX_SECONDS,
      retryWindowSeconds: raw.WEBHOOKS_RETRY_WINDOW_SECONDS,
      timeoutMs: raw.WEBHOOKS_TIMEOUT_SECONDS * 1000,
    },
    archive: { retentionMonths: raw.ARCHIVE_RETENTION_MONTHS },
    api: { rateLimitPerMinute: raw.API_RATE_LIMIT_PER_MINUTE },
    rails: railsConfigOf(env),
  };
}

// An env is parsed once: the Worker is handed the same env object for every request, queue batch and cron run of an
// isolate, so the fetch, queue and scheduled handlers and every module below them read the same checked object.
const parsed = new WeakMap<object, FullConfig>();

/**
 * The Worker's vars and secrets, checked whole the first time an env is seen (a bad value throws ConfigError for
 * every request, not only on the path that reads it) and kept for that env.
 */
export function configOf(env: object): FullConfig {
  let config = parsed.get(env);
  if (!config) {
    config = parseAll(env as Record<string, unknown>);
    parsed.set(env, config);
  }
  return config;
}

// --- Read by the deploy's dry run (scripts/lib/deploy-plan.ts) and the Worker's answer to a broken configuration ---

/**
 * Every setting the Worker reads, straight from the schema: the deploy's dry run checks a deployment's settings with
 * configOf and lists them by these names, so a setting added to RawConfig is planned and checked without the dry run
 * knowing it.
 */
export const SETTING_NAMES: readonly string[] = [...new Set(["ENVIRONMENT", ...OPTIONAL_TEXT_VARS, ...Object.keys(RawConfig.entries)])];

/**
 * A ConfigError's problems, each naming its setting and none carrying a value: valibot's own messages end in "but
 * received <the value>", which may be a secret, so that part goes. Shown to people (the Worker's 503, the dry run).
 */
export function configProblems(error: ConfigError): string[] {
  return error.message
    .replace(/^Invalid Worker configuration: /, "")
    .split("; ")
    .map((problem) => problem.replace(/ but received .*$/, "").replace(/^(\w+): (?=\1\b)/, ""));
}

// ==================================================================================================================
// Payout and refund rails (decision 041, docs/payout-rails.md): which rail sends money back out, and its settings.
// Parsed apart from the schema above on purpose: a missing or malformed rail setting must not take the whole portal
// down (configOf throwing is a 500 for every page). It is one clear message naming the variable instead, which the
// settlement and refund screens show where "Sending" would otherwise wait for ever, and which the cron job records
// as its failure on the platform's Jobs screen. The parse is still once per env and part of the config: configOf(env)
// .rails is what railsConfigOf(env) gives, so a request reads it from its load context (context.config.rails) and
// never parses it again from the request's wrapped env. railsConfigOf alone is for what must run while an unrelated
// setting is broken (the rails' callbacks, the settlement, refund and poll jobs) and for the deploy's dry run.
// ==================================================================================================================

const RAIL_VARS = [
  "PAYOUT_RAIL",
  "REFUND_RAIL",
  "SWITCH_RAIL_URL",
  "SWITCH_RAIL_SECRET",
  "PAYSTACK_SECRET_KEY",
  "PAYSTACK_BASE_URL",
  "RAIL_POLL_AFTER_MINUTES",
] as const;
/** The rails' settings by name, for the deploy's dry run (apart from SETTING_NAMES, which is defined above this block). */
export const RAIL_SETTING_NAMES: readonly string[] = RAIL_VARS;

type RailSettings = { readonly [Name in Exclude<(typeof RAIL_VARS)[number], keyof Cloudflare.Env>]?: string };
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends RailSettings {}
}

/** The switch's key for both directions: Standard Webhooks' form, "whsec_" and base64 of at least 24 bytes. */
export const SWITCH_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;
export const PAYSTACK_DEFAULT_BASE_URL = "https://api.paystack.co";
export const RAIL_POLL_AFTER_MINUTES_DEFAULT = 15;

export type SwitchRail = { rail: "switch"; url: string; secret: string };
export type PaystackRail = { rail: "paystack"; secretKey: string; baseUrl: string };
/** A rail to use, or the one sentence that says which variable to set (never a throw). */
export type RailChoice<R> = R | { rail: "simulator" } | { rail: null; problem: string };

export interface RailsConfig {
  payout: RailChoice<SwitchRail | PaystackRail>;
  refund: RailChoice<SwitchRail>;
  /** A payout or refund sent and not answered this long is asked about (the poll in the 5-minute cron). */
  pollAfterMs: number;
  /** The callback routes' keys, whatever the rails chosen (a switch callback may arrive for an order sent before a change). */
  switchSecret: string | null;
  paystackSecretKey: string | null;
  /** Every rail setting that is set but malformed, one sentence each naming it (used or not: the deploy's dry run refuses them). */
  invalid: string[];
}

const RailSettingsSchema = v.object({
  PAYOUT_RAIL: v.optional(v.picklist(["simulator", "switch", "paystack"], "PAYOUT_RAIL must be simulator, switch or paystack")),
  REFUND_RAIL: v.optional(
    v.picklist(["simulator", "switch"], "REFUND_RAIL must be simulator or switch (Paystack Transfers only pays out: refunds go through the switch)"),
  ),
  SWITCH_RAIL_URL: httpUrl("SWITCH_RAIL_URL"),
  SWITCH_RAIL_SECRET: v.optional(
    v.pipe(v.string(), v.regex(SWITCH_SECRET_PATTERN, "SWITCH_RAIL_SECRET must be whsec_ followed by base64 of 24 bytes or more")),
  ),
  PAYSTACK_SECRET_KEY: v.optional(
    v.pipe(v.string(), v.regex(/^sk_(test|live)_[A-Za-z0-9]{16,}$/, "PAYSTACK_SECRET_KEY must be a Paystack secret key (sk_test_… or sk_live_…)")),
  ),
  PAYSTACK_BASE_URL: httpUrl("PAYSTACK_BASE_URL"),
  RAIL_POLL_AFTER_MINUTES: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, "RAIL_POLL_AFTER_MINUTES must be a whole number of minutes"),
      v.transform(Number),
      v.minValue(1, "RAIL_POLL_AFTER_MINUTES must be at least 1"),
      v.maxValue(1440, "RAIL_POLL_AFTER_MINUTES must be at most 1440"),
    ),
  ),
});

function parseRails(env: Record<string, unknown>): RailsConfig {
  const production = env.ENVIRONMENT === "production";
  const input: Record<string, unknown> = {};
  for (const name of RAIL_VARS) input[name] = env[name] === "" ? undefined : env[name];
  // Each variable on its own: one bad value names itself and leaves the other rails usable.
  const bad = new Map<string, string>();
  const ok: Record<string, unknown> = {};
  for (const name of RAIL_VARS) {
    const one = v.safeParse(v.object({ [name]: RailSettingsSchema.entries[name] }), { [name]: input[name] });
    if (one.success) ok[name] = (one.output as Record<string, unknown>)[name];
    else bad.set(name, one.issues.map((issue) => issue.message.replace(/^Invalid type: .*/, `${name} is not valid`)).join("; "));
  }
  const switchRail = (): SwitchRail | { rail: null; problem: string } => {
    const url = ok.SWITCH_RAIL_URL as string | undefined;
    const secret = ok.SWITCH_RAIL_SECRET as string | undefined;
    if (bad.has("SWITCH_RAIL_URL")) return { rail: null, problem: bad.get("SWITCH_RAIL_URL")! };
    if (bad.has("SWITCH_RAIL_SECRET")) return { rail: null, problem: bad.get("SWITCH_RAIL_SECRET")! };
    if (!url) return { rail: null, problem: "SWITCH_RAIL_URL is not set: the switch rail needs its URL" };
    if (!secret) return { rail: null, problem: "SWITCH_RAIL_SECRET is not set: the switch rail needs its signing key" };
    if (production && protocolOf(url) !== "https:") return { rail: null, problem: "SWITCH_RAIL_URL must be an https URL in production" };
    return { rail: "switch", url: url.replace(/\/+$/, ""), secret };
  };
  const paystackRail = (): PaystackRail | { rail: null; problem: string } => {
    if (bad.has("PAYSTACK_SECRET_KEY")) return { rail: null, problem: bad.get("PAYSTACK_SECRET_KEY")! };
    const secretKey = ok.PAYSTACK_SECRET_KEY as string | undefined;
    if (!secretKey) return { rail: null, problem: "PAYSTACK_SECRET_KEY is not set: Paystack payouts need the account's secret key" };
    if (production && secretKey.startsWith("sk_test_")) return { rail: null, problem: "PAYSTACK_SECRET_KEY is a test key (sk_test_…) in production" };
    // Fakes only: production always talks to Paystack itself.
    if (production && ok.PAYSTACK_BASE_URL) return { rail: null, problem: "PAYSTACK_BASE_URL may only be set outside production" };
    if (bad.has("PAYSTACK_BASE_URL")) return { rail: null, problem: bad.get("PAYSTACK_BASE_URL")! };
    return { rail: "paystack", secretKey, baseUrl: ((ok.PAYSTACK_BASE_URL as string | undefined) ?? PAYSTACK_DEFAULT_BASE_URL).replace(/\/+$/, "") };
  };
  const choose = <R>(name: "PAYOUT_RAIL" | "REFUND_RAIL", rails: Record<string, () => R | { rail: null; problem: string }>): RailChoice<R> => {
    if (bad.has(name)) return { rail: null, problem: bad.get(name)! };
    const chosen = ok[name] as string | undefined;
    if (!chosen || chosen === "simulator") {
      if (!production) return { rail: "simulator" };
      return {
        rail: null,
        problem: chosen
          ? `${name} is simulator, which production refuses: set it to ${Object.keys(rails).join(" or ")}`
          : `${name} is not set: set it to ${Object.keys(rails).join(" or ")} (production never uses the simulator)`,
      };
    }
    return rails[chosen]!();
  };
  return {
    payout: choose<SwitchRail | PaystackRail>("PAYOUT_RAIL", { switch: switchRail, paystack: paystackRail }),
    refund: choose<SwitchRail>("REFUND_RAIL", { switch: switchRail }),
    pollAfterMs: ((ok.RAIL_POLL_AFTER_MINUTES as number | undefined) ?? RAIL_POLL_AFTER_MINUTES_DEFAULT) * 60_000,
    switchSecret: (ok.SWITCH_RAIL_SECRET as string | undefined) ?? null,
    paystackSecretKey: (ok.PAYSTACK_SECRET_KEY as string | undefined) ?? null,
    invalid: [...bad.values()],
  };
}

const parsedRails = new WeakMap<object, RailsConfig>();

/** The rails' settings, parsed once per env (configOf's rails are this object); never throws (see the block's comment). */
export function railsConfigOf(env: object): RailsConfig {
  let config = parsedRails.get(env);
  if (!config) {
    config = parseRails(env as Record<string, unknown>);
    parsedRails.set(env, config);
  }
  return config;
}
// ============================================================================================ end of the rails' block
