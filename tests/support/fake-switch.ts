// A stand-in for the acquirer's switch, built from its contract (docs/payout-rails.md), not from the adapter: one
// node:http server on 127.0.0.1 that takes signed payouts and refunds, answers them signed, and answers the status poll.
// Signatures are made and checked here with node:crypto, independently of functions/rails/signatures.ts, so a test
// fails when the adapter stops signing the way the contract says. Every deviation is kept in `violations`.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body";

export const FAKE_SWITCH_SECRET = `whsec_${Buffer.from("fake-switch-rail-key-0123456789abcdef").toString("base64")}`;

/**
 * accept: taken ("accepted", an answer follows); succeed: "succeeded" at once; fail: "failed" with a reason; refuse: a
 * signed 422 refusal of the request; badkey: a signed 401 (our signature refused); down: 503; busy: 429; hang: no
 * answer; unsigned: a reply without a signature; badsig: a reply signed with another key; garbage: a signed reply that
 * is not JSON; mismatch: an order for another key.
 */
export type SwitchMode = "accept" | "succeed" | "fail" | "refuse" | "badkey" | "down" | "busy" | "hang" | "unsigned" | "badsig" | "garbage" | "mismatch";

export interface FakeOrder {
  kind: "payouts" | "refunds";
  reference: string;
  id: string;
  status: "accepted" | "processing" | "succeeded" | "failed";
  failure_reason: string | null;
  body: Record<string, unknown>;
}

export interface FakeSwitch {
  url: string;
  mode: SwitchMode;
  orders: Map<string, FakeOrder>;
  /** Requests received that carried money (POST), in order, a repeat key too. */
  sends: { kind: string; key: string }[];
  violations: string[];
  vars(): Record<string, string>;
  settle(key: string, status: FakeOrder["status"], reason?: string): FakeOrder;
  close(): Promise<void>;
}

function keyBytes(secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_/, ""), "base64");
}

export function switchSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", keyBytes(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

function signedHeaders(secret: string, body: string): Record<string, string> {
  const id = `msg_${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": switchSignature(secret, id, timestamp, body) };
}

/** The contract's check of a signed request: id, a timestamp within 300 s, and one matching v1 signature. */
function checkSigned(request: IncomingMessage, body: string): string | null {
  const id = String(request.headers["webhook-id"] ?? "");
  const timestamp = Number(request.headers["webhook-timestamp"] ?? "NaN");
  const signatures = String(request.headers["webhook-signature"] ?? "").split(" ");
  if (!id || !Number.isInteger(timestamp)) return "webhook-id or webhook-timestamp missing";
  if (Math.abs(Date.now() / 1000 - timestamp) > 300) return "webhook-timestamp more than 300 s away";
  const expected = Buffer.from(switchSignature(FAKE_SWITCH_SECRET, id, timestamp, body));
  const matched = signatures.some((s) => Buffer.from(s).length === expected.length && timingSafeEqual(Buffer.from(s), expected));
  return matched ? null : "no matching webhook-signature";
}

export async function startFakeSwitch(): Promise<FakeSwitch> {
  const fake: FakeSwitch = {
    url: "",
    mode: "accept",
    orders: new Map(),
    sends: [],
    violations: [],
    vars: () => ({}),
    settle(key, status, reason) {
      const order = fake.orders.get(key);
      if (!order) throw new Error(`fake switch: no order ${key}`);
      order.status = status;
      order.failure_reason = reason ?? null;
      return order;
    },
    close: async () => undefined,
  };

  const orderJson = (order: FakeOrder) => ({ reference: order.reference, id: order.id, status: order.status, failure_reason: order.failure_reason });

  function route(request: IncomingMessage, path: string, text: string, problems: string[]): { status: number; body: unknown } {
    const unsigned = checkSigned(request, text);
    if (unsigned) return { status: 401, body: { message: `Signature refused: ${unsigned}` } };
    if (fake.mode === "badkey") return { status: 401, body: { message: "Signature refused: no matching signature" } };
    const post = /^\/v1\/(payouts|refunds)$/.exec(path);
    if (request.method === "POST" && post) {
      const kind = post[1] as FakeOrder["kind"];
      const key = String(request.headers["idempotency-key"] ?? "");
      if (!key) problems.push("Idempotency-Key missing");
      if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push("Content-Type is not application/json");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        problems.push("the body is not JSON");
      }
      if (body.reference !== key) problems.push("reference is not the Idempotency-Key");
      const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
      if (!amount || !Number.isSafeInteger(amount.value) || (amount.value as number) <= 0 || amount.currency !== "GHS")
        problems.push("amount must be { value: pesewas, currency: GHS }");
      if (kind === "payouts") {
        const beneficiary = body.beneficiary as Record<string, unknown> | undefined;
        for (const field of ["provider", "account_number", "account_name"])
          if (typeof beneficiary?.[field] !== "string" || beneficiary[field] === "") problems.push(`beneficiary.${field} is required`);
        if (typeof body.narration !== "string" || body.narration.length < 1 || body.narration.length > 100)
          problems.push("narration must be 1 to 100 characters");
      } else {
        if (typeof body.payment_reference !== "string" || body.payment_reference === "") problems.push("payment_reference is required");
        if (typeof body.channel !== "string") problems.push("channel is required");
      }
      fake.sends.push({ kind, key });
      if (fake.mode === "refuse") return { status: 422, body: { message: "Beneficiary account is closed" } };
      // The same key again returns the same order: never a second payment.
      const existing = fake.orders.get(key);
      if (existing) return { status: 200, body: orderJson(existing) };
      const status = fake.mode === "succeed" ? "succeeded" : fake.mode === "fail" ? "failed" : "accepted";
      const order: FakeOrder = {
        kind,
        reference: key,
        id: `sw_${randomUUID().slice(0, 8)}`,
        status,
        failure_reason: status === "failed" ? "Account closed" : null,
        body,
      };
      fake.orders.set(key, order);
      return { status: 202, body: orderJson(order) };
    }
    const get = /^\/v1\/(payouts|refunds)\/([^/]+)$/.exec(path);
    if (request.method === "GET" && get) {
      if (text !== "") problems.push("a GET carries no body");
      const order = fake.orders.get(decodeURIComponent(get[2]!));
      if (!order || order.kind !== get[1]) return { status: 404, body: { message: "No such order" } };
      return { status: 200, body: orderJson(order) };
    }
    problems.push(`${request.method} ${path}: not in the contract`);
    return { status: 404, body: { message: "Not found" } };
  }

  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (fake.mode === "hang") return;
      if (fake.mode === "down" || fake.mode === "busy") {
        response.writeHead(fake.mode === "down" ? 503 : 429, { "Content-Type": "text/plain" });
        response.end("try later");
        return;
      }
      const path = new URL(request.url ?? "/", "http://fake").pathname;
      const problems: string[] = [];
      const reply = route(request, path, text, problems);
      fake.violations.push(...problems);
      let body = fake.mode === "garbage" ? "<html>oops</html>" : JSON.stringify(reply.body);
      if (fake.mode === "mismatch" && reply.status < 300) body = JSON.stringify({ ...(reply.body as object), reference: "someone-else" });
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (fake.mode === "badsig") Object.assign(headers, signedHeaders(`whsec_${Buffer.from("another-key-entirely-0123456789").toString("base64")}`, body));
      else if (fake.mode !== "unsigned") Object.assign(headers, signedHeaders(FAKE_SWITCH_SECRET, body));
      response.writeHead(reply.status, headers);
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.vars = () => ({ PAYOUT_RAIL: "switch", REFUND_RAIL: "switch", SWITCH_RAIL_URL: fake.url, SWITCH_RAIL_SECRET: FAKE_SWITCH_SECRET });
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
