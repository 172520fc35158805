// Webhooks going out (decision 017) against the built Worker: the
// outbox, the WEBHOOKS queue consumer, retries with backoff, the delivery log,
// signatures, rolled secrets, forbidden addresses, and the events the portal's own
// changes emit. Retries are 1 s apart here and answers time out after 2 s
// (WEBHOOKS_RETRY_* and WEBHOOKS_TIMEOUT_SECONDS), so hours of outage take seconds.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { approveMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { SILENT_SQL } from "#server/merchants/terminals.db";
import { ForbiddenError, NotFoundError } from "#server/tenancy/tenant";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookSecret,
  listWebhookEndpoints,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
  rollWebhookSecret,
  type WebhookEndpoint,
} from "#server/webhooks/endpoints.db";
import { listWebhookDeliveries } from "#server/webhooks/delivery-log.db";
import { webhookEventStatements } from "#server/webhooks/outbox.db";
import { processPayouts } from "#server/settlement/payouts";
import { retrySchedule } from "#server/webhooks/backoff";
import { resendWebhookDelivery, sendWebhookTestEvent } from "#server/webhooks/manual";
import { configOf } from "#server/env";
import { newWebhookSecret, verifySignature } from "#server/webhooks/signing";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "#server/webhooks/types";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { waitFor } from "../support/fake-events-service";
import { webhooksConsumers, type Portal } from "../support/portal";
import { ABENA_KUMASI, AMA_ACCRA, businessOf, KOFI_KUMASI, KUMASI, META, YAW_ACCRA } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { expectEventsAsDocumented } from "../support/event-payloads";
import { signedInCookie } from "../support/sign-in";
import { NOT_A_NOTICE } from "../support/sms-texts";

const SWEEP = "*/5 * * * *";
const FAST = { WEBHOOKS_RETRY_BASE_SECONDS: "1", WEBHOOKS_RETRY_MAX_SECONDS: "1", WEBHOOKS_TIMEOUT_SECONDS: "2" };

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});
async function receiver(options: { listening?: boolean } = {}): Promise<WebhookReceiver> {
  const made = await startWebhookReceiver(options);
  receivers.push(made);
  return made;
}

let pathCount = 0;
const freshPath = (name: string) => `/hooks/${name}-${(pathCount += 1)}`;

interface Made {
  endpoint: WebhookEndpoint;
  secret: string;
}

async function makeEndpoint(portal: Portal, url: string, eventTypes: readonly WebhookEventType[] = ["payment.succeeded"]): Promise<Made> {
  const secret = newWebhookSecret();
  const endpoint = await createWebhookEndpoint(KOFI_KUMASI, META, { url, eventTypes, description: "Ɔkɔdeɛ till 🦅" }, secret, "development");
  return { endpoint, secret };
}

/** An endpoint whose URL changed behind the rules' back (stored before a rule existed, or the environment changed). */
async function forceUrl(portal: Portal, endpointId: string, url: string): Promise<void> {
  await (await portal.db()).prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").bind(url, endpointId).run();
}

/** Writes events as a caller's batch would (the outbox), without queueing them. */
async function emit(portal: Portal, type: WebhookEventType, data: unknown = { amount: 1500 }): Promise<string> {
  const db = await portal.db();
  const id = `evt_test_${crypto.randomUUID().replaceAll("-", "")}`;
  await db.batch(webhookEventStatements(businessOf(KUMASI), [{ id, type, data, at: Date.now() }]));
  return id;
}

async function sweep(portal: Portal): Promise<void> {
  expect(await portal.scheduled(SWEEP)).toBe("ok");
}

interface DeliveryRow {
  status: string;
  attempts: number;
  queued_at: number | null;
}

async function delivery(portal: Portal, endpointId: string, eventId: string): Promise<DeliveryRow | null> {
  return (await portal.db())
    .prepare("SELECT status, attempts, queued_at FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ? AND event_id = ?")
    .bind(KUMASI, endpointId, eventId)
    .first<DeliveryRow>();
}

async function logOf(portal: Portal, endpointId: string, eventId: string) {
  const page = await listWebhookDeliveries(KOFI_KUMASI, endpointId, { limit: 100 });
  const found = page.rows.find((row) => row.eventId === eventId);
  if (!found) throw new Error(`No delivery of ${eventId} to ${endpointId}`);
  return found;
}

/**
 * Waits until no delivery of Kumasi's (to the endpoint, when given) is pending, queued or not: whatever a sweep queued
 * has been sent and its answer recorded. The signal before asserting that nothing more reached the receiver.
 */
function deliveriesEnded(portal: Portal, endpointId?: string) {
  return waitFor(`every delivery${endpointId ? ` to ${endpointId}` : ""} ended`, async () => {
    const pending = await (
      await portal.db()
    )
      .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE business_id = ? AND status = 'pending'${endpointId ? " AND endpoint_id = ?" : ""}`)
      .bind(KUMASI, ...(endpointId ? [endpointId] : []))
      .first<number>("n");
    return pending === 0;
  });
}

function waitForStatus(portal: Portal, endpointId: string, eventId: string, status: string, timeoutMs = 30_000) {
  return waitFor(`delivery of ${eventId} ${status}`, async () => (await delivery(portal, endpointId, eventId))?.status === status, timeoutMs);
}

/** Every request to the receiver is a signed envelope of one event that verifies with one of `secrets`. */
async function expectSigned(requests: ReceivedWebhook[], eventId: string, type: string, secrets: string[]) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["pp-event-id"]).toBe(eventId);
    expect(request.headers["pp-event-type"]).toBe(type);
    const envelope = JSON.parse(request.body) as { id: string; type: string; created: string; data: unknown };
    expect(envelope).toMatchObject({ id: eventId, type });
    expect(new Date(envelope.created).toISOString()).toBe(envelope.created);
    const header = request.headers["pp-signature"]!;
    expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
    const nowSeconds = Math.floor(request.at / 1000);
    for (const secret of secrets) expect(await verifySignature(header, request.body, secret, { nowSeconds }), `signed with ${secret}`).toEqual({ ok: true });
    expect(await verifySignature(header, request.body, newWebhookSecret(), { nowSeconds })).toEqual({ ok: false, reason: "no matching signature" });
    // The same delivery verifies with the Standard Webhooks reference library, the secret as the Developers tab shows it;
    // its id is the event's on every retry, so such a receiver de-duplicates retries.
    expect(request.headers["webhook-id"]).toBe(eventId);
    for (const secret of secrets)
      expect(new StandardWebhook(secret).verify(request.body, request.headers), `standard, signed with ${secret}`).toEqual(envelope);
    expect(() => new StandardWebhook(newWebhookSecret()).verify(request.body, request.headers)).toThrow();
  }
}

describe("delivering to a receiver that misbehaves", () => {
  let hooks: WebhookReceiver;
  const portal = usePortal(async () => {
    hooks = await receiver();
    return { vars: { ...FAST, WEBHOOKS_RETRY_WINDOW_SECONDS: "120" }, queueConsumers: webhooksConsumers() };
  });

  it("answers 500: retried until a 2xx, each attempt logged with its status, latency and the start of the answer", async () => {
    const path = freshPath("fails-twice");
    hooks.behave(path, (n) => (n <= 2 ? { status: 500, body: `broken ${n}` } : { status: 204 }));
    const { endpoint, secret } = await makeEndpoint(portal(), hooks.url(path));
    const eventId = await emit(portal(), "payment.succeeded", { reference: "MTN-1", payer: "Ɛsi Ŋkansah" });
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    expect(hooks.to(path)).toHaveLength(3);
    await expectSigned(hooks.to(path), eventId, "payment.succeeded", [secret]);
    expect(JSON.parse(hooks.to(path)[0]!.body).data).toEqual({ reference: "MTN-1", payer: "Ɛsi Ŋkansah" });
    const log = await logOf(portal(), endpoint.id, eventId);
    expect(log).toMatchObject({ status: "delivered", attempts: 3, eventType: "payment.succeeded" });
    expect(log.attemptLog.map((a) => [a.attempt, a.responseStatus, a.responseBody, a.manual])).toEqual([
      [1, 500, "broken 1", false],
      [2, 500, "broken 2", false],
      [3, 204, "", false],
    ]);
    expect(log.attemptLog.map((a) => a.error)).toEqual(["HTTP 500", "HTTP 500", null]);
    for (const attempt of log.attemptLog) expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    // Backoff: the attempts are at least the base delay apart.
    expect(log.attemptLog[1]!.at - log.attemptLog[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it("is slow (no answer within the timeout): the attempt is logged as no answer and retried", async () => {
    const path = freshPath("slow-once");
    hooks.behave(path, (n) => (n === 1 ? { status: 200, delayMs: 3500, body: "too late" } : { status: 200, body: "ok" }));
    const { endpoint, secret } = await makeEndpoint(portal(), hooks.url(path));
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    const log = await logOf(portal(), endpoint.id, eventId);
    expect(log.attemptLog.map((a) => [a.responseStatus, a.error])).toEqual([
      [null, "No answer within 2 s"],
      [200, null],
    ]);
    expect(log.attemptLog[0]!.latencyMs).toBeGreaterThanOrEqual(1900);
    await expectSigned(hooks.to(path), eventId, "payment.succeeded", [secret]);
  });

  it("answers 200 late but within the timeout: delivered at once, the latency and the first 1 KB of the answer kept", async () => {
    const path = freshPath("late");
    const answer = "Ɔ".repeat(400) + "x".repeat(2000);
    hooks.behave(path, () => ({ status: 200, delayMs: 1200, body: answer }));
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path));
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    const [attempt, ...more] = (await logOf(portal(), endpoint.id, eventId)).attemptLog;
    expect(more).toEqual([]);
    expect(attempt!.responseStatus).toBe(200);
    expect(attempt!.latencyMs).toBeGreaterThanOrEqual(1100);
    // 400 two-byte letters are 800 bytes; then 224 of the x's.
    expect(attempt!.responseBody).toBe("Ɔ".repeat(400) + "x".repeat(224));
    expect(hooks.to(path)).toHaveLength(1);
  });

  it("is down (nothing listening): retried until it is back, then delivered once", async () => {
    const down = await receiver({ listening: false });
    const path = freshPath("down");
    const { endpoint, secret } = await makeEndpoint(portal(), down.url(path));
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitFor("two failed attempts", async () => ((await delivery(portal(), endpoint.id, eventId))?.attempts ?? 0) >= 2);
    expect((await delivery(portal(), endpoint.id, eventId))?.status).toBe("pending");
    await down.start();
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    const log = await logOf(portal(), endpoint.id, eventId);
    const failed = log.attemptLog.slice(0, -1);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    for (const attempt of failed) {
      expect(attempt.responseStatus).toBeNull();
      expect(attempt.error).toBeTruthy();
    }
    expect(log.attemptLog.at(-1)!.responseStatus).toBe(200);
    expect(down.to(path)).toHaveLength(1);
    await expectSigned(down.to(path), eventId, "payment.succeeded", [secret]);
  });

  it("signs with both secrets while the secret is rolled, and the receiver may check either", async () => {
    const path = freshPath("rolled");
    const { endpoint, secret: old } = await makeEndpoint(portal(), hooks.url(path));
    const fresh = newWebhookSecret();
    await rollWebhookSecret(KOFI_KUMASI, META, endpoint.id, fresh);
    expect((await getWebhookEndpoint(KOFI_KUMASI, endpoint.id))?.previousSecretExpiresAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    const [request] = hooks.to(path);
    expect(request!.headers["pp-signature"]!.split(",").filter((part) => part.startsWith("v1="))).toHaveLength(2);
    await expectSigned(hooks.to(path), eventId, "payment.succeeded", [fresh, old]);
    // After the overlap only the new secret signs.
    await (
      await portal().db()
    )
      .prepare("UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, endpoint.id)
      .run();
    const later = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, later, "delivered");
    const last = hooks.to(path).at(-1)!;
    expect(last.headers["pp-signature"]!.split(",")).toHaveLength(2);
    expect(await verifySignature(last.headers["pp-signature"]!, last.body, old, { nowSeconds: Math.floor(last.at / 1000) })).toMatchObject({ ok: false });
  });

  it("never sends to a forbidden address, nor follows a redirect to one", async () => {
    const path = freshPath("private");
    // The receiver listens on 127.0.0.1: a loopback address, refused even in development (only the name localhost is allowed).
    await expect(makeEndpoint(portal(), `http://127.0.0.1:${hooks.port}${path}`)).rejects.toThrow(/private, loopback or link-local/);
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path));
    await forceUrl(portal(), endpoint.id, `http://127.0.0.1:${hooks.port}${path}`);
    const redirecting = freshPath("redirect");
    const target = freshPath("redirect-target");
    hooks.behave(redirecting, (n) => (n === 1 ? { status: 302, headers: { Location: `http://127.0.0.1:${hooks.port}${target}` } } : { status: 200 }));
    const { endpoint: redirect } = await makeEndpoint(portal(), hooks.url(redirecting));
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitFor("two attempts to the private address", async () => ((await delivery(portal(), endpoint.id, eventId))?.attempts ?? 0) >= 2);
    await waitForStatus(portal(), redirect.id, eventId, "delivered");
    expect(hooks.to(path)).toEqual([]);
    expect(hooks.to(target)).toEqual([]);
    const [notSent] = (await logOf(portal(), endpoint.id, eventId)).attemptLog;
    expect(notSent).toMatchObject({ responseStatus: null, latencyMs: null });
    expect(notSent!.error).toMatch(/^Not sent: .*private, loopback or link-local/);
    const [redirected] = (await logOf(portal(), redirect.id, eventId)).attemptLog;
    expect(redirected).toMatchObject({ responseStatus: 302 });
    expect(redirected!.error).toMatch(/^Redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:\d+\/hooks\/redirect-target-\d+\) not followed$/);
    // Not sent stays not sent: make the endpoint harmless for the tests after this one.
    await (await portal().db()).prepare("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'test' WHERE id = ?").bind(endpoint.id).run();
  });

  it("the outbox: an event whose batch was never followed by a dispatch is sent by the 5-minute sweep", async () => {
    const path = freshPath("outbox");
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path), ["settlement.paid"]);
    const eventId = await emit(portal(), "settlement.paid");
    // Written, not queued: only a dispatch (after a request, or the sweep) queues a delivery, and none has run.
    expect(await delivery(portal(), endpoint.id, eventId)).toMatchObject({ status: "pending", attempts: 0, queued_at: null });
    expect(hooks.to(path)).toEqual([]);
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    expect(hooks.to(path)).toHaveLength(1);
  });

  it("a change made by a request is queued once the request is answered, without waiting for the sweep", async () => {
    const path = freshPath("after-request");
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path), ["settlement.paid"]);
    const eventId = await emit(portal(), "settlement.paid");
    // A state-changing request runs the dispatcher for its business after its answer.
    await portal().fetch("/settings?tab=developers", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: portal().url,
        "Sec-Fetch-Site": "same-origin",
        ...(await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI)),
      },
      body: new URLSearchParams({ intent: "create-key", name: "Dispatch test" }).toString(),
    });
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
  });

  it("re-emitting an event with the same id delivers it once", async () => {
    const path = freshPath("same-id");
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path), ["payment.reversed"]);
    const db = await portal().db();
    const event = { id: `evt_same_${crypto.randomUUID()}`, type: "payment.reversed" as const, data: { reference: "R-1" }, at: Date.now() };
    await db.batch(webhookEventStatements(businessOf(KUMASI), [event]));
    await db.batch(webhookEventStatements(businessOf(KUMASI), [{ ...event, data: { reference: "changed" } }]));
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, event.id, "delivered");
    await sweep(portal());
    await deliveriesEnded(portal(), endpoint.id);
    expect(hooks.to(path)).toHaveLength(1);
    expect(JSON.parse(hooks.to(path)[0]!.body).data).toEqual({ reference: "R-1" });
  });

  it("'Send again' makes one manual attempt now; 'Send a test event' reaches one endpoint, signed", async () => {
    const path = freshPath("manual");
    const { endpoint, secret } = await makeEndpoint(portal(), hooks.url(path), ["payment.failed"]);
    const eventId = await emit(portal(), "payment.failed");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "delivered");
    const config = configOf({ ENVIRONMENT: "development", ...FAST }).webhooks;
    const log = await logOf(portal(), endpoint.id, eventId);
    const again = await resendWebhookDelivery(KOFI_KUMASI, config, log.id);
    expect(again).toMatchObject({ delivered: true, attempt: { attempt: 2, responseStatus: 200, manual: true } });
    expect(hooks.to(path)).toHaveLength(2);
    await expectSigned(hooks.to(path), eventId, "payment.failed", [secret]);
    // Another business's delivery is not found.
    await expect(resendWebhookDelivery({ ...KOFI_KUMASI, businessId: "bus_accra_mobile_pay" }, config, log.id)).rejects.toThrow(/not found/);
    const test = await sendWebhookTestEvent(KOFI_KUMASI, config, endpoint.id);
    expect(test.delivered).toBe(true);
    const last = hooks.to(path).at(-1)!;
    await expectSigned([last], test.eventId, "webhook.test", [secret]);
  });
});

describe("an endpoint that keeps failing", () => {
  // 8 seconds: on a loaded machine a queue may bring retries late; three attempts must still fit (decided: the window).
  const portal = usePortal({ vars: { ...FAST, WEBHOOKS_RETRY_WINDOW_SECONDS: "8" }, queueConsumers: webhooksConsumers() });

  it("marks the delivery failed after the window, disables the endpoint with the reason and texts each administrator", async () => {
    const down = await receiver({ listening: false });
    const { endpoint } = await makeEndpoint(portal(), down.url("/never"));
    const db = await portal().db();
    const outboxBefore = (await db.prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")) ?? 0;
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, eventId, "failed", 30_000);
    const log = await logOf(portal(), endpoint.id, eventId);
    expect(log.attemptLog.length).toBeGreaterThanOrEqual(3);
    // No attempt is planned past the window: at most the schedule's (a busy machine's queue may bring the last
    // planned one a little late, and then fewer fit; the times themselves are backoff's unit tests).
    const schedule = retrySchedule({ retryBaseSeconds: 1, retryMaxSeconds: 1, retryWindowSeconds: 8 });
    expect(log.attemptLog.length).toBeLessThanOrEqual(schedule.length + 1);
    const disabled = await waitFor("the endpoint disabled", async () => {
      const row = await getWebhookEndpoint(KOFI_KUMASI, endpoint.id);
      return row?.status === "disabled" ? row : null;
    });
    expect(disabled.disabledReason).toBe("Disabled automatically: every delivery failed for 8 seconds.");
    const admins = (
      await db
        .prepare(
          `SELECT min(p.msisdn) AS msisdn FROM memberships m JOIN users u ON u.id = m.user_id JOIN user_phones p ON p.user_id = m.user_id
           WHERE m.business_id = ? AND m.status = 'active' AND u.status = 'active' AND m.role IN ('Administrator', 'Super Administrator') GROUP BY m.user_id`,
        )
        .bind(KUMASI)
        .all<{ msisdn: string }>()
    ).results.map((row) => row.msisdn);
    expect(admins.length).toBeGreaterThan(0);
    const texts = await waitFor("the administrators' texts", async () => {
      const { results } = await db
        .prepare(`SELECT to_msisdn, body FROM dev_outbox WHERE ${NOT_A_NOTICE} ORDER BY id`)
        .all<{ to_msisdn: string; body: string }>();
      const fresh = results.slice(outboxBefore);
      return fresh.length >= admins.length ? fresh : null;
    });
    expect(texts.map((text) => text.to_msisdn).sort()).toEqual([...admins].sort());
    for (const text of texts) expect(text.body).toContain(down.url("/never"));
    expect(
      await db
        .prepare("SELECT count(*) AS n FROM audit_log WHERE business_id = ? AND action = 'webhook_endpoint.auto_disable' AND entity_id = ?")
        .bind(KUMASI, endpoint.id)
        .first("n"),
    ).toBe(1);
    // A disabled endpoint gets no more deliveries.
    const later = await emit(portal(), "payment.succeeded");
    expect(await delivery(portal(), endpoint.id, later)).toBeNull();
  });

  it("is not disabled when another delivery succeeded during the window", async () => {
    const hooks = await receiver();
    const path = freshPath("picky");
    // The receiver takes one event and refuses the other, every time.
    hooks.behave(path, (_n, body) => (body.includes('"good":false') ? { status: 422, body: "refused" } : { status: 200 }));
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path));
    const bad = await emit(portal(), "payment.succeeded", { good: false });
    const good = await emit(portal(), "payment.succeeded", { good: true });
    await sweep(portal());
    await waitForStatus(portal(), endpoint.id, good, "delivered", 20_000);
    await waitForStatus(portal(), endpoint.id, bad, "failed", 20_000);
    expect((await getWebhookEndpoint(KOFI_KUMASI, endpoint.id))?.status).toBe("enabled");
  });
});

describe("the portal's own changes emit their events", () => {
  let hooks: WebhookReceiver;
  const portal = usePortal(async () => {
    hooks = await receiver();
    return { vars: { ...FAST, WEBHOOKS_RETRY_WINDOW_SECONDS: "120" }, queueConsumers: webhooksConsumers() };
  });
  const ALL = "/hooks/everything";

  // The endpoint is made now, so it is pinned to the current version: each event's data is the object as GET answers it.
  type Envelope = { id: string; type: string; created: string; data: Record<string, unknown> };
  const received = (type: string): Envelope[] =>
    hooks
      .to(ALL)
      .map((request) => JSON.parse(request.body) as Envelope)
      .filter((envelope) => envelope.type === type);

  async function merchantsByBalance(): Promise<string[]> {
    const db = await portal().db();
    const { results } = await db.prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active'").bind(KUMASI).all<{ id: string }>();
    const balances = await Promise.all(results.map(async (row) => ({ id: row.id, available: (await getMerchantBalances(ABENA_KUMASI, row.id)).available })));
    return balances.sort((a, b) => b.available - a.available).map((row) => row.id);
  }

  it("approval requests, approved and rejected transfers, paid and failed settlements", async () => {
    const { secret } = await makeEndpoint(portal(), hooks.url(ALL), WEBHOOK_EVENT_TYPES);
    const [from, to] = await merchantsByBalance();
    const approved = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from!,
      to: { kind: "merchant", id: to! },
      amount: 1234,
      idempotencyKey: "wh-1",
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "transfer", approved.id);
    const rejected = await requestTransfer(ABENA_KUMASI, META, {
      fromMerchantId: from!,
      to: { kind: "merchant", id: to! },
      amount: 99,
      idempotencyKey: "wh-2",
    });
    await rejectMoneyRequest(KOFI_KUMASI, META, "transfer", rejected.id, "Not this week, Ɛfua");
    const invite = { email: "yaa.webhook@example.com", name: "Yaa Ŋmɛ", gender: "female", phone: "233244555777", role: "Viewer" };
    const requestId = await requestChange(KOFI_KUMASI, META, { kind: "employee", action: "create", after: invite });
    const failing = await processPayouts(businessOf(KUMASI), { kind: "test", pay: async () => ({ ok: false, error: "Bank closed" }) }, { limit: 1 });
    expect(failing.failed).toHaveLength(1);
    const paying = await processPayouts(businessOf(KUMASI), { kind: "test", pay: async () => ({ ok: true }) }, { limit: 2 });
    expect(paying.paid.length).toBeGreaterThan(0);
    await sweep(portal());
    await waitFor("every event at the receiver", () =>
      ["approval.requested", "transfer.approved", "transfer.rejected", "settlement.failed", "settlement.paid"].every((type) => received(type).length > 0),
    );
    await waitFor("three approval requests", () => received("approval.requested").length >= 3);
    // Each delivery is its own queue message: the second payout's event may land after the first of every type.
    await waitFor("an event for every paid settlement", () => received("settlement.paid").length >= paying.paid.length);

    const requests = received("approval.requested").map((envelope) => envelope.data);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "transfer", action: "create", target: approved.id, maker: ABENA_KUMASI.userId }),
        expect.objectContaining({ kind: "transfer", action: "create", target: rejected.id }),
        expect.objectContaining({ id: requestId, kind: "employee", action: "create", maker: KOFI_KUMASI.userId }),
      ]),
    );
    expect(received("transfer.approved").map((envelope) => envelope.data)).toEqual([
      expect.objectContaining({
        id: approved.id,
        amount: 1234,
        currency: "GHS",
        status: "completed",
        reason: null,
        decided_by: KOFI_KUMASI.userId,
        from_merchant: from,
        to_merchant: to,
        requested_by: ABENA_KUMASI.userId,
      }),
    ]);
    expect(received("transfer.rejected").map((envelope) => envelope.data)).toEqual([
      expect.objectContaining({ id: rejected.id, amount: 99, status: "rejected", reason: "Not this week, Ɛfua" }),
    ]);
    // A settlement as GET /api/v1/settlements lists it once the answer was applied.
    expect(received("settlement.failed").map((envelope) => envelope.data)).toEqual([
      expect.objectContaining({ id: failing.failed[0]!.id, status: "failed", paid_at: null, currency: "GHS", attempts: expect.any(Number) }),
    ]);
    expect(
      received("settlement.paid")
        .map((envelope) => envelope.data.id as string)
        .sort(),
    ).toEqual([...paying.paid].sort());
    for (const { data } of received("settlement.paid")) expect(data).toMatchObject({ status: "paid", paid_at: expect.any(String) });
    for (const request of hooks.to(ALL)) await expectSigned([request], request.headers["pp-event-id"]!, (JSON.parse(request.body) as Envelope).type, [secret]);
    // Every event once.
    const ids = hooks.to(ALL).map((request) => request.headers["pp-event-id"]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a silent terminal is announced once, and again only after it was seen and went silent again", async () => {
    const db = await portal().db();
    const cutoff = Date.now() - 24 * 3_600_000;
    const silent = (await db.prepare(`SELECT id FROM terminals WHERE business_id = ? AND ${SILENT_SQL}`).bind(KUMASI, cutoff).all<{ id: string }>()).results;
    const inService = (
      await db.prepare("SELECT id FROM terminals WHERE business_id = ? AND status IN ('assigned', 'active') ORDER BY serial").bind(KUMASI).all<{ id: string }>()
    ).results;
    expect(inService.length).toBeGreaterThan(0);
    const announcedIds = () => received("terminal.silent").map((envelope) => envelope.data.id as string);
    await sweep(portal());
    await waitFor("every silent terminal announced", () => announcedIds().length >= silent.length);
    await sweep(portal());
    await deliveriesEnded(portal());
    expect(announcedIds().sort()).toEqual(silent.map((row) => row.id).sort());

    // One terminal is heard from, then goes quiet for more than a day.
    const terminal = inService[0]!.id;
    const before = announcedIds().filter((id) => id === terminal).length;
    await db.prepare("UPDATE terminals SET last_seen_at = ? WHERE id = ?").bind(Date.now(), terminal).run();
    await sweep(portal());
    await deliveriesEnded(portal());
    expect(announcedIds().filter((id) => id === terminal)).toHaveLength(before);
    const lastSeen = Date.now() - 25 * 3_600_000;
    await db.prepare("UPDATE terminals SET last_seen_at = ? WHERE id = ?").bind(lastSeen, terminal).run();
    await sweep(portal());
    await waitFor("the new silence announced", () => announcedIds().filter((id) => id === terminal).length === before + 1);
    const last = received("terminal.silent")
      .filter((envelope) => envelope.data.id === terminal)
      .at(-1)!;
    expect(last.data.last_seen_at).toBe(new Date(lastSeen).toISOString());
    await sweep(portal());
    await deliveriesEnded(portal());
    expect(announcedIds().filter((id) => id === terminal)).toHaveLength(before + 1);
  });

  it("each event it wrote holds what the OpenAPI document says its type's data holds", async () => {
    const seen = await expectEventsAsDocumented(portal());
    expect([...seen]).toEqual(
      expect.arrayContaining(["approval.requested", "settlement.failed", "settlement.paid", "terminal.silent", "transfer.approved", "transfer.rejected"]),
    );
  });
});

describe("managing endpoints", () => {
  const portal = usePortal();

  async function audit(entityId: string): Promise<string[]> {
    const { results } = await (
      await portal().db()
    )
      .prepare("SELECT action FROM audit_log WHERE business_id = ? AND entity = 'webhook_endpoint' AND entity_id = ? ORDER BY id")
      .bind(KUMASI, entityId)
      .all<{ action: string }>();
    return results.map((row) => row.action);
  }

  it("creating, changing, rolling, disabling, enabling and deleting are audited; the secret is never in a listed endpoint", async () => {
    const secret = newWebhookSecret();
    const made = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: "https://Hooks.Example.com/pp", eventTypes: ["payment.succeeded", "payment.succeeded", "terminal.silent"], description: "  Ɛkuba’s 🦅 till  " },
      secret,
      "production",
    );
    expect(made).toMatchObject({
      url: "https://hooks.example.com/pp",
      eventTypes: ["payment.succeeded", "terminal.silent"],
      description: "Ɛkuba’s 🦅 till",
      status: "enabled",
      createdBy: KOFI_KUMASI.userId,
    });
    expect(made.id).toMatch(/^we_[0-9a-f]{32}$/);
    expect(JSON.stringify(await listWebhookEndpoints(KOFI_KUMASI))).not.toContain(secret);
    expect(await getWebhookSecret(KOFI_KUMASI, made.id)).toEqual({ secret, previousSecret: null });
    await expect(
      updateWebhookEndpoint(KOFI_KUMASI, META, made.id, { url: "https://10.0.0.5/pp", eventTypes: ["payment.failed"] }, "production"),
    ).rejects.toThrow(/private, loopback or link-local/);
    await expect(updateWebhookEndpoint(KOFI_KUMASI, META, made.id, { url: "https://hooks.example.com/pp", eventTypes: [] }, "production")).rejects.toThrow(
      /at least one event type/,
    );
    const changed = await updateWebhookEndpoint(
      KOFI_KUMASI,
      META,
      made.id,
      { url: "https://hooks.example.com/v2", eventTypes: ["payment.failed"] },
      "production",
    );
    expect(changed).toMatchObject({ url: "https://hooks.example.com/v2", eventTypes: ["payment.failed"] });
    const rolledTo = newWebhookSecret();
    await rollWebhookSecret(KOFI_KUMASI, META, made.id, rolledTo);
    expect(await getWebhookSecret(KOFI_KUMASI, made.id)).toEqual({ secret: rolledTo, previousSecret: secret });
    const disabled = await setWebhookEndpointEnabled(KOFI_KUMASI, META, made.id, false);
    expect(disabled).toMatchObject({ status: "disabled", disabledReason: "Disabled by an administrator." });
    expect(await setWebhookEndpointEnabled(KOFI_KUMASI, META, made.id, true)).toMatchObject({ status: "enabled", disabledReason: null });
    await deleteWebhookEndpoint(KOFI_KUMASI, META, made.id);
    expect(await getWebhookEndpoint(KOFI_KUMASI, made.id)).toBeNull();
    expect(await audit(made.id)).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.update",
      "webhook_endpoint.roll_secret",
      "webhook_endpoint.disable",
      "webhook_endpoint.enable",
      "webhook_endpoint.delete",
    ]);
  });

  it("another business's endpoint is not found, and only administrators may manage endpoints", async () => {
    const made = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: "https://hooks.example.com/x", eventTypes: ["settlement.paid"] },
      newWebhookSecret(),
      "production",
    );
    expect(await getWebhookEndpoint(AMA_ACCRA, made.id)).toBeNull();
    expect(await getWebhookSecret(AMA_ACCRA, made.id)).toBeNull();
    expect((await listWebhookEndpoints(AMA_ACCRA)).map((endpoint) => endpoint.id)).not.toContain(made.id);
    expect((await listWebhookDeliveries(AMA_ACCRA, made.id)).rows).toEqual([]);
    await expect(setWebhookEndpointEnabled(AMA_ACCRA, META, made.id, false)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rollWebhookSecret(AMA_ACCRA, META, made.id, newWebhookSecret())).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteWebhookEndpoint(AMA_ACCRA, META, made.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(listWebhookEndpoints(YAW_ACCRA)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listWebhookEndpoints(ABENA_KUMASI)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createWebhookEndpoint(ABENA_KUMASI, META, { url: "https://hooks.example.com/y", eventTypes: ["settlement.paid"] }, newWebhookSecret(), "production"),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getWebhookEndpoint(KOFI_KUMASI, made.id))?.status).toBe("enabled");
  });

  it("lists an endpoint's deliveries newest first, a page at a time", async () => {
    const db = await portal().db();
    const made = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: "https://hooks.example.com/z", eventTypes: ["payment.failed"] },
      newWebhookSecret(),
      "production",
    );
    const at = Date.now();
    const ids = ["evt_page_1", "evt_page_2", "evt_page_3"];
    await db.batch(
      webhookEventStatements(
        businessOf(KUMASI),
        ids.map((id, i) => ({ id, type: "payment.failed" as const, data: { i }, at: at + i })),
      ),
    );
    const first = await listWebhookDeliveries(KOFI_KUMASI, made.id, { limit: 2 });
    expect(first.rows.map((row) => row.eventId)).toEqual(["evt_page_3", "evt_page_2"]);
    expect(first.rows[0]).toMatchObject({ status: "pending", attempts: 0, eventType: "payment.failed", attemptLog: [] });
    const second = await listWebhookDeliveries(KOFI_KUMASI, made.id, { limit: 2, after: first.next });
    expect(second.rows.map((row) => row.eventId)).toEqual(["evt_page_1"]);
    expect(second.next).toBeNull();
  });
});

describe("in production", () => {
  let hooks: WebhookReceiver;
  const portal = usePortal(async () => {
    hooks = await receiver();
    return {
      vars: {
        ...FAST,
        WEBHOOKS_RETRY_WINDOW_SECONDS: "120",
        ENVIRONMENT: "production",
        SESSION_SECRET: "production-test-session-secret-0123456789",
        // Production pays out and refunds through a real rail (decision 041): without one its cron line reports the missing settings.
        PAYOUT_RAIL: "switch",
        REFUND_RAIL: "switch",
        SWITCH_RAIL_URL: "https://switch.example.invalid/rails",
        SWITCH_RAIL_SECRET: `whsec_${Buffer.from("production-test-rail-key-0123456789").toString("base64")}`,
        // Production emails its notifications: through the Cloudflare binding, which Miniflare keeps locally.
        EMAIL_PROVIDER: "cloudflare",
        EMAIL_FROM: "notices@portal.example.invalid",
        PORTAL_URL: "https://portal.example.invalid",
      },
      sendEmail: true,
      queueConsumers: webhooksConsumers(),
    };
  });

  it("an endpoint at http://localhost (fine while developing) gets no request; each attempt says why", async () => {
    const path = freshPath("was-dev");
    // Made while developing; the portal now runs in production.
    const { endpoint } = await makeEndpoint(portal(), hooks.url(path));
    await expect(
      createWebhookEndpoint(KOFI_KUMASI, META, { url: hooks.url(path), eventTypes: ["payment.succeeded"] }, newWebhookSecret(), "production"),
    ).rejects.toThrow(/public host/);
    const eventId = await emit(portal(), "payment.succeeded");
    await sweep(portal());
    await waitFor("three attempts", async () => ((await delivery(portal(), endpoint.id, eventId))?.attempts ?? 0) >= 3);
    expect(hooks.requests).toEqual([]);
    const log = await logOf(portal(), endpoint.id, eventId);
    expect(log.status).toBe("pending");
    for (const attempt of log.attemptLog) {
      expect(attempt).toMatchObject({ responseStatus: null, latencyMs: null, responseBody: null });
      expect(attempt.error).toMatch(/^Not sent: The URL must name a public host/);
    }
  });
});
