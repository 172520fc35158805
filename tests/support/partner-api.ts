// Helpers for tests of the Partner API (/api/v1): a key made as the Developers
// tab makes one (its hash in D1), the seeded parties a payment can name, and
// payments built from them.
import { makeApiKey, makePlatformKey } from "#server/partner-api/keys";
import { createPlatformKey } from "#server/operators/platform-keys.db";
import { PLATFORM_SCOPES, type PlatformScope } from "#server/operators/platform-scopes";
import { registerKeyHashStatement } from "#server/tenancy/directory.db";
import { listWebhookEndpoints, setWebhookEndpointEnabled } from "#server/webhooks/endpoints.db";
import type { Tenant } from "#server/tenancy/tenant";
import { CURRENT_API_VERSION, type ApiVersion } from "#server/partner-api/versions";
import type { Portal } from "./portal";
import { META } from "./tenants";

export interface Parties {
  merchantId: string;
  merchantCode: string;
  pointOfSaleId: string;
  /** A terminal standing at that point of sale. */
  serial: string;
}

/**
 * A live key of the business, made by `madeBy` (no one recorded when left out), pinned to `apiVersion` (the current
 * version when left out, as the Developers tab pins a key); returns the key to send.
 */
export async function makeKey(
  portal: Portal,
  businessId: string,
  options: { expiresAt?: number; revokedAt?: number; madeBy?: string; apiVersion?: ApiVersion } = {},
): Promise<string> {
  const { secret, row } = await makeApiKey("Integration test", businessId);
  const db = await portal.db();
  let successor: string | null = null;
  if (options.expiresAt !== undefined) {
    // A rolled key points at its successor (the table's CHECK): make one first.
    const next = await makeApiKey("Successor", businessId);
    await db
      .prepare("INSERT INTO api_keys (id, business_id, name, prefix, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(next.row.id, businessId, next.row.name, next.row.prefix, next.row.secretHash, Date.now())
      .run();
    successor = next.row.id;
    await registerKeyHashStatement(portal.core(), businessId, next.row.secretHash).run();
  }
  // As the Developers tab does: the core database's directory first, then the key on the business's database.
  await registerKeyHashStatement(portal.core(), businessId, row.secretHash).run();
  await db
    .prepare(
      "INSERT INTO api_keys (id, business_id, name, prefix, secret_hash, created_by, created_at, expires_at, rolled_to, revoked_at, api_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      row.id,
      businessId,
      row.name,
      row.prefix,
      row.secretHash,
      options.madeBy ?? null,
      Date.now(),
      options.expiresAt ?? null,
      successor,
      options.revokedAt ?? null,
      options.apiVersion ?? CURRENT_API_VERSION,
    )
    .run();
  return secret;
}

/** A platform key (the switch's), made as /platform/keys makes one by a seeded person; returns the key to send and its id. */
export async function makePlatformKeyFor(
  portal: Portal,
  scopes: readonly PlatformScope[] = PLATFORM_SCOPES,
  madeBy = "usr_ama_mensah",
): Promise<{ secret: string; id: string }> {
  const { secret, row } = await makePlatformKey("Integration switch", "development");
  await createPlatformKey(portal.core(), { userId: madeBy }, META, row, scopes, Date.now());
  return { secret, id: row.id };
}

/** Points of sale of the business that have a terminal standing at them, with their merchant. */
export async function partiesOf(portal: Portal, businessId: string): Promise<Parties[]> {
  const db = await portal.db();
  const { results } = await db
    .prepare(
      `SELECT m.id AS merchantId, m.code AS merchantCode, p.id AS pointOfSaleId, min(t.serial) AS serial
       FROM terminals t JOIN points_of_sale p ON p.id = t.point_of_sale_id JOIN merchants m ON m.id = p.merchant_id
       WHERE t.business_id = ? GROUP BY p.id ORDER BY p.id`,
    )
    .bind(businessId)
    .all<Parties>();
  return results;
}

export function api(portal: Portal, key: string | null, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return portal.fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

let sequence = 0;

/** A valid mobile-money payment at these parties (override any field). */
export function momoPayment(parties: Parties, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    reference: `TEST-${Date.now().toString(36)}-${sequence}`,
    merchant: parties.merchantId,
    point_of_sale: parties.pointOfSaleId,
    channel: "mobile_money",
    network: "MTN",
    payer: { msisdn: "233244123456" },
    amount: 2_500,
    currency: "GHS",
    status: "successful",
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    ...overrides,
  };
}

/** A valid card payment at these parties' terminal. */
export function cardPayment(parties: Parties, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return momoPayment(parties, {
    channel: "card",
    network: "VISA",
    terminal_serial: parties.serial,
    payer: { card_bin: "412345", card_last4: "4242" },
    amount: 12_000,
    ...overrides,
  });
}

/** Polls until `check` is true (the queue consumer runs asynchronously); fails after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 40_000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * Disables every webhook endpoint of the business, so a spec whose receiver has stopped leaves no deliveries
 * retrying against it for the rest of a run that shares the portal (the end-to-end tests do).
 */
export async function disableEndpoints(portal: Portal, tenant: Tenant): Promise<void> {
  for (const endpoint of await listWebhookEndpoints(tenant)) {
    if (endpoint.status === "enabled") await setWebhookEndpointEnabled(tenant, META, endpoint.id, false);
  }
}

/**
 * What a caller relies on in an answer: its status and body, a problem's reduced to its code, words and errors (the
 * request id differs on every request; type, title and the repeated status and detail follow from the code and words).
 */
export async function answerOf(response: Response): Promise<{ status: number; body: unknown }> {
  const body = await response.json<Record<string, unknown>>();
  if (!(response.headers.get("Content-Type") ?? "").startsWith("application/problem+json")) return { status: response.status, body };
  const { code, message, errors } = body;
  return { status: response.status, body: errors === undefined ? { code, message } : { code, message, errors } };
}

/**
 * The signal to wait for before asserting that something did not happen (a second payment, a second reversal, a
 * heartbeat applied late): a payment sent now, through the same door and PAYMENTS queue as what came before it, applied.
 * The queue delivers in order, a batch at a time while its backlog is under a batch (a test's is), so whatever was queued
 * before it has been delivered once by then; a fixed wait proves nothing on a slow machine. Returns its reference.
 */
export async function paymentAppliedAfter(
  portal: Portal,
  key: string,
  businessId: string,
  parties: Parties,
  headers: Record<string, string> = {},
): Promise<string> {
  const marker = momoPayment(parties, { amount: 101 });
  const reference = marker.reference as string;
  const sent = await api(portal, key, "/api/v1/payments", marker, headers);
  if (sent.status !== 202) throw new Error(`The marker payment was refused: ${sent.status} ${await sent.text()}`);
  const held = () =>
    portal
      .businessDb(businessId)
      .prepare("SELECT count(*) AS n FROM transactions WHERE business_id = ? AND reference = ?")
      .bind(businessId, reference)
      .first<number>("n");
  await eventually(async () => (await held()) === 1, 40_000, `the marker payment ${reference}, sent after, to be applied`);
  return reference;
}
