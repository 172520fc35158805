// A reversal for a reference the portal does not hold used to wait forever, invisibly, and
// would reverse a later payment reusing the reference. Now its 202 says the payment is not known yet, it is listed
// (GET /api/v1/reversals/waiting, the Developers tab), and after REVERSAL_WAIT_MS it expires: still listed, as
// expired, and never applied to a payment arriving later.
import { beforeAll, describe, expect, it } from "vitest";
import { REVERSAL_WAIT_MS } from "#server/payments/waiting-reversals.db";
import { loaderDataOf, textOf } from "../support/html";
import { api, eventually, makeKey, momoPayment, partiesOf, type Parties } from "../support/partner-api";
import { paymentsConsumers } from "../support/portal";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ queueConsumers: paymentsConsumers(), vars: { API_RATE_LIMIT_PER_MINUTE: "1000" } });
let key: string;
let accraKey: string;
let parties: Parties;

beforeAll(async () => {
  key = await makeKey(portal(), KUMASI);
  accraKey = await makeKey(portal(), ACCRA);
  parties = (await partiesOf(portal(), KUMASI))[0]!;
});

interface Waiting {
  reference: string;
  reason: string;
  reversed_at: string;
  received_at: string;
  expires_at: string;
  status: "waiting" | "expired";
}

async function waiting(apiKey = key): Promise<Waiting[]> {
  const response = await api(portal(), apiKey, "/api/v1/reversals/waiting?limit=100");
  expect(response.status).toBe(200);
  return (await response.json<{ data: Waiting[] }>()).data;
}

const reversal = { reason: "Customer complaint ✅", reversed_at: new Date(Date.now() - 1_000).toISOString() };
const pendingRow = async (reference: string) =>
  (await portal().db())
    .prepare("SELECT received_at FROM pending_reversals WHERE business_id = ? AND reference = ?")
    .bind(KUMASI, reference)
    .first<number>("received_at");

describe("the reversal's answer", () => {
  it("says when the payment is not known yet, and that the reversal waits and expires", async () => {
    const response = await api(portal(), key, `/api/v1/payments/UNKNOWN-${Date.now().toString(36)}/reversal`, reversal);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1, payment_known: false, message: expect.stringMatching(/does not hold a payment.*7 days.*expires/) });
  });

  it("says the payment is known when it is", async () => {
    const payment = momoPayment(parties);
    expect((await api(portal(), key, "/api/v1/payments", payment)).status).toBe(202);
    await eventually(async () => (await api(portal(), key, `/api/v1/payments/${payment.reference as string}`)).status === 200);
    const response = await api(portal(), key, `/api/v1/payments/${payment.reference as string}/reversal`, reversal);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1, payment_known: true });
  });

  it("gives the same answer again to a repeat with the same Idempotency-Key", async () => {
    const path = `/api/v1/payments/UNKNOWN-IDEM-${Date.now().toString(36)}/reversal`;
    const headers = { "Idempotency-Key": `idem-${Date.now().toString(36)}` };
    const first = await api(portal(), key, path, reversal, headers);
    const again = await api(portal(), key, path, reversal, headers);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
  });
});

describe("waiting reversals are shown", () => {
  it("lists a waiting reversal with when it expires, to its business only, and on the Developers tab", async () => {
    const reference = `WAIT-${Date.now().toString(36)}`;
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, reversal)).status).toBe(202);
    await eventually(async () => (await pendingRow(reference)) !== null);
    const [shown] = (await waiting()).filter((w) => w.reference === reference);
    expect(shown).toEqual({
      reference,
      reason: reversal.reason,
      reversed_at: reversal.reversed_at,
      received_at: expect.any(String),
      expires_at: new Date(Date.parse(shown!.received_at) + REVERSAL_WAIT_MS).toISOString(),
      status: "waiting",
    });
    expect((await waiting(accraKey)).filter((w) => w.reference === reference)).toEqual([]);

    const page = await portal().fetch("/settings?tab=developers", { headers: await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI) });
    const html = await page.text();
    const data = loaderDataOf(html)["routes/settings"] as {
      developers: { refused: { reversals: { waiting: number; rows: { reference: string; status: string }[] } } };
    };
    expect(data.developers.refused.reversals.rows).toContainEqual(expect.objectContaining({ reference, status: "waiting" }));
    expect(data.developers.refused.reversals.waiting).toBeGreaterThanOrEqual(1);
    expect(textOf(html)).toContain("Reversals waiting for their payment");
  });

  it("pages with limit and after, and refuses a limit out of range", async () => {
    for (let i = 0; i < 3; i++) expect((await api(portal(), key, `/api/v1/payments/PAGE-${Date.now().toString(36)}-${i}/reversal`, reversal)).status).toBe(202);
    await eventually(async () => (await waiting()).filter((w) => w.reference.startsWith("PAGE-")).length === 3);
    const first = await (await api(portal(), key, "/api/v1/reversals/waiting?limit=1")).json<{ data: Waiting[]; next: string }>();
    expect(first.data).toHaveLength(1);
    const second = await (await api(portal(), key, `/api/v1/reversals/waiting?limit=1&after=${first.next}`)).json<{ data: Waiting[] }>();
    expect(second.data[0]!.reference).not.toBe(first.data[0]!.reference);
    expect((await api(portal(), key, "/api/v1/reversals/waiting?limit=0")).status).toBe(400);
    expect((await api(portal(), key, "/api/v1/rejections?limit=101")).status).toBe(400);
    expect((await api(portal(), null, "/api/v1/reversals/waiting")).status).toBe(401);
  });
});

describe("waiting reversals expire", () => {
  it("never applies an expired reversal to a payment arriving later with its reference, and lists it as expired", async () => {
    const reference = `EXPIRE-${Date.now().toString(36)}`;
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, reversal)).status).toBe(202);
    await eventually(async () => (await pendingRow(reference)) !== null);
    // Eight days pass.
    const db = await portal().db();
    await db
      .prepare("UPDATE pending_reversals SET received_at = received_at - ? WHERE business_id = ? AND reference = ?")
      .bind(REVERSAL_WAIT_MS + 86_400_000, KUMASI, reference)
      .run();
    expect((await waiting()).find((w) => w.reference === reference)).toMatchObject({ status: "expired" });

    // A payment reusing the reference arrives: it is a new payment, not reversed.
    expect((await api(portal(), key, "/api/v1/payments", momoPayment(parties, { reference }))).status).toBe(202);
    await eventually(async () => (await api(portal(), key, `/api/v1/payments/${reference}`)).status === 200);
    const held = await (await api(portal(), key, `/api/v1/payments/${reference}`)).json<{ status: string; reversal: unknown }>();
    expect(held).toMatchObject({ status: "successful", reversal: null });
    expect((await waiting()).find((w) => w.reference === reference)).toMatchObject({ status: "expired" });
  });

  it("lets a new reversal for a reference whose reversal expired wait again", async () => {
    const reference = `AGAIN-${Date.now().toString(36)}`;
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, reversal)).status).toBe(202);
    await eventually(async () => (await pendingRow(reference)) !== null);
    const db = await portal().db();
    await db
      .prepare("UPDATE pending_reversals SET received_at = received_at - ? WHERE business_id = ? AND reference = ?")
      .bind(REVERSAL_WAIT_MS + 86_400_000, KUMASI, reference)
      .run();
    const again = { reason: "Second try", reversed_at: new Date().toISOString() };
    expect((await api(portal(), key, `/api/v1/payments/${reference}/reversal`, again)).status).toBe(202);
    await eventually(async () => (await waiting()).find((w) => w.reference === reference)?.status === "waiting");
    expect((await waiting()).find((w) => w.reference === reference)).toMatchObject({ reason: "Second try", status: "waiting" });
    // And this one is applied when its payment comes.
    expect((await api(portal(), key, "/api/v1/payments", momoPayment(parties, { reference }))).status).toBe(202);
    await eventually(async () => (await (await api(portal(), key, `/api/v1/payments/${reference}`)).json<{ status?: string }>()).status === "reversed");
  });
});
