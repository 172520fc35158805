// Webhook times from the portal's own clock (decision 032), poison isolation in the WEBHOOKS consumer (decision 028), against the built Worker with its queues.
// A payment sent to the Partner API two days after it happened is announced by an event the portal makes NOW: its
// retries and the disabling rule count from then, not from the payment's occurred_at (before, such a payment got
// one attempt, and a receiver that missed it had its endpoint disabled and every administrator texted). The
// delivery log lists deliveries by when the portal made them and shows the payment's reference. A delivery that
// makes the consumer itself fail (a poisoned message) does not hold back the others of its batch: it is retried on
// its own schedule and, at the end of its window, recorded as failed with the reason in the log, instead of
// looping unseen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint, getWebhookEndpoint, type WebhookEndpoint } from "#server/webhooks/endpoints.db";
import { webhookEventStatements } from "#server/webhooks/outbox.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { waitFor } from "../support/fake-events-service";
import { textOf } from "../support/html";
import { api, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers, webhooksConsumers, type Portal } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const DAY = 24 * 3_600_000;
// Retries 1 s apart and a 6-second window: the whole schedule is 5 retries after the first attempt.
const FAST = { WEBHOOKS_RETRY_BASE_SECONDS: "1", WEBHOOKS_RETRY_MAX_SECONDS: "1", WEBHOOKS_TIMEOUT_SECONDS: "2", WEBHOOKS_RETRY_WINDOW_SECONDS: "6" };

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
afterAll(() => hooks.close());

async function endpoint(path: string): Promise<WebhookEndpoint> {
  return createWebhookEndpoint(KOFI_KUMASI, META, { url: hooks.url(path), eventTypes: ["payment.succeeded"] }, newWebhookSecret(), "development");
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

async function deliveriesOf(portal: Portal, endpointId: string): Promise<DeliveryRow[]> {
  const { results } = await (
    await portal.db()
  )
    .prepare("SELECT id, status, attempts, last_error FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ? ORDER BY id")
    .bind(KUMASI, endpointId)
    .all<DeliveryRow>();
  return results;
}

async function outboxCount(portal: Portal): Promise<number> {
  return (await (await portal.db()).prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")) ?? 0;
}

async function logText(portal: Portal, endpointId: string): Promise<string> {
  const response = await portal.fetch(`/settings/developers/endpoints/${endpointId}`, {
    headers: await signedInCookie(portal, "kofi.boateng@example.com", KUMASI),
  });
  expect(response.status).toBe(200);
  return textOf(await response.text());
}

describe("a payment sent two days after it happened", () => {
  const portal = usePortal({ vars: FAST, queueConsumers: { ...paymentsConsumers(), ...webhooksConsumers() } });
  let key: string;
  let parties: Parties[];
  beforeAll(async () => {
    key = await makeKey(portal(), KUMASI);
    parties = await partiesOf(portal(), KUMASI);
  });
  const late = (overrides: Record<string, unknown> = {}) =>
    momoPayment(parties[0]!, { occurred_at: new Date(Date.now() - 2 * DAY).toISOString(), ...overrides });

  it("a new endpoint that misses its first attempt is not disabled, no administrator is texted, and the retry delivers it", async () => {
    const made = await endpoint("/late-once");
    hooks.behave("/late-once", (n) => (n === 1 ? { status: 503, body: "restarting" } : { status: 200 }));
    const texts = await outboxCount(portal());
    expect((await api(portal(), key, "/api/v1/payments", late())).status).toBe(202);
    const [settled] = await waitFor("the delivery settled", async () => {
      const rows = await deliveriesOf(portal(), made.id);
      return rows.length === 1 && rows[0]!.status !== "pending" ? rows : null;
    });
    expect(settled).toMatchObject({ status: "delivered", attempts: 2 });
    expect(hooks.to("/late-once")).toHaveLength(2);
    expect(await getWebhookEndpoint(KOFI_KUMASI, made.id)).toMatchObject({ status: "enabled", disabledReason: null });
    expect(await outboxCount(portal())).toBe(texts);
  });

  it("gets the full retry schedule, counted from when the portal made its event", async () => {
    const made = await endpoint("/late-down");
    hooks.behave("/late-down", () => ({ status: 500, body: "down" }));
    expect((await api(portal(), key, "/api/v1/payments", late())).status).toBe(202);
    const [failed] = await waitFor(
      "the delivery finally failed",
      async () => {
        const rows = await deliveriesOf(portal(), made.id);
        return rows.length === 1 && rows[0]!.status === "failed" ? rows : null;
      },
      30_000,
    );
    // Counted from the payment's occurred_at (two days ago), the first failure was also the last.
    expect(failed!.attempts).toBeGreaterThanOrEqual(3);
    expect(hooks.to("/late-down").length).toBe(failed!.attempts);
  }, 60_000);

  it("the delivery log lists deliveries by when the portal made them and shows each payment's reference", async () => {
    const made = await endpoint("/late-log");
    hooks.behave("/late-log", () => ({ status: 200 }));
    // Sent first, happened a minute ago; sent second, happened two days ago: the second is the newer delivery.
    const recent = momoPayment(parties[0]!, { reference: `LOG-RECENT-${Date.now()}` });
    expect((await api(portal(), key, "/api/v1/payments", recent)).status).toBe(202);
    await waitFor("the first delivery", async () => (await deliveriesOf(portal(), made.id)).some((row) => row.status === "delivered"));
    const older = late({ reference: `LOG-LATE-${Date.now()}` });
    expect((await api(portal(), key, "/api/v1/payments", older)).status).toBe(202);
    await waitFor("both delivered", async () => (await deliveriesOf(portal(), made.id)).filter((row) => row.status === "delivered").length === 2);
    const text = await logText(portal(), made.id);
    const lateAt = text.indexOf(older.reference as string);
    const recentAt = text.indexOf(recent.reference as string);
    expect(lateAt, "the late payment's reference in the log").toBeGreaterThan(-1);
    expect(recentAt, "the recent payment's reference in the log").toBeGreaterThan(-1);
    expect(lateAt, "newest made first").toBeLessThan(recentAt);
    expect(text).toContain(`Payment reference ${older.reference as string}`);
  });
});

describe("a delivery the consumer cannot process (a poisoned message)", () => {
  const portal = usePortal({ vars: { ...FAST, WEBHOOKS_RETRY_WINDOW_SECONDS: "4" }, queueConsumers: webhooksConsumers() });

  it("does not hold back the others of its batch, is retried on its own, then shows in the log as failed with why", async () => {
    const made = await endpoint("/poison");
    hooks.behave("/poison", () => ({ status: 200 }));
    const texts = await outboxCount(portal());
    const db = await portal().db();
    const ids = Array.from({ length: 7 }, (_, i) => `evt_poison_${i}_${crypto.randomUUID().replaceAll("-", "")}`);
    const poisoned = ids[3]!;
    // A time no Date can hold: building its envelope throws in the consumer, every time (the door refuses such
    // times now, so the test writes the event itself, as a defect elsewhere could).
    await db.batch(
      webhookEventStatements(
        businessOf(KUMASI),
        ids.map((id) => ({ id, type: "payment.succeeded" as const, data: { reference: id }, at: id === poisoned ? 9e15 : Date.now() })),
      ),
    );
    expect(await portal().scheduled("*/5 * * * *")).toBe("ok");
    await waitFor("the six good deliveries", async () => (await deliveriesOf(portal(), made.id)).filter((row) => row.status === "delivered").length === 6);
    expect(
      hooks
        .to("/poison")
        .map((request) => request.headers["pp-event-id"])
        .sort(),
    ).toEqual(ids.filter((id) => id !== poisoned).sort());

    const [bad] = await waitFor(
      "the poisoned delivery recorded as failed",
      async () => {
        const rows = (await deliveriesOf(portal(), made.id)).filter((row) => row.status !== "delivered");
        return rows.length === 1 && rows[0]!.status === "failed" ? rows : null;
      },
      30_000,
    );
    expect(bad!.attempts).toBeGreaterThanOrEqual(2);
    expect(bad!.last_error).toMatch(/could not process this delivery.*Invalid time value/);
    const text = await logText(portal(), made.id);
    expect(text).toMatch(/could not process this delivery.*Invalid time value/);
    expect(text).toContain("Failed");
    // The portal's fault, not the receiver's: the endpoint stays enabled and nobody is texted.
    expect((await getWebhookEndpoint(KOFI_KUMASI, made.id))?.status).toBe("enabled");
    expect(await outboxCount(portal())).toBe(texts);
    expect(hooks.to("/poison")).toHaveLength(6);
  }, 60_000);
});
