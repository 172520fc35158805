// POST /api/v1/callbacks/switch and /api/v1/callbacks/paystack: the rails' asynchronous answers. Not Partner API
// key-authenticated: each is signed by its rail (functions/rails/signatures.ts), checked in constant time, refused when
// stale or when its id was seen (replay), validated whole (valibot), then applied through the same functions as the
// poll, so an outcome lands once whatever order the reply, the callback and the poll arrive in.
// Paystack differs in three ways (decision 041): its webhook has no message id, so the id remembered is derived from
// the event, the transfer's id and its status; it retries anything but a 200 for 72 hours, so a replay, an event we do
// not use (charge.success…) and a transfer that is not ours are acknowledged with a 200 and change nothing; and it
// publishes the addresses it sends from, which production also checks.
// Either rail's callback moves only a payout or refund this portal sent to that same rail, by its key and its latest
// attempt (functions/rails/apply.ts unmatchedWhy); any other is kept in rail_callbacks_unmatched, answered 200, and
// changes nothing (decision 041, 2026-12-01).
import * as v from "valibot";
import { railsConfigOf } from "../env";
import { logEvent } from "../plumbing/log";
import { applyAnswerByKey, isUnmatched } from "./apply";
import { forgetCallback, recordUnmatchedCallback, rememberCallback } from "./rails.db";
import { paystackAnswer, PaystackTransfer, railKeyOfPaystackReference } from "./paystack";
import { verifyPaystack, verifyStandard } from "./signatures";
import { SwitchCallback, switchAnswer } from "./switch";

export const CALLBACK_PATHS = { switch: "/api/v1/callbacks/switch", paystack: "/api/v1/callbacks/paystack" } as const;
const MAX_BODY = 64 * 1024;
/** Paystack's webhook addresses, test and live alike (paystack.com/docs/payments/webhooks, "IP whitelisting"). */
export const PAYSTACK_WEBHOOK_IPS: readonly string[] = ["52.31.139.75", "52.49.173.169", "52.214.14.220"];
/** The transfer events (the same page, "Types of events"); every other event is acknowledged and ignored. */
const TRANSFER_EVENTS = ["transfer.success", "transfer.failed", "transfer.reversed"] as const;
const PaystackEvent = v.object({ event: v.pipe(v.string(), v.minLength(1), v.maxLength(100)), data: v.unknown() });

const json = (status: number, body: Record<string, unknown>) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export function isCallbackPath(pathname: string): boolean {
  return pathname.startsWith("/api/v1/callbacks/");
}

export async function handleRailCallback(request: Request, env: Env, now: number = Date.now()): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  if (path !== CALLBACK_PATHS.switch && path !== CALLBACK_PATHS.paystack) return json(404, { message: `No such endpoint: ${path}` });
  if (request.method !== "POST") return json(405, { message: `Use POST for ${path}` });
  const body = await request.text();
  if (body.length > MAX_BODY) return json(413, { message: "Callback body too large" });
  const config = railsConfigOf(env);
  if (path === CALLBACK_PATHS.paystack) return paystackCallback(request, env, body, config.paystackSecretKey, now);
  if (!config.switchSecret) return json(503, { message: "SWITCH_RAIL_SECRET is not set: switch callbacks cannot be checked" });
  const signed = await verifyStandard(request.headers, body, config.switchSecret, Math.floor(now / 1000));
  if (!signed.ok) return json(401, { message: `Signature refused: ${signed.reason}` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return json(400, { message: "Body is not JSON" });
  }
  const callback = v.safeParse(SwitchCallback, parsed);
  if (!callback.success) return json(400, { message: `Body refused: ${callback.issues.map((i) => `${v.getDotPath(i) ?? "body"}: ${i.message}`).join("; ")}` });
  // The id is remembered before applying, so two copies racing apply once; forgotten again if applying fails.
  if (!(await rememberCallback(env.DB, "switch", signed.id, now))) return json(409, { message: "Already received (replay refused)", id: signed.id });
  try {
    const kind = callback.output.type === "payout.updated" ? "payout" : "refund";
    const { reference, status } = callback.output.data;
    const applied = await applyAnswerByKey(env, "switch", kind, reference, switchAnswer(callback.output.data), now);
    logEvent(isUnmatched(applied) ? "warn" : "info", "rail.callback", { rail: "switch", kind, applied });
    // Not what this portal sent the switch: kept for the operators, acknowledged (the switch stops sending it), nothing moved.
    if (isUnmatched(applied)) await recordUnmatchedCallback(env.DB, { rail: "switch", id: signed.id, kind, key: reference, status, why: applied }, now);
    return json(200, { received: true, applied });
  } catch (error) {
    await forgetCallback(env.DB, "switch", signed.id);
    throw error;
  }
}

async function paystackCallback(request: Request, env: Env, body: string, secretKey: string | null, now: number): Promise<Response> {
  if (String(env.ENVIRONMENT) === "production" && !PAYSTACK_WEBHOOK_IPS.includes(request.headers.get("CF-Connecting-IP") ?? ""))
    return json(403, { message: "Not one of Paystack's webhook addresses" });
  if (!secretKey) return json(503, { message: "PAYSTACK_SECRET_KEY is not set: Paystack webhooks cannot be checked" });
  if (!(await verifyPaystack(request.headers.get("x-paystack-signature"), body, secretKey))) return json(401, { message: "Signature refused" });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return json(400, { message: "Body is not JSON" });
  }
  const envelope = v.safeParse(PaystackEvent, parsed);
  if (!envelope.success) return json(400, { message: "Body refused: event: must be the event's name" });
  const event = envelope.output.event;
  if (!(TRANSFER_EVENTS as readonly string[]).includes(event)) return json(200, { received: true, ignored: `not a transfer event (${event})` });
  const transfer = v.safeParse(PaystackTransfer, envelope.output.data);
  if (!transfer.success) return json(400, { message: `Body refused: ${transfer.issues.map((i) => `data.${v.getDotPath(i) ?? ""}: ${i.message}`).join("; ")}` });
  const key = railKeyOfPaystackReference(transfer.output.reference);
  // The event and what identifies the transfer's state: a retry of the same event is the same id, while a later event
  // about the same transfer (reversed after success) is a new one.
  const id = `${event}:${transfer.output.id ?? transfer.output.transfer_code ?? transfer.output.reference}:${transfer.output.status}`;
  if (!key) {
    logEvent("warn", "rail.callback", { rail: "paystack", event, ignored: "reference not ours" });
    const unmatched = { rail: "paystack" as const, id, kind: "payout" as const, key: transfer.output.reference, status: transfer.output.status };
    await recordUnmatchedCallback(env.DB, { ...unmatched, why: "not a transfer this portal made" }, now);
    return json(200, { received: true, ignored: "not a transfer this portal made" });
  }
  if (!(await rememberCallback(env.DB, "paystack", id, now))) return json(200, { received: true, applied: "already", replay: true });
  try {
    // A transfer.* event's status word decides (transfer.reversed carries "reversed"); paystackAnswer maps it as the poll does.
    const applied = await applyAnswerByKey(env, "paystack", "payout", key, paystackAnswer(transfer.output), now);
    logEvent(isUnmatched(applied) ? "warn" : "info", "rail.callback", { rail: "paystack", kind: "payout", event, applied });
    // Not what this portal sent Paystack: kept for the operators, acknowledged with a 200 (anything else is retried for 72 hours), nothing moved.
    if (isUnmatched(applied))
      await recordUnmatchedCallback(env.DB, { rail: "paystack", id, kind: "payout", key, status: transfer.output.status, why: applied }, now);
    if (event === "transfer.reversed" && applied === "already")
      // A reversal the apply path refused, most likely after the settlement was marked paid: the money is back in the
      // Paystack balance while the settlement says paid. Nothing here can undo that (decision 041); someone must act.
      logEvent("error", "rail.reversal_not_applied", { rail: "paystack", key });
    return json(200, { received: true, applied });
  } catch (error) {
    await forgetCallback(env.DB, "paystack", id);
    throw error;
  }
}
