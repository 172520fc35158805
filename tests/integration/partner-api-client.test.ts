// The typed client (clients/partner-api, generated from the OpenAPI document) against the built Worker: what a
// TypeScript integration writes compiles against the document and works against the portal (decision 044).
import { describe, expect, it } from "vitest";
import { partnerApiClient, type components } from "../../clients/partner-api";
import { API_VERSIONS, CURRENT_API_VERSION } from "#server/partner-api/versions";
import { eventually, makeKey, momoPayment, partiesOf } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { makeApiKey } from "#server/partner-api/keys";
import { createApiKey, rollApiKey } from "#server/partner-api/api-keys.db";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers() });

// Over HTTP to the running Worker, with the runtime's own fetch, as an integration would.
const clientFor = (key: string, version?: string) => partnerApiClient({ baseUrl: portal().url, key, version });

describe("the typed Partner API client", () => {
  it("sends a payment, reads it back, and reads a refusal as a problem; every answer names its version", async () => {
    const api = clientFor(await makeKey(portal(), KUMASI));
    const [parties] = await partiesOf(portal(), KUMASI);
    const payment = momoPayment(parties!, { amount: 4_200 });
    const sent = await api.POST("/api/v1/payments", { body: payment as components["schemas"]["PaymentInput"] });
    expect(sent.response.status).toBe(202);
    expect(sent.data).toEqual({ accepted: 1 });
    expect(sent.response.headers.get("PP-Version")).toBe(CURRENT_API_VERSION);

    const reference = payment.reference as string;
    await eventually(async () => (await api.GET("/api/v1/payments/{reference}", { params: { path: { reference } } })).response.status === 200);
    const read = await api.GET("/api/v1/payments/{reference}", { params: { path: { reference } } });
    expect(read.data).toMatchObject({ reference, amount: 4_200, currency: "GHS", status: "successful" });

    const missing = await api.GET("/api/v1/payments/{reference}", { params: { path: { reference: "NOPE-CLIENT-1" } } });
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ code: "payment_not_found", status: 404 });
  });

  it("answers as the version a request names; a version it lacks is 400 unknown_version", async () => {
    const key = await makeKey(portal(), KUMASI);
    const named = await clientFor(key, API_VERSIONS[0]).GET("/api/v1/payments/{reference}", { params: { path: { reference: "NOPE-CLIENT-2" } } });
    expect(named.response.headers.get("PP-Version")).toBe(API_VERSIONS[0]);
    const unknown = await clientFor(key, "1999-01-01").GET("/api/v1/payments/{reference}", { params: { path: { reference: "NOPE-CLIENT-2" } } });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error).toMatchObject({
      code: "unknown_version",
      errors: [{ path: "header pp-version", message: expect.stringContaining(CURRENT_API_VERSION) }],
    });
  });

  it("a key made now is pinned to the current version, and a rolled key's successor keeps its predecessor's", async () => {
    const made = await makeApiKey("Pinned", KUMASI);
    await createApiKey(KOFI_KUMASI, META, made.row);
    const db = await portal().db();
    const pinned = (id: string) => db.prepare("SELECT api_version AS v FROM api_keys WHERE business_id = ? AND id = ?").bind(KUMASI, id).first<string>("v");
    expect(await pinned(made.row.id)).toBe(CURRENT_API_VERSION);
    // An older pin (a key made under an earlier version) survives a roll.
    await db.prepare("UPDATE api_keys SET api_version = '2025-06-01' WHERE business_id = ? AND id = ?").bind(KUMASI, made.row.id).run();
    const next = await makeApiKey("Pinned", KUMASI);
    await rollApiKey(KOFI_KUMASI, META, made.row.id, next.row, 60_000);
    expect(await pinned(next.row.id)).toBe("2025-06-01");
  });
});
