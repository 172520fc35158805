// Our deliveries must verify with the Standard Webhooks libraries unchanged, so a receiver needs no code of ours: the reference `standardwebhooks`
// package is the receiver here, given the endpoint's secret exactly as the Developers tab shows it.
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, standardHeaders, standardSignature } from "./signing";

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("Standard Webhooks signatures", () => {
  it("verify with the standardwebhooks package for any body, names from Ghana and emoji included", async () => {
    const secret = newWebhookSecret();
    const receiver = new Webhook(secret);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme" }), fc.stringMatching(/^evt_[a-f0-9]{1,32}$/), async (text, id) => {
        const body = JSON.stringify({ id, type: "payment.succeeded", data: { merchant: `Ɔkɔmfo Ɛsi Ŋ 🇬🇭 ${text}` } });
        const headers = await standardHeaders([secret], id, nowSeconds(), body);
        expect(receiver.verify(body, headers)).toEqual(JSON.parse(body));
      }),
      { numRuns: 60 },
    );
  });

  it("while a secret is rolled, a receiver holding either secret verifies", async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"id":"evt_1","type":"settlement.paid","data":{}}';
    const headers = await standardHeaders([current, previous], "evt_1", nowSeconds(), body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("a changed body, id or stale timestamp is refused by the receiver", async () => {
    const secret = newWebhookSecret();
    const receiver = new Webhook(secret);
    const body = '{"id":"evt_2","type":"refund.succeeded","data":{"amount":1000}}';
    const headers = await standardHeaders([secret], "evt_2", nowSeconds(), body);
    expect(() => receiver.verify(body.replace("1000", "9000"), headers)).toThrow();
    expect(() => receiver.verify(body, { ...headers, "webhook-id": "evt_3" })).toThrow();
    const stale = await standardHeaders([secret], "evt_2", nowSeconds() - 3600, body);
    expect(() => receiver.verify(body, stale)).toThrow();
  });

  it("agrees with the package's own signer", async () => {
    const secret = newWebhookSecret();
    const at = new Date(1_790_000_000_000);
    expect(await standardSignature(secret, "evt_9", Math.floor(at.getTime() / 1000), "{}")).toBe(new Webhook(secret).sign("evt_9", at, "{}"));
  });
});
