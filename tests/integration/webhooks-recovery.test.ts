// After a receiver was down (issue 29, point 2): the events feed keeps every event a business's changes make, wanted
// by an endpoint or not, and "Send again every failed delivery since …" on an endpoint's log brings failed deliveries
// back in one step, under a fresh check, audited, and never another business's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { getEvent, listEvents } from "#server/webhooks/events.db";
import { webhookEventStatements } from "#server/webhooks/outbox.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import type { WebhookEventType } from "#server/webhooks/types";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { sendChecked } from "../support/fresh-check";
import { eventually } from "../support/partner-api";
import { webhooksConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { AMA_ACCRA, businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: webhooksConsumers() });
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const HOUR = 3_600_000;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

async function emit(type: WebhookEventType, data: unknown = { amount: 1500 }): Promise<string> {
  const id = `evt_rec_${crypto.randomUUID().replaceAll("-", "")}`;
  await (await portal().db()).batch(webhookEventStatements(businessOf(KUMASI), [{ id, type, data, at: Date.now() }]));
  return id;
}

async function post(path: string, form: Record<string, string>, email = KOFI, businessId = KUMASI): Promise<Response> {
  const cookie = await signedInCookie(portal(), email, businessId);
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

const minute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe("the events feed keeps every event", () => {
  it("an event no endpoint subscribes to is kept with its body; a test event is not in the feed; pages are newest first", async () => {
    const business = businessOf(KUMASI);
    const db = await portal().db();
    const unwanted = await emit("dispute.opened", { dispute: { id: "dsp_Ɔ", note: "Ɛsi 🦅" } });
    const later = await emit("terminal.silent");
    const held = await getEvent({ ...business, db }, unwanted, Date.now());
    expect(held).toMatchObject({ id: unwanted, type: "dispute.opened" });
    expect(JSON.parse(held!.payload)).toEqual({ dispute: { id: "dsp_Ɔ", note: "Ɛsi 🦅" } });
    await db
      .prepare("INSERT INTO webhook_events (id, business_id, type, payload, happened_at, created_at) VALUES (?, ?, 'webhook.test', '{}', ?, ?)")
      .bind("evt_rec_test", KUMASI, Date.now(), Date.now())
      .run();
    expect(await getEvent({ ...business, db }, "evt_rec_test", Date.now())).toBeNull();
    // Another business reads none of them.
    expect(await getEvent({ businessId: AMA_ACCRA.businessId, db: AMA_ACCRA.db }, unwanted, Date.now())).toBeNull();
    const first = await listEvents({ ...business, db }, Date.now(), { limit: 1 });
    expect(first.rows.map((e) => e.id)).toEqual([later]);
    const second = await listEvents({ ...business, db }, Date.now(), { limit: 1, after: first.next });
    expect(second.rows.map((e) => e.id)).toEqual([unwanted]);
    expect((await listEvents({ ...business, db }, Date.now(), { type: "dispute.opened" })).rows.map((e) => e.id)).toContain(unwanted);
    expect((await listEvents({ ...business, db }, Date.now(), { limit: 100 })).rows.map((e) => e.id)).not.toContain("evt_rec_test");
  });
});

describe("Send failed deliveries again", () => {
  it("queues every failed delivery since the time, under a fresh check; older ones and delivered ones stay as they are", async () => {
    const endpoint = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: receiver.url("/recovery"), eventTypes: ["refund.failed"], description: "Recovery" },
      newWebhookSecret(),
      "development",
    );
    const [old, recent, other] = [await emit("refund.failed"), await emit("refund.failed"), await emit("refund.failed")];
    const db = await portal().db();
    const now = Date.now();
    // The receiver was down: two deliveries failed for good, one of them made long before the chosen time.
    const made = { [old]: now - 5 * HOUR, [recent]: now - HOUR, [other]: now - HOUR };
    for (const [eventId, createdAt] of Object.entries(made)) {
      await db
        .prepare(
          "UPDATE webhook_deliveries SET status = ?, attempts = 7, last_error = 'HTTP 503', created_at = ?, queued_at = 1 WHERE business_id = ? AND endpoint_id = ? AND event_id = ?",
        )
        .bind(eventId === other ? "delivered" : "failed", createdAt, KUMASI, endpoint.id, eventId)
        .run();
    }
    const page = `/settings/developers/endpoints/${endpoint.id}`;
    const answer = await post(page, { intent: "resend-failed", endpointId: endpoint.id, since: minute(now - 2 * HOUR) });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(page);

    await eventually(async () => receiver.to("/recovery").length === 1, 20_000, "the failed delivery sent again");
    expect(JSON.parse(receiver.to("/recovery")[0]!.body)).toMatchObject({ id: recent });
    const statuses = await db
      .prepare("SELECT event_id, status FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ?")
      .bind(KUMASI, endpoint.id)
      .all<{ event_id: string; status: string }>();
    await eventually(async () => {
      const rows = await db
        .prepare("SELECT status FROM webhook_deliveries WHERE business_id = ? AND endpoint_id = ? AND event_id = ?")
        .bind(KUMASI, endpoint.id, recent)
        .first<{ status: string }>();
      return rows?.status === "delivered";
    });
    expect(Object.fromEntries(statuses.results.map((row) => [row.event_id, row.status]))).toMatchObject({ [old]: "failed", [other]: "delivered" });
    const audited = await db
      .prepare("SELECT after_json FROM audit_log WHERE business_id = ? AND action = 'webhook_endpoint.resend_failed' AND entity_id = ?")
      .bind(KUMASI, endpoint.id)
      .first<{ after_json: string }>();
    expect(JSON.parse(audited!.after_json)).toEqual({ since: new Date(Date.parse(`${minute(now - 2 * HOUR)}Z`)).toISOString() });
  });

  it("a time to come or no time at all is refused by the field; another business's endpoint is 404", async () => {
    const endpoint = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: receiver.url("/refused"), eventTypes: ["refund.failed"], description: "Refused" },
      newWebhookSecret(),
      "development",
    );
    const page = `/settings/developers/endpoints/${endpoint.id}`;
    for (const since of [minute(Date.now() + 2 * HOUR), "yesterday", "2026-02-30T10:00"]) {
      const refused = await post(page, { intent: "resend-failed", endpointId: endpoint.id, since });
      expect(refused.status, since).toBe(400);
    }
    // Ama administers Accra: Kumasi's endpoint is no endpoint of hers.
    const cookie = await signedInCookie(portal(), "ama.mensah@example.com", AMA_ACCRA.businessId);
    const foreign = await portal().fetch(page, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams({ intent: "resend-failed", endpointId: endpoint.id, since: minute(Date.now() - HOUR) }).toString(),
    });
    expect(foreign.status).toBe(404);
  });
});
