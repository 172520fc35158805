// A one-shot notice carried across a redirect ("Merchant submitted for approval").
// Signed so a cookie planted by anything but this Worker is ignored, short-lived,
// and cleared by the first document or data request that reads it. A prefetch is
// not a page being shown: it leaves the notice for the page the redirect opens.
import { redirect } from "@remix-run/cloudflare";
import { SignJWT, jwtVerify } from "jose";
import * as v from "valibot";
import { clearCookie, readCookie, serializeCookie } from "./cookies";
import type { AppConfig } from "../env";

const FLASH_MAX_AGE_SECONDS = 60;
const FLASH_KEY_ID = "flash-1";

const FlashNotice = v.object({
  id: v.string(),
  kind: v.picklist(["danger", "warning", "success", "info"]),
  message: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
  priority: v.optional(v.boolean()),
});
export type FlashNotice = v.InferOutput<typeof FlashNotice>;

const FLASH_COOKIE = "pp_flash";

function key(config: AppConfig): Uint8Array {
  return new TextEncoder().encode(`flash:${config.sessionSecret}`);
}

export async function flashCookie(request: Request, config: AppConfig, notice: Omit<FlashNotice, "id">): Promise<string> {
  const token = await new SignJWT({ ...notice, id: crypto.randomUUID() })
    .setProtectedHeader({ alg: "HS256", kid: FLASH_KEY_ID })
    .setIssuedAt()
    .setExpirationTime(`${FLASH_MAX_AGE_SECONDS}s`)
    .sign(key(config));
  return serializeCookie(request, FLASH_COOKIE, token, FLASH_MAX_AGE_SECONDS);
}

/** Redirect and show a notice on the page redirected to. */
export async function redirectWithFlash(request: Request, config: AppConfig, to: string, notice: Omit<FlashNotice, "id">): Promise<Response> {
  return redirect(to, { headers: { "Set-Cookie": await flashCookie(request, config, notice) } });
}

/**
 * The pending notice, if any, and the Set-Cookie that clears it. A forged,
 * expired or malformed cookie reads as no notice (and is cleared all the same).
 */
export async function readFlash(request: Request, config: AppConfig): Promise<{ notice: FlashNotice | null; clearCookie: string | null }> {
  const token = readCookie(request, FLASH_COOKIE);
  if (!token || isPrefetch(request)) return { notice: null, clearCookie: null };
  const clear = clearCookie(request, FLASH_COOKIE);
  try {
    const { payload } = await jwtVerify(token, key(config), { algorithms: ["HS256"] });
    const parsed = v.safeParse(FlashNotice, payload);
    return { notice: parsed.success ? parsed.output : null, clearCookie: clear };
  } catch {
    return { notice: null, clearCookie: clear };
  }
}

/**
 * A speculative fetch (<link rel="prefetch"> of the next likely pages, which Remix
 * fires while a redirect is still being followed). Chromium sends Sec-Purpose,
 * older browsers Purpose.
 */
function isPrefetch(request: Request): boolean {
  const purpose = request.headers.get("Sec-Purpose") ?? request.headers.get("Purpose") ?? "";
  return purpose.toLowerCase().includes("prefetch");
}
