// Contract tests of the five provider adapters against local fakes that follow each provider's documented request and
// answers (tests/support/fake-sms-providers.ts; decision 040): the request each adapter sends, and what each documented
// success and refusal becomes. Settings come through configOf, as the Worker reads them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { configOf } from "../env";
import { SmsDeliveryError, smsPortFor } from "./sms";
import { providerSms, refusalFromWords } from "./providers";
import { providerWords } from "./port";
import { FAKE_SMS_CREDENTIALS, startFakeSmsProviders, type FakeMode, type FakeSmsProviders, type ProviderName } from "../../tests/support/fake-sms-providers";

const PROVIDERS: ProviderName[] = ["arkesel", "hubtel", "mnotify", "africastalking", "twilio"];
const TO = "233244123456";
// Ghanaian letters and an emoji must reach the provider byte for byte.
const BODY = "Ɔkyeame Ɛsi Ŋmɛnɛ: your Partners Portal code is 123456 🇬🇭✅";
const NUMBER_FORMAT: Record<ProviderName, string> = { arkesel: TO, mnotify: TO, hubtel: `+${TO}`, africastalking: `+${TO}`, twilio: `+${TO}` };

let fake: FakeSmsProviders;
beforeAll(async () => {
  fake = await startFakeSmsProviders();
});
afterAll(() => fake?.close());
afterEach(() => {
  expect(fake.violations).toEqual([]);
  fake.mode = "ok";
});

function portOf(provider: ProviderName, extra: Record<string, string> = {}, timeoutMs?: number) {
  const config = configOf({ ...fake.vars(provider), ...extra }).auth;
  expect(config.smsProvider?.name).toBe(provider);
  return timeoutMs === undefined ? smsPortFor(config, {} as D1Database)! : providerSms(config.smsProvider!, { timeoutMs });
}

async function refusal(provider: ProviderName, mode: FakeMode): Promise<SmsDeliveryError> {
  fake.mode = mode;
  const error = await portOf(provider)
    .send({ to: TO, body: BODY })
    .then(
      () => null,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(SmsDeliveryError);
  return error as SmsDeliveryError;
}

describe.each(PROVIDERS)("%s", (provider) => {
  it("sends the documented request: auth, number format, sender id, and the body in UTF-8 unchanged", async () => {
    const before = fake.received.length;
    const port = portOf(provider);
    expect(port.kind).toBe(provider);
    await port.send({ to: TO, body: BODY });
    const sender = provider === "twilio" ? FAKE_SMS_CREDENTIALS.twilioFrom : FAKE_SMS_CREDENTIALS.senderId;
    expect(fake.received.slice(before)).toEqual([{ provider, to: NUMBER_FORMAT[provider], body: BODY, sender }]);
  });

  it("a refused key is an auth refusal", async () => {
    expect((await refusal(provider, "auth")).reason).toBe("auth");
  });

  it("no credit left is a balance refusal", async () => {
    expect((await refusal(provider, "balance")).reason).toBe("balance");
  });

  it("an invalid number is a number refusal, and the log's words never hold the number in full", async () => {
    const error = await refusal(provider, "number");
    expect(error.reason).toBe("number");
    expect(error.message).not.toContain(TO.slice(3));
  });

  it("a refused sender id is a sender refusal", async () => {
    expect((await refusal(provider, "sender")).reason).toBe("sender");
  });

  it("an error page or no answer in time is unavailable", async () => {
    expect((await refusal(provider, "down")).reason).toBe("unavailable");
    fake.mode = "hang";
    await expect(portOf(provider, {}, 200).send({ to: TO, body: "x" })).rejects.toMatchObject({ name: "SmsDeliveryError", reason: "unavailable" });
  });

  it("a wrong key from the settings is refused as the provider refuses it (auth), and the key is not in the message", async () => {
    const wrong: Record<ProviderName, Record<string, string>> = {
      arkesel: { ARKESEL_API_KEY: "wrong-key-123" },
      hubtel: { HUBTEL_CLIENT_SECRET: "wrong-key-123" },
      mnotify: { MNOTIFY_API_KEY: "wrong-key-123" },
      africastalking: { AT_API_KEY: "wrong-key-123" },
      twilio: { TWILIO_AUTH_TOKEN: "wrong-key-123" },
    };
    const error = await portOf(provider, wrong[provider])
      .send({ to: TO, body: "x" })
      .catch((caught: unknown) => caught as SmsDeliveryError);
    expect(error).toMatchObject({ reason: "auth" });
    expect((error as Error).message).not.toContain("wrong-key-123");
  });
});

describe("details of one provider each", () => {
  it("Twilio with a Messaging Service sends MessagingServiceSid and no From", async () => {
    const before = fake.received.length;
    const service = `MG${"a".repeat(32)}`;
    await portOf("twilio", { TWILIO_FROM: "", SMS_SENDER_ID: "", TWILIO_MESSAGING_SERVICE_SID: service }).send({ to: TO, body: BODY });
    expect(fake.received.slice(before)).toEqual([{ provider: "twilio", to: `+${TO}`, body: BODY, sender: service }]);
  });

  it("Africa's Talking without a sender id sends no from (their default)", async () => {
    const before = fake.received.length;
    await portOf("africastalking", { SMS_SENDER_ID: "" }).send({ to: TO, body: BODY });
    expect(fake.received.slice(before)).toEqual([{ provider: "africastalking", to: `+${TO}`, body: BODY, sender: null }]);
  });

  it("an answer that is not the documented success is never taken for one", async () => {
    const answers = [new Response("<html>ok</html>", { status: 200 }), new Response(JSON.stringify({ status: "queued" }), { status: 200 })];
    for (const answer of answers) {
      const port = providerSms({ name: "arkesel", apiKey: "k", senderId: "Partners", baseUrl: null }, { fetch: () => Promise.resolve(answer.clone()) });
      await expect(port.send({ to: TO, body: "x" })).rejects.toMatchObject({ reason: "unavailable" });
    }
  });

  it("the words of unknown refusals fall in the right category, or unavailable", () => {
    expect(refusalFromWords("Insufficient balance")).toBe("balance");
    expect(refusalFromWords("InvalidSenderId")).toBe("sender");
    expect(refusalFromWords("Invalid API key")).toBe("auth");
    expect(refusalFromWords("InvalidPhoneNumber")).toBe("number");
    expect(refusalFromWords("Something odd")).toBe("unavailable");
    expect(providerWords("The 'To' number +233244123456 is not valid")).toBe("The 'To' number [number] is not valid");
  });
});
