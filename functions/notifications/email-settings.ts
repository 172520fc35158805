// Which way emails go (decision 053) and the settings of each, parsed apart from configOf like the rails' (functions/
// env.ts): a missing or malformed email setting must not take the portal down. It is one sentence naming the variable,
// which the notifications job records as its failure (the platform's Jobs screen) and the deploy's dry run refuses;
// the inbox goes on, and the emails wait until the setting is fixed.
import * as v from "valibot";

export const EMAIL_PROVIDERS = ["outbox", "cloudflare", "resend", "postmark"] as const;
export type EmailProviderName = (typeof EMAIL_PROVIDERS)[number];

const EMAIL_VARS = ["EMAIL_PROVIDER", "EMAIL_FROM", "PORTAL_URL", "RESEND_API_KEY", "POSTMARK_SERVER_TOKEN", "EMAIL_PROVIDER_BASE_URL"] as const;
/** The email settings by name, for the deploy's dry run. */
export const EMAIL_SETTING_NAMES: readonly string[] = EMAIL_VARS;

type EmailSettings = { readonly [Name in Exclude<(typeof EMAIL_VARS)[number], keyof Cloudflare.Env>]?: string };
declare global {
  interface Env extends EmailSettings {
    /** The Cloudflare Email Service binding ([[send_email]] name = "EMAIL"), when EMAIL_PROVIDER is cloudflare. */
    readonly EMAIL?: SendEmail;
  }
}

export const RESEND_BASE_URL = "https://api.resend.com";
export const POSTMARK_BASE_URL = "https://api.postmarkapp.com";
/** Where `npm start` serves the portal: the links of the dev outbox's emails when PORTAL_URL is unset. */
export const LOCAL_PORTAL_URL = "http://localhost:8787";

export type EmailSender =
  | { provider: "outbox" }
  | { provider: "cloudflare"; from: string }
  | { provider: "resend"; from: string; apiKey: string; baseUrl: string }
  | { provider: "postmark"; from: string; serverToken: string; baseUrl: string };

export interface EmailConfig {
  /** The way emails go, or the sentence that says which variable to set (never a throw). */
  sender: EmailSender | { provider: null; problem: string };
  /** The portal's address, which an email's links start with. */
  portalUrl: string;
  /** Every email setting set but malformed, a sentence each naming it. */
  invalid: string[];
}

const secret = (name: string) =>
  v.pipe(v.string(), v.regex(/^[\x21-\x7e]{8,1000}$/, `${name} must be 8 to 1000 printable ASCII characters without spaces or line breaks`));
// "Partners Portal <notices@portal.example>" or a bare address: what every provider here takes as a sender.
const FROM = /^(?:[^<>\r\n"]{1,80} <[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

const Schema = v.object({
  EMAIL_PROVIDER: v.picklist(EMAIL_PROVIDERS, `EMAIL_PROVIDER must be one of ${EMAIL_PROVIDERS.join(", ")}`),
  EMAIL_FROM: v.pipe(v.string(), v.regex(FROM, 'EMAIL_FROM must be an address, or a name and an address ("Partners Portal <notices@example.com>")')),
  PORTAL_URL: v.pipe(
    v.string(),
    v.url("PORTAL_URL must be a URL"),
    v.regex(/^https?:\/\/[^/]+\/?$/, "PORTAL_URL must be an origin (https://portal.example.com)"),
  ),
  RESEND_API_KEY: secret("RESEND_API_KEY"),
  POSTMARK_SERVER_TOKEN: secret("POSTMARK_SERVER_TOKEN"),
  EMAIL_PROVIDER_BASE_URL: v.pipe(v.string(), v.url("EMAIL_PROVIDER_BASE_URL must be a URL")),
});

function parseEmail(env: Record<string, unknown>): EmailConfig {
  const production = env.ENVIRONMENT === "production";
  const ok: Partial<Record<(typeof EMAIL_VARS)[number], string>> = {};
  const bad = new Map<string, string>();
  for (const name of EMAIL_VARS) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    const one = v.safeParse(Schema.entries[name], value);
    if (one.success) ok[name] = one.output;
    else bad.set(name, one.issues[0]?.message.replace(/^Invalid type: .*/, `${name} is not valid`) ?? `${name} is not valid`);
  }
  const portalUrl = (ok.PORTAL_URL ?? LOCAL_PORTAL_URL).replace(/\/+$/, "");
  const invalid = [...bad.values()];
  const refuse = (problem: string): EmailConfig => ({ sender: { provider: null, problem }, portalUrl, invalid });
  if (bad.has("EMAIL_PROVIDER")) return refuse(bad.get("EMAIL_PROVIDER")!);
  const chosen = ok.EMAIL_PROVIDER ?? (production ? null : "outbox");
  if (chosen === null) return refuse("EMAIL_PROVIDER is not set: set it to cloudflare, resend or postmark (production never uses the outbox)");
  if (chosen === "outbox") {
    if (production) return refuse("EMAIL_PROVIDER is outbox, which production refuses: set it to cloudflare, resend or postmark");
    return { sender: { provider: "outbox" }, portalUrl, invalid };
  }
  if (production && !ok.PORTAL_URL) return refuse(bad.get("PORTAL_URL") ?? "PORTAL_URL is not set: an email's links need the portal's address");
  if (production && protocolOf(portalUrl) !== "https:") return refuse("PORTAL_URL must be an https URL in production");
  const from = ok.EMAIL_FROM;
  if (!from) return refuse(bad.get("EMAIL_FROM") ?? `EMAIL_FROM is not set: ${chosen} needs the address emails come from`);
  // The fakes' address (tests, npm start); production talks to the providers' documented hosts only.
  if (production && (ok.EMAIL_PROVIDER_BASE_URL || bad.has("EMAIL_PROVIDER_BASE_URL")))
    return refuse("EMAIL_PROVIDER_BASE_URL may only be set outside production");
  const baseUrl = (fallback: string) => (ok.EMAIL_PROVIDER_BASE_URL ?? fallback).replace(/\/+$/, "");
  if (chosen === "resend") {
    if (!ok.RESEND_API_KEY) return refuse(bad.get("RESEND_API_KEY") ?? "RESEND_API_KEY is not set: Resend needs an API key");
    return { sender: { provider: "resend", from, apiKey: ok.RESEND_API_KEY, baseUrl: baseUrl(RESEND_BASE_URL) }, portalUrl, invalid };
  }
  if (chosen === "postmark") {
    if (!ok.POSTMARK_SERVER_TOKEN) return refuse(bad.get("POSTMARK_SERVER_TOKEN") ?? "POSTMARK_SERVER_TOKEN is not set: Postmark needs a server token");
    return { sender: { provider: "postmark", from, serverToken: ok.POSTMARK_SERVER_TOKEN, baseUrl: baseUrl(POSTMARK_BASE_URL) }, portalUrl, invalid };
  }
  if (typeof env.EMAIL !== "object" || env.EMAIL === null)
    return refuse('EMAIL_PROVIDER is cloudflare but the Worker has no EMAIL binding: add [[send_email]] name = "EMAIL" to wrangler.toml');
  return { sender: { provider: "cloudflare", from }, portalUrl, invalid };
}

function protocolOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

const parsed = new WeakMap<object, EmailConfig>();

/** The email settings, parsed once per env; never throws. */
export function emailConfigOf(env: object): EmailConfig {
  let config = parsed.get(env);
  if (!config) {
    config = parseEmail(env as Record<string, unknown>);
    parsed.set(env, config);
  }
  return config;
}
