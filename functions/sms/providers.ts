// One adapter per SMS provider, each sending the way its public documentation shows (decision 040 names the pages and
// the API versions, and what could not be checked without the internet). Every adapter:
// - posts one message to one number, formatted as the provider documents (+233… or 233…);
// - sends the body as UTF-8 unchanged (Ɔ, Ɛ, Ŋ and emoji): JSON or form encoding, never a hand-made transcoding;
// - gives up after SMS_GATEWAY_TIMEOUT_MS, like the generic gateway;
// - reads the answer with valibot, and turns a refusal into a SmsDeliveryError whose reason the caller words for the
//   person, and whose message (provider, status, the provider's code and words, numbers masked) goes to the log.
// An answer that cannot be read as the documented success is a failure: the code is then not used (never "maybe sent").
import * as v from "valibot";
import type { SmsProviderConfig } from "../env";
import { SMS_GATEWAY_TIMEOUT_MS, SmsDeliveryError, providerWords, type SmsPort, type SmsRefusal } from "./port";

export interface ProviderOptions {
  /** The tests' fakes answer through this; the Worker's own fetch otherwise. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

type Fetch = typeof fetch;

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

/** Sends one request; a network failure or no answer in time is "unavailable". The body is read whole (it is small). */
async function call(provider: string, url: string, init: RequestInit, options: ProviderOptions): Promise<Answer> {
  const send: Fetch = options.fetch ?? ((input: RequestInfo | URL, requestInit?: RequestInit) => fetch(input, requestInit));
  let response: Response;
  let text: string;
  try {
    response = await send(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? SMS_GATEWAY_TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    throw new SmsDeliveryError(`${provider} unreachable: ${error instanceof Error ? error.message : String(error)}`, "unavailable");
  }
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Some refusals are plain text (Africa's Talking's 401): kept as text.
  }
  return { status: response.status, json, text };
}

/**
 * The category of a refusal from the provider's own words, for answers whose exact codes the stored documentation does
 * not list (decision 040). Unknown words are "unavailable": the person is told to try again, the operator reads the log.
 */
export function refusalFromWords(words: string): SmsRefusal {
  if (/balance|credit|fund|top.?up/i.test(words)) return "balance";
  if (/sender/i.test(words)) return "sender";
  if (/unauthori[sz]ed|unauthenticated|authenticat|api.?key|credential|forbidden/i.test(words)) return "auth";
  if (/recipient|phone|number|msisdn|destination|blacklist|do ?not ?disturb/i.test(words)) return "number";
  return "unavailable";
}

/** The refusal of an HTTP status alone: 401/403 a bad key, 402 no credit; anything else by the words. */
function refusalOf(status: number, words: string): SmsRefusal {
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "balance";
  return refusalFromWords(words);
}

function refused(provider: string, answer: Answer, words: string, reason: SmsRefusal, code?: string | number): SmsDeliveryError {
  const detail = providerWords(words || answer.text);
  return new SmsDeliveryError(
    `${provider} refused the message (HTTP ${answer.status}${code === undefined ? "" : `, code ${code}`})${detail ? `: ${detail}` : ""}`,
    reason,
  );
}

const plus = (msisdn: string) => `+${msisdn}`;
const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;
const wordsOf = (json: unknown, key: string): string =>
  typeof json === "object" && json !== null && typeof (json as Record<string, unknown>)[key] === "string"
    ? ((json as Record<string, unknown>)[key] as string)
    : "";

// ---------------------------------------------------------------------------------------------------------------------
// Arkesel, SMS API v2: POST /api/v2/sms/send, header `api-key`, JSON {sender, message, recipients}. Success is
// {"status":"success","data":[{"recipient","id"}, …]}; numbers it will not send to come back under "invalid numbers".
// ---------------------------------------------------------------------------------------------------------------------

const ArkeselAnswer = v.object({
  status: v.string(),
  message: v.optional(v.string()),
  data: v.optional(v.array(v.record(v.string(), v.unknown()))),
});

export function arkeselSms(settings: Extract<SmsProviderConfig, { name: "arkesel" }>, options: ProviderOptions = {}): SmsPort {
  const url = `${settings.baseUrl ?? "https://sms.arkesel.com"}/api/v2/sms/send`;
  return {
    kind: "arkesel",
    async send(message) {
      const answer = await call(
        "Arkesel",
        url,
        {
          method: "POST",
          headers: { "api-key": settings.apiKey, "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ sender: settings.senderId, message: message.body, recipients: [message.to] }),
        },
        options,
      );
      const parsed = v.safeParse(ArkeselAnswer, answer.json);
      const words = parsed.success ? (parsed.output.message ?? "") : wordsOf(answer.json, "message");
      if (answer.status < 200 || answer.status > 299 || !parsed.success || parsed.output.status !== "success") {
        throw refused("Arkesel", answer, words, refusalOf(answer.status, words));
      }
      const data = parsed.output.data ?? [];
      if (data.some((entry) => entry.recipient === message.to && typeof entry.id === "string")) return;
      const invalid = data.some((entry) => Array.isArray(entry["invalid numbers"]) && (entry["invalid numbers"] as unknown[]).includes(message.to));
      throw refused("Arkesel", answer, invalid ? "invalid number" : "no message id for the recipient", invalid ? "number" : "unavailable");
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Hubtel, Simple SEND SMS (POST): POST /v1/messages/send on sms.hubtel.com, Basic auth client id:secret, JSON
// {From, To, Content}. Success is {"status":0,"messageId",…,"statusDescription"}.
// ---------------------------------------------------------------------------------------------------------------------

const HubtelAnswer = v.looseObject({
  status: v.optional(v.number()),
  Status: v.optional(v.number()),
  messageId: v.optional(v.nullable(v.string())),
  MessageId: v.optional(v.nullable(v.string())),
  statusDescription: v.optional(v.nullable(v.string())),
  message: v.optional(v.nullable(v.string())),
  Message: v.optional(v.nullable(v.string())),
});

export function hubtelSms(settings: Extract<SmsProviderConfig, { name: "hubtel" }>, options: ProviderOptions = {}): SmsPort {
  const url = `${settings.baseUrl ?? "https://sms.hubtel.com"}/v1/messages/send`;
  return {
    kind: "hubtel",
    async send(message) {
      const answer = await call(
        "Hubtel",
        url,
        {
          method: "POST",
          headers: { Authorization: basic(settings.clientId, settings.clientSecret), "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ From: settings.senderId, To: plus(message.to), Content: message.body }),
        },
        options,
      );
      const parsed = v.safeParse(HubtelAnswer, answer.json);
      const status = parsed.success ? (parsed.output.status ?? parsed.output.Status) : undefined;
      const words = parsed.success ? (parsed.output.statusDescription ?? parsed.output.message ?? parsed.output.Message ?? "") : answer.text;
      if (answer.status >= 200 && answer.status <= 299 && status === 0) return;
      throw refused("Hubtel", answer, words, refusalOf(answer.status, words), status);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// mNotify, BMS API v2 quick SMS: POST /api/sms/quick?key=… on api.mnotify.com, JSON {recipient, sender, message,
// is_schedule, schedule_date}. Success is {"status":"success","code":"2000",…}.
// ---------------------------------------------------------------------------------------------------------------------

const MnotifyAnswer = v.looseObject({
  status: v.string(),
  code: v.optional(v.union([v.string(), v.number()])),
  message: v.optional(v.string()),
});

export function mnotifySms(settings: Extract<SmsProviderConfig, { name: "mnotify" }>, options: ProviderOptions = {}): SmsPort {
  const base = `${settings.baseUrl ?? "https://api.mnotify.com"}/api/sms/quick`;
  return {
    kind: "mnotify",
    async send(message) {
      const url = `${base}?${new URLSearchParams({ key: settings.apiKey }).toString()}`;
      const answer = await call(
        "mNotify",
        url,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ recipient: [message.to], sender: settings.senderId, message: message.body, is_schedule: false, schedule_date: "" }),
        },
        options,
      );
      const parsed = v.safeParse(MnotifyAnswer, answer.json);
      const words = parsed.success ? (parsed.output.message ?? "") : answer.text;
      if (
        answer.status >= 200 &&
        answer.status <= 299 &&
        parsed.success &&
        parsed.output.status === "success" &&
        String(parsed.output.code ?? "2000") === "2000"
      )
        return;
      throw refused("mNotify", answer, words, refusalOf(answer.status, words), parsed.success ? parsed.output.code : undefined);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Africa's Talking, SMS send: POST /version1/messaging (api.africastalking.com; api.sandbox.africastalking.com for the
// "sandbox" username), header `apiKey`, Accept JSON, form body username, to, message, from. Each recipient comes back
// with a statusCode: 100 Processed, 101 Sent, 102 Queued are accepted; the others are refusals.
// ---------------------------------------------------------------------------------------------------------------------

const AfricasTalkingAnswer = v.object({
  SMSMessageData: v.object({
    Message: v.optional(v.string()),
    Recipients: v.array(
      v.looseObject({ statusCode: v.number(), number: v.optional(v.string()), status: v.optional(v.string()), messageId: v.optional(v.string()) }),
    ),
  }),
});

const AT_ACCEPTED = new Set([100, 101, 102]);
const AT_REFUSALS: Record<number, SmsRefusal> = {
  401: "unavailable", // RiskHold: held by Africa's Talking's checks
  402: "sender", // InvalidSenderId
  403: "number", // InvalidPhoneNumber
  404: "number", // UnsupportedNumberType
  405: "balance", // InsufficientBalance
  406: "number", // UserInBlacklist
  407: "number", // CouldNotRoute
  409: "number", // DoNotDisturbRejection
};

export function africasTalkingSms(settings: Extract<SmsProviderConfig, { name: "africastalking" }>, options: ProviderOptions = {}): SmsPort {
  const host = settings.username === "sandbox" ? "https://api.sandbox.africastalking.com" : "https://api.africastalking.com";
  const url = `${settings.baseUrl ?? host}/version1/messaging`;
  return {
    kind: "africastalking",
    async send(message) {
      const form = new URLSearchParams({ username: settings.username, to: plus(message.to), message: message.body });
      if (settings.senderId) form.set("from", settings.senderId);
      const answer = await call(
        "Africa's Talking",
        url,
        {
          method: "POST",
          headers: { apiKey: settings.apiKey, Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
          body: form.toString(),
        },
        options,
      );
      const parsed = v.safeParse(AfricasTalkingAnswer, answer.json);
      if (!parsed.success || answer.status < 200 || answer.status > 299)
        throw refused("Africa's Talking", answer, answer.text, refusalOf(answer.status, answer.text));
      const { Message, Recipients } = parsed.output.SMSMessageData;
      const recipient = Recipients.find((entry) => entry.number === plus(message.to)) ?? Recipients[0];
      // No recipient at all: the whole request was refused, and Message says why (e.g. "InvalidSenderId").
      if (!recipient) throw refused("Africa's Talking", answer, Message ?? "", refusalFromWords(Message ?? ""));
      if (AT_ACCEPTED.has(recipient.statusCode)) return;
      const words = recipient.status ?? Message ?? "";
      throw refused("Africa's Talking", answer, words, AT_REFUSALS[recipient.statusCode] ?? refusalFromWords(words), recipient.statusCode);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Twilio, Programmable Messaging (API 2010-04-01): POST /2010-04-01/Accounts/{AccountSid}/Messages.json, Basic auth
// AccountSid:AuthToken, form To, Body and From or MessagingServiceSid. Success is 201 with the Message resource (sid
// SM…); an error is {"code","message","more_info","status"} with Twilio's error code.
// ---------------------------------------------------------------------------------------------------------------------

const TwilioMessage = v.looseObject({ sid: v.pipe(v.string(), v.regex(/^(SM|MM)[0-9a-fA-F]{32}$/)), status: v.optional(v.string()) });
const TwilioError = v.looseObject({ code: v.optional(v.nullable(v.number())), message: v.optional(v.string()), status: v.optional(v.number()) });

const TWILIO_REFUSALS: Record<number, SmsRefusal> = {
  20003: "auth", // Authenticate: bad Account SID or Auth Token
  20404: "auth", // the account (in the URL) was not found
  10001: "auth", // Account is not active
  21608: "auth", // a trial account may send only to verified numbers: the account, not the person's number
  21211: "number", // invalid 'To' phone number
  21214: "number", // 'To' number cannot be reached
  21408: "number", // permission to send to this region is not enabled
  21610: "number", // the recipient has replied STOP
  21612: "number", // 'To' not currently reachable via SMS
  21614: "number", // 'To' is not a mobile number
  21212: "sender", // invalid 'From' number
  21606: "sender", // 'From' is not a valid, SMS-capable number of this account
  21659: "sender", // 'From' is not a Twilio number
  21660: "sender", // 'From' does not belong to this account
  20429: "unavailable", // too many requests
};

export function twilioSms(settings: Extract<SmsProviderConfig, { name: "twilio" }>, options: ProviderOptions = {}): SmsPort {
  const url = `${settings.baseUrl ?? "https://api.twilio.com"}/2010-04-01/Accounts/${settings.accountSid}/Messages.json`;
  return {
    kind: "twilio",
    async send(message) {
      const form = new URLSearchParams({ To: plus(message.to), Body: message.body });
      // A Messaging Service picks its own sender; From is then left out, as Twilio documents.
      if (settings.messagingServiceSid) form.set("MessagingServiceSid", settings.messagingServiceSid);
      else if (settings.from) form.set("From", settings.from);
      const answer = await call(
        "Twilio",
        url,
        {
          method: "POST",
          headers: {
            Authorization: basic(settings.accountSid, settings.authToken),
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "application/json",
          },
          body: form.toString(),
        },
        options,
      );
      if (answer.status >= 200 && answer.status <= 299) {
        const created = v.safeParse(TwilioMessage, answer.json);
        if (created.success && created.output.status !== "failed" && created.output.status !== "undelivered") return;
        throw refused("Twilio", answer, created.success ? `message ${created.output.status ?? ""}` : "unreadable answer", "unavailable");
      }
      const error = v.safeParse(TwilioError, answer.json);
      const code = error.success ? (error.output.code ?? undefined) : undefined;
      const words = error.success ? (error.output.message ?? "") : answer.text;
      throw refused("Twilio", answer, words, (code === undefined ? undefined : TWILIO_REFUSALS[code]) ?? refusalOf(answer.status, words), code);
    },
  };
}

/** The adapter of a configured provider. */
export function providerSms(settings: SmsProviderConfig, options: ProviderOptions = {}): SmsPort {
  switch (settings.name) {
    case "arkesel":
      return arkeselSms(settings, options);
    case "hubtel":
      return hubtelSms(settings, options);
    case "mnotify":
      return mnotifySms(settings, options);
    case "africastalking":
      return africasTalkingSms(settings, options);
    case "twilio":
      return twilioSms(settings, options);
  }
}
