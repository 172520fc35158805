// POST /api/v1/callbacks/switch and /api/v1/callbacks/paystack: the rails' asynchronous answers. Not Partner API
// key-authenticated: each is signed by its rail (functions/rails/signatures.ts), checked in constant time, refused when
// stale or when its id was seen (replay), validated whole (valibot), then applied through the same functions as the
// poll, so an outcome lands once whatever order the reply, the callback and the poll arrive in.
import * as v from "valibot";
import { railsConfigOf } from "../env";
import { logEvent } from "../analytics/http";
import { applyAnswerByKey } from "./apply";
import { forgetCallback, rememberCallback } from "./rails.db";
import { verifyStandard } from "./signatures";
import { SwitchCallback, switchAnswer } from "./switch";

export const CALLBACK_PATHS = { switch: "/api/v1/callbacks/switch", paystack: "/api/v1/callbacks/paystack" } as const;
const MAX_BODY = 64 * 1024;

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
  if (path === CALLBACK_PATHS.paystack) return json(501, { message: "Paystack callbacks are not accepted yet (PAYOUT_RAIL=paystack is not built)" });
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
    const applied = await applyAnswerByKey(env, kind, callback.output.data.reference, switchAnswer(callback.output.data), now);
    logEvent("info", "rail.callback", { rail: "switch", kind, applied });
    if (applied === "unknown order") return json(404, { message: `No ${kind} with reference ${callback.output.data.reference}` });
    return json(200, { received: true, applied });
  } catch (error) {
    await forgetCallback(env.DB, "switch", signed.id);
    throw error;
  }
}
