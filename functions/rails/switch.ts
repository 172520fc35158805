// The acquirer's switch as a payout and refund rail (docs/payout-rails.md is the contract it is built to).
// Each request carries the attempt's key (Idempotency-Key) and is signed the Standard Webhooks way; the switch's
// reply is signed the same way and refused when it is not, as an unknown answer (pending), never as a failure: a
// reply we cannot trust must not make us send the money again under a new key.
import * as v from "valibot";
import type { SwitchRail } from "../env";
import { railKey, type RailAnswer } from "./answer";
import { standardHeaders, verifyStandard } from "./signatures";

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
const TIMEOUT_MS = 15_000;

/** The switch's order, in a reply, a poll answer, and a callback's data. */
export const SwitchOrder = v.object({
  reference: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  status: v.picklist(["accepted", "processing", "succeeded", "failed"]),
  failure_reason: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500)))),
});
export type SwitchOrder = v.InferOutput<typeof SwitchOrder>;

export const SwitchCallback = v.object({
  type: v.picklist(["payout.updated", "refund.updated"]),
  data: SwitchOrder,
});

/** The switch's status word as our answer. */
export function switchAnswer(order: SwitchOrder): RailAnswer {
  const rail = { rail: "switch", reference: order.id, status: order.status };
  if (order.status === "succeeded") return { ok: true, rail };
  if (order.status === "failed") return { ok: false, error: `Switch: ${order.failure_reason ?? "failed"}`, rail };
  return { ok: false, pending: true, error: `Switch: ${order.status}`, rail };
}

const unknown = (error: string, key: string): RailAnswer => ({
  ok: false,
  pending: true,
  error,
  rail: { rail: "switch", reference: null, status: `no answer (${key})` },
});

export interface SwitchClient {
  send(kind: "payouts" | "refunds", key: string, body: Record<string, unknown>): Promise<RailAnswer>;
  status(kind: "payouts" | "refunds", key: string): Promise<RailAnswer>;
}

export function switchClient(rail: SwitchRail, fetcher: Fetch = fetch, clock: () => number = Date.now): SwitchClient {
  async function call(method: "POST" | "GET", path: string, key: string, body: string): Promise<RailAnswer> {
    const timestamp = Math.floor(clock() / 1000);
    const messageId = `msg_${key}_${timestamp}_${crypto.randomUUID().slice(0, 8)}`;
    let response: Response;
    try {
      response = await fetcher(`${rail.url}${path}`, {
        method,
        headers: {
          ...(method === "POST" ? { "Content-Type": "application/json", "Idempotency-Key": key } : {}),
          Accept: "application/json",
          ...(await standardHeaders(rail.secret, messageId, timestamp, body)),
        },
        body: method === "POST" ? body : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return unknown(`Switch did not answer: ${error instanceof Error ? error.message : String(error)}`, key);
    }
    const text = await response.text();
    // A poll for a key the switch never received: it was never taken, so a new attempt is safe.
    if (method === "GET" && response.status === 404)
      return { ok: false, error: "Switch: no such order (never received)", rail: { rail: "switch", reference: null, status: "not found" } };
    if (response.status >= 500 || response.status === 429) return unknown(`Switch answered ${response.status}`, key);
    const signed = await verifyStandard(response.headers, text, rail.secret, Math.floor(clock() / 1000));
    if (!signed.ok) return unknown(`Switch reply refused: signature ${signed.reason}`, key);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return unknown("Switch reply was not JSON", key);
    }
    if (response.status >= 400) {
      // A refusal of the request itself (400, 401, 409 a key reused with another body, 422): definite, with its reason.
      const message = v.safeParse(v.object({ message: v.pipe(v.string(), v.maxLength(500)) }), json);
      return {
        ok: false,
        error: `Switch refused (${response.status}): ${message.success ? message.output.message : "no reason given"}`,
        rail: { rail: "switch", reference: null, status: `refused ${response.status}` },
      };
    }
    const order = v.safeParse(SwitchOrder, json);
    if (!order.success || order.output.reference !== key) return unknown("Switch reply did not match the documented order", key);
    return switchAnswer(order.output);
  }
  return {
    send: (kind, key, body) => call("POST", `/v1/${kind}`, key, JSON.stringify({ reference: key, ...body })),
    status: (kind, key) => call("GET", `/v1/${kind}/${encodeURIComponent(key)}`, key, ""),
  };
}

export { railKey };
