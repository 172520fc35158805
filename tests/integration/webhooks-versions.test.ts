// Webhook payloads in dated versions (decision 044; docs/api-changelog.md 2026-12-01), against the built Worker:
// one event, stored once, reaches an endpoint pinned to 2026-11-27 in the shape the portal sent before versions
// existed and an endpoint of the current version as GET answers the object, each signed over the bytes it got (both
// verify with the `standardwebhooks` package and PP-Signature); the events feed answers each version's shape as
// PP-Version (or the key's pin) names it; the Developers tab says each endpoint's version.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint, type WebhookEndpoint } from "#server/webhooks/endpoints.db";
import { processPayouts } from "#server/settlement/payouts";
import { newWebhookSecret, verifySignature } from "#server/webhooks/signing";
import { CURRENT_API_VERSION } from "#server/partner-api/versions";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { answerOf, api, eventually, makeKey } from "../support/partner-api";
import { webhooksConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";

const portal = usePortal({
  queueConsumers: webhooksConsumers(),
  vars: { WEBHOOKS_RETRY_BASE_SECONDS: "1", WEBHOOKS_RETRY_MAX_SECONDS: "1", WEBHOOKS_TIMEOUT_SECONDS: "2" },
});
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

interface Envelope {
  id: string;
  type: string;
  created: string;
  data: Record<string, unknown>;
}

interface Pinned {
  endpoint: WebhookEndpoint;
  secret: string;
  path: string;
}

/** An endpoint made now (pinned to the current version), or moved to an older pin as migration 0037 left the endpoints made before it. */
async function endpointPinnedTo(version: string, path: string): Promise<Pinned> {
  const secret = newWebhookSecret();
  const endpoint = await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: receiver.url(path), eventTypes: ["settlement.paid", "settlement.failed"], description: `Pinned to ${version}` },
    secret,
    "development",
  );
  if (version !== endpoint.apiVersion) {
    await (await portal().db()).prepare("UPDATE webhook_endpoints SET api_version = ? WHERE id = ?").bind(version, endpoint.id).run();
  }
  return { endpoint, secret, path };
}

const bodiesAt = (path: string, eventId: string): ReceivedWebhook[] => receiver.to(path).filter((request) => request.headers["webhook-id"] === eventId);

/** The one delivery of `eventId` at the endpoint, checked: signed over exactly the bytes received, with the endpoint's secret. */
async function deliveredTo(pinned: Pinned, eventId: string): Promise<Envelope> {
  const [request] = bodiesAt(pinned.path, eventId);
  expect(request, `a delivery of ${eventId} at ${pinned.path}`).toBeDefined();
  const envelope = JSON.parse(request!.body) as Envelope;
  // The Standard Webhooks reference library, with the secret as the Developers tab shows it, verifies the body received.
  expect(new StandardWebhook(pinned.secret).verify(request!.body, request!.headers)).toEqual(envelope);
  expect(() => new StandardWebhook(newWebhookSecret()).verify(request!.body, request!.headers)).toThrow();
  expect(await verifySignature(request!.headers["pp-signature"]!, request!.body, pinned.secret, { nowSeconds: Math.floor(request!.at / 1000) })).toEqual({
    ok: true,
  });
  return envelope;
}

describe("one settlement event to endpoints pinned to the two versions", () => {
  let older: Pinned;
  let current: Pinned;
  let failedId: string;
  let failedEvent: string;

  beforeAll(async () => {
    older = await endpointPinnedTo("2026-11-27", "/pinned/2026-11-27");
    current = await endpointPinnedTo(CURRENT_API_VERSION, "/pinned/current");
    const failing = await processPayouts(
      businessOf(KUMASI),
      { kind: "test", pay: async () => ({ ok: false, error: "Bank closed: Ɔkɔmfo Anokye branch" }) },
      { limit: 1 },
    );
    expect(failing.failed).toHaveLength(1);
    failedId = failing.failed[0]!.id;
    // A seeded settlement may have been tried before: the event names the attempt.
    failedEvent = (await (
      await portal().db()
    )
      .prepare("SELECT id FROM webhook_events WHERE business_id = ? AND type = 'settlement.failed' AND id LIKE ?")
      .bind(KUMASI, `evt_${failedId}_failed_%`)
      .first<string>("id"))!;
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    await eventually(async () => bodiesAt(older.path, failedEvent).length > 0 && bodiesAt(current.path, failedEvent).length > 0, 20_000, "both deliveries");
  });

  it("a new endpoint is pinned to the current version, 2026-12-01", () => {
    expect(CURRENT_API_VERSION).toBe("2026-12-01");
    expect(current.endpoint.apiVersion).toBe("2026-12-01");
  });

  it("the current endpoint gets the settlement as GET /api/v1/settlements lists it; the older one the 2026-11-27 shape; each verifies", async () => {
    const now = await deliveredTo(current, failedEvent);
    const before = await deliveredTo(older, failedEvent);
    expect(now.id).toBe(before.id);
    expect({ type: now.type, created: now.created }).toEqual({ type: before.type, created: before.created });

    const key = await makeKey(portal(), KUMASI);
    const listed = (await answerOf(await api(portal(), key, "/api/v1/settlements?status=failed&limit=100"))).body as { data: { id: string }[] };
    const settlement = listed.data.find((item) => item.id === failedId);
    expect(settlement).toMatchObject({ status: "failed", paid_at: null });
    const attempts = (settlement as unknown as { attempts: number }).attempts;
    expect(failedEvent).toBe(`evt_${failedId}_failed_${attempts}`);
    expect(now.data).toEqual(settlement);

    expect(before.data).toEqual({
      settlement: {
        id: failedId,
        reference: (settlement as unknown as { reference: string }).reference,
        net: (settlement as unknown as { net: number }).net,
        currency: "GHS",
        attempt: attempts,
        error: "Bank closed: Ɔkɔmfo Anokye branch",
        willRetry: attempts < 5,
      },
    });
    // The bytes differ, so each signature covers its own body: one endpoint's signature does not verify the other's body.
    const [olderRequest] = bodiesAt(older.path, failedEvent);
    const [currentRequest] = bodiesAt(current.path, failedEvent);
    expect(olderRequest!.body).not.toBe(currentRequest!.body);
    expect(() => new StandardWebhook(current.secret).verify(olderRequest!.body, currentRequest!.headers)).toThrow();
  });

  it("a payout paid afterwards: settlement.paid in each shape, as GET lists the paid settlement", async () => {
    const paying = await processPayouts(businessOf(KUMASI), { kind: "test", pay: async () => ({ ok: true }) }, { limit: 1 });
    expect(paying.paid).toHaveLength(1);
    const paidId = paying.paid[0]!;
    const paidEvent = `evt_${paidId}_paid`;
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    await eventually(async () => bodiesAt(older.path, paidEvent).length > 0 && bodiesAt(current.path, paidEvent).length > 0, 20_000, "both deliveries");
    const key = await makeKey(portal(), KUMASI);
    const listed = (await answerOf(await api(portal(), key, "/api/v1/settlements?status=paid&limit=100"))).body as { data: Record<string, unknown>[] };
    const settlement = listed.data.find((item) => item.id === paidId)!;
    expect((await deliveredTo(current, paidEvent)).data).toEqual(settlement);
    expect((await deliveredTo(older, paidEvent)).data).toEqual({
      settlement: {
        id: paidId,
        reference: settlement.reference,
        net: settlement.net,
        currency: "GHS",
        attempt: settlement.attempts,
        paidAt: settlement.paid_at,
      },
    });
  });

  it("the events feed answers each version's shape: PP-Version, or the key's pin; each the very body that version's endpoint got", async () => {
    const current_ = await makeKey(portal(), KUMASI);
    const pinnedOld = await makeKey(portal(), KUMASI, { apiVersion: "2026-11-27" });
    const asDelivered = async (pinned: Pinned) => deliveredTo(pinned, failedEvent);
    const one = async (key: string, headers: Record<string, string> = {}) => {
      const response = await api(portal(), key, `/api/v1/events/${failedEvent}`, undefined, headers);
      const { recorded_at: _recorded, ...event } = (await answerOf(response)).body as Envelope & { recorded_at: string };
      return { version: response.headers.get("PP-Version"), event };
    };
    expect(await one(current_)).toEqual({ version: "2026-12-01", event: await asDelivered(current) });
    expect(await one(current_, { "PP-Version": "2026-11-27" })).toEqual({ version: "2026-11-27", event: await asDelivered(older) });
    expect(await one(pinnedOld)).toEqual({ version: "2026-11-27", event: await asDelivered(older) });
    expect(await one(pinnedOld, { "PP-Version": "2026-12-01" })).toEqual({ version: "2026-12-01", event: await asDelivered(current) });

    // The list too.
    const page = async (key: string, headers: Record<string, string> = {}) =>
      (
        (await answerOf(await api(portal(), key, "/api/v1/events?type=settlement.failed&limit=100", undefined, headers))).body as { data: Envelope[] }
      ).data.find((event) => event.id === failedEvent)?.data;
    expect(await page(current_)).toEqual((await asDelivered(current)).data);
    expect(await page(current_, { "PP-Version": "2026-11-27" })).toEqual((await asDelivered(older)).data);
  });

  it("the Developers tab says each endpoint's version", async () => {
    const page = await portal().fetch("/settings?tab=developers", { headers: await signedInCookie(portal()), redirect: "manual" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("API version 2026-11-27: deliveries carry that version&#x27;s shapes.");
    expect(html).toContain("API version 2026-12-01: deliveries carry that version&#x27;s shapes.");
  });

  it("every event and delivery holds what its version's schema says", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen]).toEqual(expect.arrayContaining(["settlement.failed", "settlement.paid"]));
  });
});
