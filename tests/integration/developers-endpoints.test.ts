// Settings > Developers, webhook endpoints (decision 017), through the built
// Worker: an administrator adds, rolls, disables, enables and deletes endpoints
// by posting the section's forms (every change audited; a forbidden URL refused
// by its field with nothing stored), reveals the secret (in that answer only),
// sends a test event to a local receiver and reads it in the delivery log, and
// sends a delivery again. Operations, Finance and Viewer get 403 on the log page
// and on every intent; another business's endpoint is a 404.
//
// The forms post to the endpoint's log page, whose action is the tab's handler
// (endpointsAction); once the Developers tab hands ENDPOINT_INTENTS to it, the
// same forms post to /settings?tab=developers as well.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint, type WebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { actionDataOf, loaderDataOf, textOf } from "../support/html";
import { startWebhookReceiver, type WebhookReceiver } from "../support/fake-webhook-receiver";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, AMA_ACCRA, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
afterAll(() => hooks.close());

const portal = usePortal({ vars: { WEBHOOKS_TIMEOUT_SECONDS: "2" } });
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const AMA = "ama.mensah@example.com"; // Super Administrator there, Administrator of Accra Mobile Pay
const ESI = "esi.owusu@example.com"; // Operations, Kumasi
const ABENA = "abena.darko@example.com"; // Finance, Kumasi
const YAW = "yaw.asante@example.com"; // Viewer, Accra Mobile Pay
const NAME = "Ɔkɔdeɛ till 🦅 مرحبا";

const ROUTE = "routes/settings.developers.endpoints.$endpointId";

interface Refusal {
  intent: string;
  errors: Record<string, string>;
  values: unknown;
}
const TAB_ROUTE = "routes/settings";
const refusalOf = (html: string, route = ROUTE) => actionDataOf(html)[route] as Refusal;

/** Where the Developers tab's endpoint forms post. */
const TAB_PATH = "/settings?tab=developers";
const logPath = (id: string) => `/settings/developers/endpoints/${encodeURIComponent(id)}`;

async function get(path: string, email = KOFI, businessId = KUMASI) {
  return portal().fetch(path, { headers: await signedInCookie(portal(), email, businessId), redirect: "manual" });
}

async function post(path: string, form: Record<string, string>, email = KOFI, businessId = KUMASI) {
  const cookie = await signedInCookie(portal(), email, businessId);
  // Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts).
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: portal().url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
        ...cookie,
      },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

async function rows<T>(sql: string, ...binds: unknown[]): Promise<T[]> {
  return (
    await (
      await portal().db()
    )
      .prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

const endpointsOf = (businessId: string) =>
  rows<{ id: string; url: string; status: string; secret: string; description: string; event_types: string }>(
    "SELECT id, url, status, secret, description, event_types FROM webhook_endpoints WHERE business_id = ? ORDER BY created_at, id",
    businessId,
  );
const auditOf = (entityId: string) =>
  rows<{ action: string; actor_id: string | null }>(
    "SELECT action, actor_id FROM audit_log WHERE entity = 'webhook_endpoint' AND entity_id = ? ORDER BY id",
    entityId,
  );

let host: WebhookEndpoint; // Kumasi's first endpoint: the log page whose forms are posted
let accra: WebhookEndpoint;
beforeAll(async () => {
  host = await createWebhookEndpoint(KOFI_KUMASI, META, { url: hooks.url("/host"), eventTypes: ["payment.succeeded"] }, newWebhookSecret(), "development");
  accra = await createWebhookEndpoint(AMA_ACCRA, META, { url: hooks.url("/accra"), eventTypes: ["payment.failed"] }, newWebhookSecret(), "development");
});

describe("adding an endpoint", () => {
  it("refuses a forbidden or missing URL and no event type by their fields, keeps what was typed, and stores nothing", async () => {
    const before = JSON.stringify(await endpointsOf(KUMASI));
    const auditBefore = await rows("SELECT id FROM audit_log");
    for (const url of ["http://10.0.0.1/x", "https://169.254.169.254/", "https://localhost.internal/hook"]) {
      const response = await post(TAB_PATH, { intent: "create", url, description: NAME, "event:payment.succeeded": "on" });
      expect(response.status).toBe(400);
      const refusal = refusalOf(await response.text(), TAB_ROUTE);
      expect(Object.keys(refusal.errors)).toEqual(["url"]);
      expect(refusal.errors.url).toMatch(/^The URL must /);
      expect(refusal.values).toEqual({ url, description: NAME, eventTypes: ["payment.succeeded"] });
    }
    const empty = await post(TAB_PATH, { intent: "create", url: " ", description: "" });
    expect(empty.status).toBe(400);
    expect(refusalOf(await empty.text(), TAB_ROUTE).errors).toEqual({ url: "Enter the endpoint's URL.", eventTypes: "Choose at least one event type." });
    // Both at once: the URL's problem is told with the missing event types.
    const both = await post(TAB_PATH, { intent: "create", url: "https://169.254.169.254/", description: "" });
    expect(Object.keys(refusalOf(await both.text(), TAB_ROUTE).errors).sort()).toEqual(["eventTypes", "url"]);
    const unknownType = await post(TAB_PATH, { intent: "create", url: "https://example.com/hook", "event:payment.exploded": "on" });
    expect(unknownType.status).toBe(400);
    expect(refusalOf(await unknownType.text(), TAB_ROUTE).errors).toEqual({ eventTypes: "Choose event types from the list." });
    expect(JSON.stringify(await endpointsOf(KUMASI))).toBe(before);
    expect(await rows("SELECT id FROM audit_log")).toEqual(auditBefore);
  });

  it("adds, rolls, disables, enables and deletes an endpoint, each audited, and the secret leaves only in reveal's answer", async () => {
    const created = await post(TAB_PATH, {
      intent: "create",
      url: "https://hooks.example.com/portal",
      description: NAME,
      "event:payment.succeeded": "on",
      "event:settlement.paid": "on",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/settings?tab=developers#endpoints");
    expect(created.headers.get("Set-Cookie")).toContain("pp_flash=");
    const made = (await endpointsOf(KUMASI)).find((e) => e.url === "https://hooks.example.com/portal")!;
    expect(made).toMatchObject({ status: "enabled", description: NAME, event_types: JSON.stringify(["payment.succeeded", "settlement.paid"]) });
    expect(made.secret).not.toBe("");

    // The log page lists it; its loader data carries no secret.
    const page = await get(logPath(made.id));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(textOf(html)).toContain(NAME);
    expect(html).not.toContain(made.secret);
    expect(JSON.stringify(loaderDataOf(html))).not.toContain(made.secret);

    const revealed = await post(logPath(made.id), { intent: "reveal", endpointId: made.id });
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get("Location")).toBeNull();
    expect(revealed.headers.get("Cache-Control")).toContain("no-store");
    expect(page.headers.get("Cache-Control")).toContain("no-store");
    expect(actionDataOf(await revealed.text())[ROUTE]).toEqual({ intent: "reveal", endpointId: made.id, secret: made.secret, previousSecret: null });

    // Rolling needs the confirmation; then the old secret is the previous one for 24 hours.
    expect((await post(logPath(made.id), { intent: "roll", endpointId: made.id })).status).toBe(400);
    const rolled = await post(logPath(made.id), { intent: "roll", endpointId: made.id, confirm: "yes" });
    expect(rolled.status).toBe(302);
    expect(rolled.headers.get("Location")).toBe(logPath(made.id));
    const [after] = await rows<{ secret: string; previous_secret: string; previous_secret_expires_at: number }>(
      "SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = ?",
      made.id,
    );
    expect(after!.previous_secret).toBe(made.secret);
    expect(after!.secret).not.toBe(made.secret);
    expect(after!.previous_secret_expires_at - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const edited = await post(logPath(made.id), { intent: "edit", endpointId: made.id, url: "https://10.1.2.3/", "event:payment.failed": "on" });
    expect(edited.status).toBe(400);
    const editRefusal = refusalOf(await edited.text());
    expect(editRefusal.intent).toBe(`edit:${made.id}`);
    expect(Object.keys(editRefusal.errors)).toEqual(["url"]);
    expect(
      (await post(logPath(made.id), { intent: "edit", endpointId: made.id, url: "https://hooks.example.com/v2", "event:payment.failed": "on" })).status,
    ).toBe(302);
    expect((await endpointsOf(KUMASI)).find((e) => e.id === made.id)).toMatchObject({ url: "https://hooks.example.com/v2", event_types: '["payment.failed"]' });

    expect((await post(logPath(made.id), { intent: "disable", endpointId: made.id })).status).toBe(302);
    const disabledPage = textOf(await (await get(logPath(made.id))).text());
    expect(disabledPage).toContain("Disabled");
    expect(disabledPage).toContain("Disabled by an administrator.");
    expect((await post(logPath(made.id), { intent: "enable", endpointId: made.id })).status).toBe(302);

    expect((await post(logPath(made.id), { intent: "delete", endpointId: made.id })).status).toBe(400);
    const deleted = await post(logPath(made.id), { intent: "delete", endpointId: made.id, confirm: "yes" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/settings?tab=developers#endpoints");
    expect((await endpointsOf(KUMASI)).some((e) => e.id === made.id)).toBe(false);
    expect((await get(logPath(made.id))).status).toBe(404);

    const audit = await auditOf(made.id);
    expect(audit.map((row) => row.action)).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.roll_secret",
      "webhook_endpoint.update",
      "webhook_endpoint.disable",
      "webhook_endpoint.enable",
      "webhook_endpoint.delete",
    ]);
    expect(new Set(audit.map((row) => row.actor_id))).toEqual(new Set(["usr_kofi_boateng"]));
  });
});

describe("the delivery log", () => {
  it("a test event reaches the receiver and shows in the log with its status and latency; Send again adds an attempt", async () => {
    hooks.behave("/host", () => ({ status: 202, body: `accepted by ${NAME}` }));
    const sent = await post(logPath(host.id), { intent: "test", endpointId: host.id });
    expect(sent.status).toBe(200);
    expect(textOf(await sent.text())).toMatch(/Test event: Answered 202 in \d+ ms\./);
    expect(hooks.to("/host")).toHaveLength(1);
    expect(hooks.to("/host")[0]!.headers["pp-event-type"]).toBe("webhook.test");

    const html = await (await get(logPath(host.id))).text();
    const text = textOf(html);
    expect(text).toContain("webhook.test");
    expect(text).toContain("Delivered");
    expect(text).toMatch(/Attempt 1 \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M 202 \d+ ms/);
    expect(html).toContain(`<pre>accepted by ${NAME}</pre>`);

    const [delivery] = await rows<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?", host.id);
    hooks.behave("/host", () => ({ status: 500, body: "down for a moment" }));
    const again = await post(logPath(host.id), { intent: "resend", endpointId: host.id, deliveryId: delivery!.id });
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(logPath(host.id));
    expect(hooks.to("/host")).toHaveLength(2);
    const afterText = textOf(await (await get(logPath(host.id))).text());
    expect(afterText).toMatch(/Attempt 2 \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [AP]M 500 \d+ ms Sent by a person/);
    expect(afterText).toContain("down for a moment");
  });

  it("another business's endpoint or delivery is a 404, and a form naming another endpoint than the page's too", async () => {
    const other = await get(logPath(accra.id));
    expect(other.status).toBe(404);
    expect(textOf(await other.text())).toContain(`Page Not Found: ${logPath(accra.id)}`);
    expect((await post(logPath(accra.id), { intent: "test", endpointId: accra.id })).status).toBe(404);
    expect((await post(logPath(host.id), { intent: "delete", endpointId: accra.id, confirm: "yes" })).status).toBe(404);
    expect((await post(logPath(host.id), { intent: "resend", endpointId: host.id, deliveryId: "wd_nobody" })).status).toBe(404);
    expect((await get(logPath("we_nobody"))).status).toBe(404);
    // Within the business too: a page's forms act on its own endpoint and its deliveries only.
    const sibling = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: hooks.url("/sibling"), eventTypes: ["payment.failed"] },
      newWebhookSecret(),
      "development",
    );
    expect((await post(logPath(sibling.id), { intent: "test", endpointId: sibling.id })).status).toBe(200);
    const [theirs] = await rows<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?", sibling.id);
    expect((await post(logPath(host.id), { intent: "resend", endpointId: host.id, deliveryId: theirs!.id })).status).toBe(404);
    expect((await post(logPath(host.id), { intent: "disable", endpointId: sibling.id })).status).toBe(404);
    expect(hooks.to("/sibling")).toHaveLength(1);
    expect((await endpointsOf(KUMASI)).find((e) => e.id === sibling.id)?.status).toBe("enabled");
    expect((await endpointsOf(ACCRA)).map((e) => e.id)).toEqual([accra.id]);
    expect(hooks.to("/accra")).toHaveLength(0);
  });

  it("Operations, Finance and Viewer get 403 on the log page and on every intent, and nothing is written or sent", async () => {
    const before = JSON.stringify([await endpointsOf(KUMASI), await rows("SELECT id FROM audit_log"), await rows("SELECT id FROM webhook_attempts")]);
    const [delivery] = await rows<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?", host.id);
    const forms: Record<string, string>[] = [
      { intent: "create", url: "https://hooks.example.com/sneaky", "event:payment.succeeded": "on" },
      { intent: "edit", endpointId: host.id, url: "https://hooks.example.com/sneaky", "event:payment.succeeded": "on" },
      { intent: "enable", endpointId: host.id },
      { intent: "disable", endpointId: host.id },
      { intent: "delete", endpointId: host.id, confirm: "yes" },
      { intent: "roll", endpointId: host.id, confirm: "yes" },
      { intent: "reveal", endpointId: host.id },
      { intent: "test", endpointId: host.id },
      { intent: "resend", endpointId: host.id, deliveryId: delivery!.id },
    ];
    const received = hooks.requests.length;
    for (const email of [ESI, ABENA]) {
      const page = await get(logPath(host.id), email);
      expect(page.status).toBe(403);
      expect(textOf(await page.text())).not.toContain("webhook.test");
      for (const form of forms) expect((await post(logPath(host.id), form, email)).status, `${email} ${form.intent}`).toBe(403);
    }
    expect((await get(logPath(accra.id), YAW, ACCRA)).status).toBe(403);
    for (const form of forms) expect((await post(logPath(accra.id), { ...form, endpointId: accra.id }, YAW, ACCRA)).status).toBe(403);
    expect(JSON.stringify([await endpointsOf(KUMASI), await rows("SELECT id FROM audit_log"), await rows("SELECT id FROM webhook_attempts")])).toBe(before);
    expect(hooks.requests.length).toBe(received);
    // The Super Administrator may.
    expect((await get(logPath(host.id), AMA)).status).toBe(200);
  });
});

describe("every change that decides where signed data goes needs a fresh check (decision 032)", () => {
  /** Posts the form as a stolen session would: no check made, none made when asked. */
  async function postUnchecked(path: string, form: Record<string, string>) {
    return portal().fetch(path, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: portal().url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
        ...(await signedInCookie(portal(), KOFI, KUMASI)),
      },
      body: new URLSearchParams(form).toString(),
    });
  }
  const askedBinding = async (response: Response) => {
    expect(response.status).toBe(428);
    const asked = Object.values(actionDataOf(await response.text())) as ({ check?: { binding: string; purpose: string } } | null)[];
    return asked.find((value) => value?.check)?.check;
  };

  it("changing the URL or the event types, enabling, rolling and sending a delivery again answer 428 without one, and change nothing", async () => {
    const target = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: hooks.url("/rerouted"), description: "Ɛfua's till", eventTypes: ["payment.succeeded"] },
      newWebhookSecret(),
      "development",
    );
    hooks.behave("/rerouted", () => ({ status: 200 }));
    expect((await post(logPath(target.id), { intent: "test", endpointId: target.id })).status).toBe(200);
    const [delivery] = await rows<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?", target.id);
    const before = JSON.stringify([await endpointsOf(KUMASI), await rows("SELECT id FROM webhook_attempts")]);
    const received = hooks.requests.length;

    const reroute = await postUnchecked(logPath(target.id), {
      intent: "edit",
      endpointId: target.id,
      url: "https://attacker.example.net/collect",
      description: "Ɛfua's till",
      "event:payment.succeeded": "on",
    });
    expect(await askedBinding(reroute)).toMatchObject({ binding: expect.stringMatching(/^endpoint:edit:/), purpose: "change a webhook endpoint" });
    const moreEvents = await postUnchecked(logPath(target.id), {
      intent: "edit",
      endpointId: target.id,
      url: hooks.url("/rerouted"),
      description: "Ɛfua's till",
      "event:payment.succeeded": "on",
      "event:refund.succeeded": "on",
    });
    expect((await askedBinding(moreEvents))?.binding).toMatch(/^endpoint:edit:/);
    const resend = await postUnchecked(logPath(target.id), { intent: "resend", endpointId: target.id, deliveryId: delivery!.id });
    expect(await askedBinding(resend)).toMatchObject({ binding: `endpoint:resend:${delivery!.id}`, purpose: "send a delivery again" });
    expect((await askedBinding(await postUnchecked(logPath(target.id), { intent: "roll", endpointId: target.id, confirm: "yes" })))?.binding).toBe(
      `endpoint:roll:${target.id}`,
    );
    expect(JSON.stringify([await endpointsOf(KUMASI), await rows("SELECT id FROM webhook_attempts")])).toBe(before);
    expect(hooks.requests.length).toBe(received);

    // Disabling needs none (it sends nothing anywhere); enabling again does.
    expect((await postUnchecked(logPath(target.id), { intent: "disable", endpointId: target.id })).status).toBe(302);
    const enable = await postUnchecked(logPath(target.id), { intent: "enable", endpointId: target.id });
    expect(await askedBinding(enable)).toMatchObject({ binding: `endpoint:enable:${target.id}` });
    expect((await endpointsOf(KUMASI)).find((e) => e.id === target.id)?.status).toBe("disabled");
  });

  it("with the check each of them is done, and the check is used up", async () => {
    const target = await createWebhookEndpoint(
      KOFI_KUMASI,
      META,
      { url: hooks.url("/checked"), eventTypes: ["payment.succeeded"] },
      newWebhookSecret(),
      "development",
    );
    hooks.behave("/checked", () => ({ status: 200 }));
    // A description alone decides nothing about where data goes: no check.
    expect(
      (
        await postUnchecked(logPath(target.id), {
          intent: "edit",
          endpointId: target.id,
          url: hooks.url("/checked"),
          description: "Ɔkɔdeɛ",
          "event:payment.succeeded": "on",
        })
      ).status,
    ).toBe(302);
    expect((await endpointsOf(KUMASI)).find((e) => e.id === target.id)?.description).toBe("Ɔkɔdeɛ");

    const edited = await post(logPath(target.id), {
      intent: "edit",
      endpointId: target.id,
      url: hooks.url("/checked-v2"),
      description: "Ɔkɔdeɛ",
      "event:payment.succeeded": "on",
      "event:payment.failed": "on",
    });
    expect(edited.status).toBe(302);
    expect((await endpointsOf(KUMASI)).find((e) => e.id === target.id)).toMatchObject({
      url: hooks.url("/checked-v2"),
      event_types: '["payment.succeeded","payment.failed"]',
    });
    hooks.behave("/checked-v2", () => ({ status: 200 }));
    expect((await post(logPath(target.id), { intent: "test", endpointId: target.id })).status).toBe(200);
    const [delivery] = await rows<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = ?", target.id);
    const resent = await post(logPath(target.id), { intent: "resend", endpointId: target.id, deliveryId: delivery!.id });
    expect(resent.status).toBe(302);
    expect(hooks.to("/checked-v2")).toHaveLength(2);
    expect((await post(logPath(target.id), { intent: "disable", endpointId: target.id })).status).toBe(302);
    expect((await post(logPath(target.id), { intent: "enable", endpointId: target.id })).status).toBe(302);
    expect((await endpointsOf(KUMASI)).find((e) => e.id === target.id)?.status).toBe("enabled");
    const used = await portal()
      .core()
      .prepare("SELECT binding FROM fresh_checks WHERE binding LIKE 'endpoint:%' AND used_at IS NOT NULL AND binding NOT LIKE 'endpoint:create:%'")
      .all<{ binding: string }>();
    const bindings = used.results.map((row) => row.binding);
    expect(bindings).toEqual(expect.arrayContaining([`endpoint:resend:${delivery!.id}`, `endpoint:enable:${target.id}`]));
    expect(bindings.some((b) => b.startsWith("endpoint:edit:"))).toBe(true);
  });
});
