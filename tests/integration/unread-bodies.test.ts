// Decision 046: a body the Worker answers without reading (a 401 before the body, a 413 on Content-Length, a form the
// page refuses before reading it) left `wrangler dev`'s proxy answering the next POST, from anyone, 503. The door
// now reads such a body to its end (functions/plumbing/http.ts). Run on `wrangler dev` itself (npm start):
// in workerd as Miniflare runs it, and as deployed, the next request was answered already.
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signalGroup, startWranglerDev, stopWranglerDev, type WranglerDev } from "../support/wrangler-dev";

const stateDir = mkdtempSync(join(tmpdir(), "pp-unread-"));
let dev: WranglerDev | undefined;

beforeAll(async () => {
  dev = await startWranglerDev(stateDir);
}, 120_000);

afterAll(async () => {
  if (dev) await stopWranglerDev(dev.child).catch(() => signalGroup(dev!.child, "SIGKILL"));
  rmSync(stateDir, { recursive: true, force: true });
});

/** One request on a connection of its own; its status. */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<number> {
  const { hostname, port, origin } = new URL(dev!.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port: Number(port), method, path, agent: false, headers: { Origin: origin, "Sec-Fetch-Site": "same-origin", ...headers } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Bodies the Worker answers without reading them, and what it answers. */
const UNREAD: { path: string; headers: Record<string, string>; status: number; why: string }[] = [
  { path: "/api/v1/payments", headers: { "Content-Type": "application/json" }, status: 401, why: "no API key" },
  { path: "/api/v1/payments", headers: { "Content-Type": "application/json", Authorization: "Bearer pp_live_not_a_key" }, status: 401, why: "an unknown key" },
  { path: "/api/events", headers: { "Content-Type": "application/json" }, status: 413, why: "over the analytics limit by Content-Length" },
  { path: "/login-option", headers: { "Content-Type": "application/json" }, status: 400, why: "not a form" },
];

describe("on wrangler dev, a body answered without being read", () => {
  it("leaves the next POST answered as it would be (never 503)", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...UNREAD), fc.integer({ min: 300 * 1024, max: 3 * 1024 * 1024 }), async (unread, size) => {
        const status = await send("POST", unread.path, { ...unread.headers, "Content-Length": String(size) }, Buffer.alloc(size, "a"));
        expect(status, `${unread.why}, ${size} bytes`).toBe(unread.status);
        // Someone else's POST next: the API's answer to no key, and a form page's.
        expect(await send("POST", "/api/v1/payments", { "Content-Type": "application/json" }, "{}")).toBe(401);
        expect(await send("POST", "/login-option", { "Content-Type": "application/x-www-form-urlencoded" }, "email=")).toBe(400);
      }),
      { numRuns: 8 },
    );
  });
});
