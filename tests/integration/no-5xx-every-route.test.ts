// Decision 046: no request of any method, content type or body gives a 5xx, on any route. The routes are the app's own
// route table (app/routes.ts) and the Partner API's router, with their ids taken from the seeded demo data; each is sent
// generated requests: every method (and one no server knows), every kind of body, signed in and out.
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import routeConfig from "#app/routes";
import { approvalPath } from "#app/lib/paths";
import { ROUTES as API_ROUTES } from "#server/partner-api/router";
import { CALLBACK_PATHS } from "#server/rails/callbacks";
import { makeKey } from "../support/partner-api";
import { EFUA, makeStaff } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

// As deployed: the rails' callbacks can be checked (without their secrets they say so, a 503 that names the setting).
const portal = usePortal({
  vars: {
    SWITCH_RAIL_SECRET: `whsec_${Buffer.from("every-route-test-rail-key-0123456789").toString("base64")}`,
    PAYSTACK_SECRET_KEY: "sk_test_everyroute0123456789",
  },
});

// PROPFIND: a method no route takes. (One the runtime itself does not know, BREW say, workerd answers 501 before
// the Worker is run: out of its reach, and Cloudflare's edge refuses such a request before it too.)
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"] as const;
const BODIES = ["form", "multipart", "multipart-wrong-boundary", "json", "text", "none", "garbage"] as const;
type Who = "signed-out" | "business" | "platform";

interface Entry {
  path?: string;
  index?: boolean;
  children?: Entry[];
}

/** Every path of the route table, nested routes joined, with its params as written (":merchantId", "*"). */
function pagePatterns(entries: readonly Entry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent : [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [...(entry.index || entry.path !== undefined ? [`/${path}`] : []), ...pagePatterns(entry.children ?? [], path)];
  });
}

/** The API router's patterns as paths: each `([^/]+)` named by the segment before it. */
function apiPatterns(): string[] {
  return API_ROUTES.map(({ pattern }) =>
    pattern.source
      .replace(/^\^/, "")
      .replace(/\\\/\?\$$|\$$/, "")
      .replace(/\\\//g, "/")
      .replace(/\\\./g, ".")
      .replace(/\/([a-z-]+)\/\(\[\^\/\]\+\)/g, "/$1/:$1"),
  );
}

let ids: Record<string, string> = {};
let targets: string[] = [];
let cookies: Record<Exclude<Who, "signed-out">, { Cookie: string }>;
let apiKey = "";

beforeAll(async () => {
  const db = await portal().db();
  const core = portal().core();
  const one = async (sql: string, ...bind: unknown[]) => {
    const row = await db
      .prepare(sql)
      .bind(...bind)
      .first<Record<string, unknown>>();
    // A kind of row the tiny seed has none of (a refund, an archived month): an id that is no one's, a 404 to probe.
    return row ? String(Object.values(row)[0]) : "unknown";
  };
  // The tiny seed has no dispute, webhook endpoint or event: one of each, as the API and the Developers tab make them.
  const now = Date.now();
  const payment = await db
    .prepare("SELECT id, merchant_id FROM transactions WHERE business_id = ? AND status = 'successful' LIMIT 1")
    .bind(KUMASI)
    .first<{ id: number; merchant_id: string }>();
  await db.batch([
    db
      .prepare(
        `INSERT INTO disputes (id, business_id, merchant_id, transaction_id, reason_code, amount, evidence_due_at, status, opened_at)
         VALUES ('dsp_every_route', ?, ?, ?, '13.1', 100, ?, 'open', ?)`,
      )
      .bind(KUMASI, payment!.merchant_id, payment!.id, now + 7 * 86_400_000, now),
    db
      .prepare(
        `INSERT INTO webhook_endpoints (id, business_id, url, event_types, secret, status, enabled_at, created_at, updated_at)
         VALUES ('we_every_route', ?, 'https://example.com/hook', '["payment.succeeded"]', 'whsec_test', 'enabled', ?, ?, ?)`,
      )
      .bind(KUMASI, now, new Date(now).toISOString(), new Date(now).toISOString()),
    db
      .prepare(
        "INSERT INTO webhook_events (id, business_id, type, payload, happened_at, created_at) VALUES ('evt_every_route', ?, 'payment.succeeded', '{}', ?, ?)",
      )
      .bind(KUMASI, now, now),
  ]);
  const approval = await db.prepare("SELECT id, kind FROM approval_requests WHERE business_id = ? LIMIT 1").bind(KUMASI).first<{ id: string; kind: string }>();
  const [, , kind = "merchant", approvalId = "missing"] = (approval ? (approvalPath(approval.kind, approval.id) ?? "") : "").split("/");
  const merchantId = await one("SELECT id FROM merchants WHERE business_id = ? LIMIT 1", KUMASI);
  ids = {
    provider: "google",
    kind,
    id: approvalId,
    merchantId,
    branchId: await one("SELECT id FROM points_of_sale WHERE business_id = ? AND merchant_id = ? LIMIT 1", KUMASI, merchantId),
    deviceId: await one("SELECT id FROM terminals WHERE business_id = ? LIMIT 1", KUMASI),
    disputeId: await one("SELECT id FROM disputes WHERE business_id = ? LIMIT 1", KUMASI),
    evidenceId: await one("SELECT id FROM dispute_evidence WHERE business_id = ? LIMIT 1", KUMASI),
    month: await one("SELECT month FROM archive_months WHERE business_id = ? LIMIT 1", KUMASI),
    transactionId: await one("SELECT id FROM transactions WHERE business_id = ? LIMIT 1", KUMASI),
    endpointId: await one("SELECT id FROM webhook_endpoints WHERE business_id = ? LIMIT 1", KUMASI),
    businessId: KUMASI,
    op: "replay",
    "*": "no-such-page",
    // The API's, by the segment before each id.
    payments: await one("SELECT reference FROM transactions WHERE business_id = ? LIMIT 1", KUMASI),
    terminals: await one("SELECT serial FROM terminals WHERE business_id = ? LIMIT 1", KUMASI),
    disputes: await one("SELECT id FROM disputes WHERE business_id = ? LIMIT 1", KUMASI),
    refunds: await one("SELECT id FROM refunds WHERE business_id = ? LIMIT 1", KUMASI),
    events: await one("SELECT id FROM webhook_events WHERE business_id = ? LIMIT 1", KUMASI),
    "webhook-endpoints": await one("SELECT id FROM webhook_endpoints WHERE business_id = ? LIMIT 1", KUMASI),
  };
  const platformRequest = await core.prepare("SELECT id FROM platform_requests LIMIT 1").first<{ id: string }>();
  const fill = (pattern: string) =>
    pattern
      .replace(/^\/platform\/requests\/:id$/, `/platform/requests/${platformRequest?.id ?? "unknown"}`)
      .replace(/:([A-Za-z-]+)\??|\*/g, (param, name: string | undefined) => encodeURIComponent(ids[name ?? "*"] ?? `no-${name}`));
  const pages = pagePatterns(routeConfig as Entry[]).map(fill);
  // Each page as a document and as Remix's data request (the one a form's post goes to).
  targets = [
    ...new Set([
      ...pages,
      ...pages.map((path) => (path === "/" ? "/_root.data" : `${path}.data`)),
      ...apiPatterns().map(fill),
      ...Object.values(CALLBACK_PATHS),
    ]),
  ];
  await makeStaff(core, EFUA);
  cookies = { business: await signedInCookie(portal(), "ama.mensah@example.com", KUMASI), platform: await signedInCookie(portal(), EFUA.email, null) };
  apiKey = await makeKey(portal(), KUMASI);
});

interface Sent {
  method: (typeof METHODS)[number];
  body: (typeof BODIES)[number];
  withBody: boolean;
  who: Who;
  bytes: Uint8Array;
}

function bodyOf(sent: Sent): { type: string | null; bytes: Buffer | null } {
  const text = (type: string | null, value: string) => ({ type, bytes: sent.withBody ? Buffer.from(value) : null });
  switch (sent.body) {
    case "form":
      return text("application/x-www-form-urlencoded", "intent=respond&name=Ama%20Ɔkyeame&response=%F0%9F%99%82&reason=test");
    case "multipart":
      return text("multipart/form-data; boundary=pp", `--pp\r\nContent-Disposition: form-data; name="intent"\r\n\r\nrespond\r\n--pp--\r\n`);
    case "multipart-wrong-boundary":
      return text("multipart/form-data; boundary=declared", `--sent\r\nContent-Disposition: form-data; name="intent"\r\n\r\nrespond\r\n--sent--\r\n`);
    case "json":
      return text("application/json", `{"intent":"respond","name":"Ɛsi"}`);
    case "text":
      return text("text/plain", "intent=respond");
    case "none":
      return text(null, "intent=respond");
    case "garbage":
      return { type: "application/octet-stream", bytes: sent.withBody ? Buffer.from(sent.bytes) : null };
  }
}

/** One request on a connection of its own (fetch will not send a GET with a body); its status. */
function send(path: string, sent: Sent): Promise<number> {
  const { hostname, port, origin } = new URL(portal().url);
  const { type, bytes } = bodyOf(sent);
  const headers: Record<string, string> = { Origin: origin, "Sec-Fetch-Site": "same-origin", Accept: "text/html", Connection: "close" };
  if (type) headers["Content-Type"] = type;
  if (bytes) headers["Content-Length"] = String(bytes.length);
  if (sent.who !== "signed-out") {
    if (path.startsWith("/api/v1/")) headers.Authorization = `Bearer ${apiKey}`;
    else headers.Cookie = cookies[sent.who].Cookie;
  }
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port: Number(port), method: sent.method, path, headers, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.setTimeout(30_000, () => request.destroy(new Error(`no answer to ${sent.method} ${path} in 30 s`)));
    request.on("error", reject);
    request.end(bytes ?? undefined);
  });
}

const anyRequest: fc.Arbitrary<Sent> = fc.record({
  method: fc.constantFrom(...METHODS),
  body: fc.constantFrom(...BODIES),
  withBody: fc.boolean(),
  who: fc.constantFrom<Who>("signed-out", "business", "platform"),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
});

describe("every route, every method and body", () => {
  it("the route list is the app's and the API's own, with the seeded ids filled in", () => {
    expect(targets.length).toBeGreaterThan(100);
    expect(targets).toContain(`/merchants/${ids.merchantId}`);
    expect(targets).toContain(`/api/v1/disputes/${ids.disputes}/evidence`);
    for (const name of ["kind", "id", "merchantId", "branchId", "deviceId", "disputeId", "transactionId", "endpointId", "payments", "terminals", "events"])
      expect(ids[name], name).not.toBe("unknown");
  });

  it("answers none of them with a 5xx", { timeout: 240_000 }, async () => {
    const answered: string[] = [];
    for (const path of targets) {
      await fc.assert(
        fc.asyncProperty(anyRequest, async (sent) => {
          const status = await send(path, sent);
          answered.push(`${sent.method} ${sent.body}`);
          expect(status, `${sent.method} ${path} (${sent.body}${sent.withBody ? "" : ", no body"}, ${sent.who})`).toBeLessThan(500);
        }),
        { numRuns: 3 },
      );
    }
    // Every method and kind of body was sent somewhere (about 400 requests in all).
    for (const method of METHODS) expect(answered.some((line) => line.startsWith(`${method} `))).toBe(true);
    for (const body of BODIES) expect(answered.some((line) => line.endsWith(` ${body}`))).toBe(true);
  });
});
