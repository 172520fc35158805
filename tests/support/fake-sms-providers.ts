// Stand-ins for the five SMS providers of functions/sms/providers.ts: one node:http server on 127.0.0.1 that answers
// each provider's documented path (decision 040) the way that provider documents, success or refusal. It checks each
// request against the documented shape (method, path, auth, content type, fields, number format, sender id) and keeps
// every deviation in `violations`, so a test fails when an adapter stops sending what the provider expects.
// Where the stored documentation did not show a refusal's exact answer, the answer here is marked "assumed".
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { expectText, formBody, jsonBody, readBody } from "./read-body";

export type ProviderName = "arkesel" | "hubtel" | "mnotify" | "africastalking" | "twilio";
/** ok: accepted; auth: bad key; balance: no credit; number: invalid number; sender: sender id refused; down: 503; hang: no answer. */
export type FakeMode = "ok" | "auth" | "balance" | "number" | "sender" | "down" | "hang";

/** The credentials the fakes accept; anything else is the provider's "bad key" answer. */
export const FAKE_SMS_CREDENTIALS = {
  senderId: "Partners 1",
  arkeselApiKey: "ark-test-key-0001",
  hubtelClientId: "hubtel-client-01",
  hubtelClientSecret: "hubtel-secret-01",
  mnotifyApiKey: "mnotify-test-key-01",
  atUsername: "partnersportal",
  atApiKey: "atsk_test_key_0001",
  twilioAccountSid: `AC${"0123456789abcdef".repeat(2)}`,
  twilioAuthToken: "twilio-token-0001",
  twilioFrom: "PartnersGH",
} as const;

export interface ReceivedSms {
  provider: ProviderName;
  /** The number as sent (233… or +233…). */
  to: string;
  body: string;
  sender: string | null;
}

export interface FakeSmsProviders {
  url: string;
  mode: FakeMode;
  received: ReceivedSms[];
  violations: string[];
  /** The Worker's vars (or the adapter's settings) that point `provider` at this fake. */
  vars(provider: ProviderName): Record<string, string>;
  close(): Promise<void>;
}

const C = FAKE_SMS_CREDENTIALS;
const SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

interface Reply {
  status: number;
  body: unknown;
  contentType?: string;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

// --- Arkesel SMS API v2 -------------------------------------------------------------------------------------------
function arkesel(request: IncomingMessage, text: string, mode: FakeMode, problems: string[], received: ReceivedSms[]): Reply {
  if (request.headers["api-key"] !== C.arkeselApiKey) return { status: 401, body: { status: "error", message: "Unauthenticated" } }; // assumed
  const body = jsonBody(request, text, problems);
  const sender = expectText(problems, "sender", body.sender, SENDER);
  const message = expectText(problems, "message", body.message);
  const recipients = Array.isArray(body.recipients) ? (body.recipients as unknown[]) : [];
  if (recipients.length !== 1 || !recipients.every((r) => typeof r === "string" && /^233\d{9}$/.test(r))) problems.push("recipients must be [233XXXXXXXXX]");
  const to = typeof recipients[0] === "string" ? recipients[0] : "";
  if (mode === "auth") return { status: 401, body: { status: "error", message: "Unauthenticated" } }; // assumed
  if (mode === "balance") return { status: 422, body: { status: "error", message: "Insufficient balance" } }; // assumed
  if (mode === "sender") return { status: 422, body: { status: "error", message: "Invalid Sender ID" } }; // assumed
  if (mode === "number") return { status: 200, body: { status: "success", data: [{ "invalid numbers": [to] }] } };
  received.push({ provider: "arkesel", to, body: message, sender });
  return { status: 200, body: { status: "success", data: [{ recipient: to, id: crypto.randomUUID() }] } };
}

// --- Hubtel SMS, /v1/messages/send ----------------------------------------------------------------------------------
function hubtel(request: IncomingMessage, text: string, mode: FakeMode, problems: string[], received: ReceivedSms[]): Reply {
  if (request.headers.authorization !== basic(C.hubtelClientId, C.hubtelClientSecret) || mode === "auth")
    return { status: 401, body: { message: "Unauthorized" } }; // assumed body
  const body = jsonBody(request, text, problems);
  const sender = expectText(problems, "From", body.From, SENDER);
  const to = expectText(problems, "To", body.To, /^\+233\d{9}$/);
  const content = expectText(problems, "Content", body.Content);
  if (mode === "balance") return { status: 402, body: { status: 7, statusDescription: "Insufficient balance" } }; // assumed
  if (mode === "sender") return { status: 400, body: { status: 6, statusDescription: "Invalid sender id" } }; // assumed
  if (mode === "number") return { status: 400, body: { status: 4, statusDescription: "Invalid destination number" } }; // assumed
  received.push({ provider: "hubtel", to, body: content, sender });
  return {
    status: 201,
    body: {
      rate: 0.0309,
      messageId: crypto.randomUUID(),
      status: 0,
      networkId: "62001",
      clientReference: null,
      statusDescription: "request submitted successfully",
    },
  };
}

// --- mNotify BMS API v2, quick SMS -----------------------------------------------------------------------------------
function mnotify(request: IncomingMessage, text: string, mode: FakeMode, problems: string[], received: ReceivedSms[]): Reply {
  const key = new URL(request.url ?? "/", "http://fake").searchParams.get("key");
  if (key !== C.mnotifyApiKey || mode === "auth") return { status: 401, body: { status: "error", code: "1002", message: "Invalid API key" } }; // assumed
  const body = jsonBody(request, text, problems);
  const recipients = Array.isArray(body.recipient) ? (body.recipient as unknown[]) : [];
  if (recipients.length !== 1 || !recipients.every((r) => typeof r === "string" && /^233\d{9}$/.test(r))) problems.push("recipient must be [233XXXXXXXXX]");
  const sender = expectText(problems, "sender", body.sender, SENDER);
  const message = expectText(problems, "message", body.message);
  if (body.is_schedule !== false) problems.push("is_schedule must be false");
  if (mode === "balance") return { status: 200, body: { status: "error", code: "1003", message: "Insufficient balance" } }; // assumed
  if (mode === "sender") return { status: 200, body: { status: "error", code: "1005", message: "Sender ID is not registered" } }; // assumed
  if (mode === "number") return { status: 200, body: { status: "error", code: "1004", message: "Invalid recipient number" } }; // assumed
  received.push({ provider: "mnotify", to: typeof recipients[0] === "string" ? recipients[0] : "", body: message, sender });
  return {
    status: 200,
    body: {
      status: "success",
      code: "2000",
      message: "messages sent successfully",
      summary: { _id: crypto.randomUUID(), type: "API QUICK SMS", total_sent: 1 },
    },
  };
}

// --- Africa's Talking, /version1/messaging ---------------------------------------------------------------------------
function africasTalking(request: IncomingMessage, text: string, mode: FakeMode, problems: string[], received: ReceivedSms[]): Reply {
  if (request.headers.apikey !== C.atApiKey || mode === "auth")
    return { status: 401, body: "The supplied authentication is invalid", contentType: "text/plain" };
  if (request.headers.accept !== "application/json") problems.push("Accept is not application/json (the default answer is XML)");
  const body = formBody(request, text, problems);
  if (body.get("username") !== C.atUsername) problems.push("username is not the application's");
  const to = expectText(problems, "to", body.get("to"), /^\+233\d{9}$/);
  const message = expectText(problems, "message", body.get("message"));
  const from = body.get("from");
  if (from !== null && !SENDER.test(from)) problems.push("from is malformed");
  const recipient = (statusCode: number, status: string) => ({ statusCode, number: to, status, cost: "0", messageId: "None" });
  if (mode === "balance") return { status: 201, body: { SMSMessageData: { Message: "Sent to 0/1", Recipients: [recipient(405, "InsufficientBalance")] } } };
  if (mode === "number") return { status: 201, body: { SMSMessageData: { Message: "Sent to 0/1", Recipients: [recipient(403, "InvalidPhoneNumber")] } } };
  if (mode === "sender") return { status: 201, body: { SMSMessageData: { Message: "InvalidSenderId", Recipients: [] } } };
  received.push({ provider: "africastalking", to, body: message, sender: from });
  return {
    status: 201,
    body: {
      SMSMessageData: {
        Message: "Sent to 1/1 Total Cost: GHS 0.0300",
        Recipients: [{ ...recipient(101, "Success"), cost: "GHS 0.0300", messageId: "ATXid_1" }],
      },
    },
  };
}

// --- Twilio, Messages (2010-04-01) -----------------------------------------------------------------------------------
function twilio(request: IncomingMessage, text: string, mode: FakeMode, problems: string[], received: ReceivedSms[]): Reply {
  const error = (status: number, code: number, message: string) => ({
    status,
    body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  });
  if (request.headers.authorization !== basic(C.twilioAccountSid, C.twilioAuthToken) || mode === "auth") return error(401, 20003, "Authenticate");
  const body = formBody(request, text, problems);
  const to = expectText(problems, "To", body.get("To"), /^\+233\d{9}$/);
  const message = expectText(problems, "Body", body.get("Body"));
  const from = body.get("From");
  const service = body.get("MessagingServiceSid");
  if ((from === null) === (service === null)) problems.push("exactly one of From and MessagingServiceSid must be sent");
  if (mode === "number") return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
  if (mode === "sender")
    return error(400, 21606, "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination/account.");
  if (mode === "balance") return error(400, 20005, "Account not active: insufficient funds"); // assumed
  received.push({ provider: "twilio", to, body: message, sender: from ?? service });
  const sid = `SM${crypto.randomUUID().replace(/-/g, "")}`;
  return {
    status: 201,
    body: { sid, account_sid: C.twilioAccountSid, to, from, body: message, status: "queued", api_version: "2010-04-01", error_code: null },
  };
}

const ROUTES: { provider: ProviderName; path: RegExp; handle: typeof arkesel }[] = [
  { provider: "arkesel", path: /^\/api\/v2\/sms\/send$/, handle: arkesel },
  { provider: "hubtel", path: /^\/v1\/messages\/send$/, handle: hubtel },
  { provider: "mnotify", path: /^\/api\/sms\/quick$/, handle: mnotify },
  { provider: "africastalking", path: /^\/version1\/messaging$/, handle: africasTalking },
  { provider: "twilio", path: new RegExp(`^/2010-04-01/Accounts/${C.twilioAccountSid}/Messages\\.json$`), handle: twilio },
];

export async function startFakeSmsProviders(): Promise<FakeSmsProviders> {
  const fake: FakeSmsProviders = { url: "", mode: "ok", received: [], violations: [], vars: () => ({}), close: async () => undefined };
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = new URL(request.url ?? "/", "http://fake").pathname;
      const route = ROUTES.find((candidate) => candidate.path.test(path));
      if (fake.mode === "hang") return;
      if (!route || request.method !== "POST") {
        fake.violations.push(`${request.method} ${path}: not a documented send`);
        response.writeHead(404, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ message: "Not found" }));
        return;
      }
      if (fake.mode === "down") {
        response.writeHead(503, { "Content-Type": "text/html" });
        response.end("<h1>503 Service Unavailable</h1>");
        return;
      }
      const problems: string[] = [];
      const reply = route.handle(request, text, fake.mode, problems, fake.received);
      fake.violations.push(...problems.map((problem) => `${route.provider}: ${problem}`));
      const answer = problems.length > 0 ? { status: 400, body: { message: problems.join("; ") } } : reply;
      response.writeHead(answer.status, { "Content-Type": reply.contentType ?? "application/json" });
      response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.vars = (provider) => {
    const common = { SMS_PROVIDER: provider, SMS_PROVIDER_BASE_URL: fake.url, SMS_SENDER_ID: C.senderId };
    switch (provider) {
      case "arkesel":
        return { ...common, ARKESEL_API_KEY: C.arkeselApiKey };
      case "hubtel":
        return { ...common, HUBTEL_CLIENT_ID: C.hubtelClientId, HUBTEL_CLIENT_SECRET: C.hubtelClientSecret };
      case "mnotify":
        return { ...common, MNOTIFY_API_KEY: C.mnotifyApiKey };
      case "africastalking":
        return { ...common, AT_USERNAME: C.atUsername, AT_API_KEY: C.atApiKey };
      case "twilio":
        return { ...common, TWILIO_ACCOUNT_SID: C.twilioAccountSid, TWILIO_AUTH_TOKEN: C.twilioAuthToken, TWILIO_FROM: C.twilioFrom };
    }
  };
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
