// Payments in, webhooks out: a payment, a failure and a reversal received through
// the Partner API reach a business's endpoint as payment.succeeded, payment.failed
// and payment.reversed, signed, once each, even when the queue delivers a batch again.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret, verifySignature } from "#server/webhooks/signing";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { api, eventually, makeKey, momoPayment, partiesOf, paymentAppliedAfter, type Parties } from "../support/partner-api";
import { paymentsConsumers, webhooksConsumers } from "../support/portal";
import { KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";

const portal = usePortal({
  queueConsumers: { ...paymentsConsumers(), ...webhooksConsumers() },
  vars: { WEBHOOKS_RETRY_BASE_SECONDS: "1", WEBHOOKS_RETRY_MAX_SECONDS: "2" },
});
let receiver: WebhookReceiver;
let secret: string;
let key: string;
let parties: Parties[];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  secret = newWebhookSecret();
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: receiver.url("/payments"), eventTypes: ["payment.succeeded", "payment.failed", "payment.reversed"] },
    secret,
    "development",
  );
  key = await makeKey(portal(), KUMASI);
  parties = await partiesOf(portal(), KUMASI);
});
afterAll(() => receiver.close());

interface Envelope {
  id: string;
  type: string;
  data: { reference: string; status: string; amount: number; fee: number; net: number; merchant: { code: string }; reversal: { reason: string } | null };
}

const received = (reference: string) =>
  receiver
    .to("/payments")
    .map((r) => ({ ...r, envelope: JSON.parse(r.body) as Envelope }))
    .filter((r) => r.envelope.data.reference === reference);

describe("payment webhooks", () => {
  it("announce a payment, a failure and a reversal once each, signed with the endpoint's secret", async () => {
    const paid = momoPayment(parties[0]!, { amount: 10_000 });
    const failed = momoPayment(parties[0]!, { status: "failed", failure_reason: "Timeout at the network" });
    expect((await api(portal(), key, "/api/v1/payments", { payments: [paid, failed] })).status).toBe(202);
    const ref = paid.reference as string;
    await eventually(async () => received(ref).length === 1 && received(failed.reference as string).length === 1, 20_000, "the payment webhooks");
    expect(
      (await api(portal(), key, `/api/v1/payments/${ref}/reversal`, { reason: "Wallet debit not completed", reversed_at: new Date().toISOString() })).status,
    ).toBe(202);
    await eventually(async () => received(ref).length === 2, 20_000, "the reversal webhook");

    // The same payment and reversal sent again (a processor's retry) announce nothing more.
    await api(portal(), key, "/api/v1/payments", paid);
    await api(portal(), key, `/api/v1/payments/${ref}/reversal`, { reason: "Wallet debit not completed", reversed_at: new Date().toISOString() });
    // Then a payment sent after them, announced: deliveries are queued in the order they fall due, so anything the
    // re-sends announced would have arrived first.
    const marker = await paymentAppliedAfter(portal(), key, KUMASI, parties[0]!);
    await eventually(async () => received(marker).length === 1, 20_000, "the webhook of the payment sent after");

    const [succeeded, reversed] = received(ref);
    expect(received(ref)).toHaveLength(2);
    expect(succeeded!.envelope).toMatchObject({
      type: "payment.succeeded",
      data: { status: "successful", amount: 10_000, fee: 75, net: 9_925, merchant: { code: parties[0]!.merchantCode } },
    });
    expect(reversed!.envelope).toMatchObject({ type: "payment.reversed", data: { status: "reversed", reversal: { reason: "Wallet debit not completed" } } });
    expect(received(failed.reference as string)[0]!.envelope.type).toBe("payment.failed");
    for (const request of [succeeded!, reversed!]) {
      expect(request.headers["pp-event-id"]).toBe(request.envelope.id);
      expect(new StandardWebhook(secret).verify(request.body, request.headers)).toEqual(request.envelope);
      expect(await verifySignature(request.headers["pp-signature"]!, request.body, secret, { nowSeconds: Math.floor(Date.now() / 1000) })).toEqual({
        ok: true,
      });
    }
  });
});

describe("the events it wrote", () => {
  it("each holds what the OpenAPI document says its type's data holds", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen].sort()).toEqual(expect.arrayContaining(["payment.failed", "payment.reversed", "payment.succeeded"]));
  });
});
