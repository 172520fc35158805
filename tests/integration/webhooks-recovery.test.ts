// After a receiver was down (decision 044): the events feed keeps every event a business's changes make, wanted
// by an endpoint or not, and "Send again every failed delivery since …" on an endpoint's log brings failed deliveries
// back in one step, under a fresh check, audited, and never another business's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { dropOldEvents, getEvent, listEventsPage } from "#server/webhooks/events.db";
import { webhookEventStatements } from "#server/webhooks/outbox.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import type { WebhookEventType } from "#server/webhooks/types";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { sendChecked } from "../support/fresh-check";
import { answerOf, api, eventually, makeKey, makePlatformKeyFor } from "../support/partner-api";
import { webhooksConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, AMA_ACCRA, businessOf, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: webhooksConsumers() });
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const HOUR = 3_600_000;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

async function emit(type: WebhookEventType, data: unknown = { amount: 1500 }, recordedAt = Date.now()): Promise<string> {
  const id = `evt_rec_${crypto.randomUUID().replaceAll("-", "")}`;
  await (await portal().db()).batch(webhookEventStatements(businessOf(KUMASI), [{ id, type, data, at: Date.now() }], recordedAt));
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
/** The form's two fields for an instant: its day as a person types it (day first) and its time of day. */
const sinceFields = (ms: number) => {
  const [day, time] = minute(ms).split("T") as [string, string];
  const [year, month, date] = day.split("-");
  return { sinceDay: `${date}/${month}/${year}`, sinceTime: time };
};

describe("the events feed keeps every event", () => {
  it("an event no endpoint subscribes to is kept with its body; a test event is not in the feed; pages are newest first", async () => {
    const business = businessOf(KUMASI);
    const db = await portal().db();
    const unwanted = await emit("dispute.opened", { dispute: { id: "dsp_Ɔ", note: "Ɛsi 🦅" } }, Date.now() - 1000);
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
    const first = await listEventsPage({ ...business, db }, Date.now(), {}, null, 1);
    expect(first.map((e) => e.id)).toEqual([later, unwanted]);
    const second = await listEventsPage({ ...business, db }, Date.now(), {}, [first[0]!.recordedAt, first[0]!.id], 1);
    expect(second[0]?.id).toBe(unwanted);
    expect((await listEventsPage({ ...business, db }, Date.now(), { type: "dispute.opened" }, null, 100)).map((e) => e.id)).toContain(unwanted);
    expect((await listEventsPage({ ...business, db }, Date.now(), {}, null, 100)).map((e) => e.id)).not.toContain("evt_rec_test");
  });
});

describe("the feed's 30 days", () => {
  it("the daily drop takes events older than the feed that no delivery refers to, and keeps the rest", async () => {
    const db = await portal().db();
    const now = Date.now();
    const old = now - 40 * 86_400_000;
    const endpoint = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: receiver.url("/old"), eventTypes: ["settlement.paid"], description: "Old" },
      newWebhookSecret(),
      "development",
    );
    const unwanted = await emit("settlement.failed", {}, old);
    const delivered = await emit("settlement.paid", {}, old);
    const recent = await emit("settlement.failed", {}, now - 86_400_000);
    expect(await dropOldEvents({ businessId: KUMASI, db }, now)).toBeGreaterThanOrEqual(1);
    const left = await db
      .prepare("SELECT id FROM webhook_events WHERE business_id = ? AND id IN (?, ?, ?)")
      .bind(KUMASI, unwanted, delivered, recent)
      .all<{ id: string }>();
    expect(left.results.map((row) => row.id).sort()).toEqual([delivered, recent].sort());
    expect(endpoint.id).toMatch(/^we_/);
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
    const answer = await post(page, { intent: "resend-failed", endpointId: endpoint.id, ...sinceFields(now - 2 * HOUR) });
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
    const refusals: [Record<string, string>, string][] = [
      [sinceFields(Date.now() + 2 * HOUR), "Choose a time in the past."],
      [{ sinceDay: "yesterday", sinceTime: "10:00" }, "Write the day as DD/MM/YYYY"],
      [{ sinceDay: "30/02/2026", sinceTime: "10:00" }, "There is no 30 Feb 2026"],
      [{ sinceDay: "01/02/2026", sinceTime: "24:00" }, "Write the time as HH:MM on the 24-hour clock"],
    ];
    for (const [fields, reason] of refusals) {
      const refused = await post(page, { intent: "resend-failed", endpointId: endpoint.id, ...fields });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toContain(reason);
    }
    // Ama administers Accra: Kumasi's endpoint is no endpoint of hers.
    const cookie = await signedInCookie(portal(), "ama.mensah@example.com", AMA_ACCRA.businessId);
    const foreign = await portal().fetch(page, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams({ intent: "resend-failed", endpointId: endpoint.id, ...sinceFields(Date.now() - HOUR) }).toString(),
    });
    expect(foreign.status).toBe(404);
  });
});

describe("through the Partner API", () => {
  it("GET /api/v1/events pages every event, the same body its webhook carries; another business and a platform key read none", async () => {
    const key = await makeKey(portal(), KUMASI);
    const first = await emit("refund.succeeded", { refund: { id: "rfd_api_1", note: "Ɔkɔmfo 🦅" } }, Date.now() - 2000);
    const second = await emit("refund.succeeded", { refund: { id: "rfd_api_2" } }, Date.now() - 1000);
    const page = await answerOf(await api(portal(), key, "/api/v1/events?type=refund.succeeded&limit=1"));
    expect(page.status).toBe(200);
    const body = page.body as {
      data: { id: string; type: string; created: string; recorded_at: string; data: unknown }[];
      has_more: boolean;
      next_cursor: string;
    };
    expect(body.data.map((e) => e.id)).toEqual([second]);
    expect(body.has_more).toBe(true);
    const next = (await answerOf(await api(portal(), key, `/api/v1/events?type=refund.succeeded&limit=1&cursor=${body.next_cursor}`))).body as typeof body;
    expect(next.data.map((e) => e.id)).toEqual([first]);
    const one = await answerOf(await api(portal(), key, `/api/v1/events/${first}`));
    expect(one).toMatchObject({ status: 200, body: { id: first, type: "refund.succeeded", data: { refund: { id: "rfd_api_1", note: "Ɔkɔmfo 🦅" } } } });

    // Another business's key: an unknown event; the switch's platform key: not its to read.
    const accra = await makeKey(portal(), ACCRA);
    expect((await answerOf(await api(portal(), accra, `/api/v1/events/${first}`))).body).toMatchObject({ code: "event_not_found" });
    const accraPage = (await answerOf(await api(portal(), accra, "/api/v1/events?limit=100"))).body as typeof body;
    expect(accraPage.data.map((e) => e.id)).not.toContain(first);
    const platform = (await makePlatformKeyFor(portal())).secret;
    const refused = await api(portal(), platform, "/api/v1/events", undefined, { "PP-Business": KUMASI });
    expect((await answerOf(refused)).body).toMatchObject({ code: "business_key_required" });
    // Bad filters are named.
    const bad = await answerOf(await api(portal(), key, "/api/v1/events?type=payment.lost&recorded_from=yesterday"));
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual(["query.recorded_from", "query.type"]);
  });

  it("POST /api/v1/webhook-endpoints/{id}/resend-failed queues the failed deliveries; another business's endpoint is 404, a disabled one 409", async () => {
    const key = await makeKey(portal(), KUMASI);
    const endpoint = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: receiver.url("/api-resend"), eventTypes: ["refund.failed"], description: "API resend" },
      newWebhookSecret(),
      "development",
    );
    const eventId = await emit("refund.failed");
    const db = await portal().db();
    await db
      .prepare("UPDATE webhook_deliveries SET status = 'failed', attempts = 7, created_at = ?, queued_at = 1 WHERE business_id = ? AND endpoint_id = ?")
      .bind(Date.now() - 3_600_000, KUMASI, endpoint.id)
      .run();
    const path = `/api/v1/webhook-endpoints/${endpoint.id}/resend-failed`;
    const since = new Date(Date.now() - 2 * 3_600_000).toISOString();
    expect(await answerOf(await api(portal(), key, path, { since }))).toEqual({ status: 200, body: { queued: 1, has_more: false } });
    await eventually(async () => receiver.to("/api-resend").length === 1, 20_000, "the delivery sent again");
    const delivered = JSON.parse(receiver.to("/api-resend")[0]!.body) as { id: string };
    expect(delivered.id).toBe(eventId);
    // The feed answers the same body the webhook carried.
    const { recorded_at: _recorded, ...fromFeed } = (await answerOf(await api(portal(), key, `/api/v1/events/${eventId}`))).body as Record<string, unknown>;
    expect(fromFeed).toEqual(delivered);
    // Again: nothing failed is left.
    expect((await answerOf(await api(portal(), key, path, { since }))).body).toEqual({ queued: 0, has_more: false });

    const accra = await makeKey(portal(), ACCRA);
    expect((await answerOf(await api(portal(), accra, path, { since }))).body).toMatchObject({ code: "webhook_endpoint_not_found" });
    await db.prepare("UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'test', disabled_at = 1 WHERE id = ?").bind(endpoint.id).run();
    expect(await answerOf(await api(portal(), key, path, { since }))).toMatchObject({ status: 409, body: { code: "webhook_endpoint_disabled" } });
    expect((await answerOf(await api(portal(), key, path, { since: "2999-01-01T00:00:00Z" }))).status).toBe(400);
  });
});
