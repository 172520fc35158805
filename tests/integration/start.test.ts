// README command one: `npm start` migrates, seeds once, publishes the build id
// and serves the portal with wrangler dev, printing the URL. Run here against a
// temporary state folder and the existing build (PP_SKIP_BUILD), twice.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/portal";
import { signalGroup as signal, startWranglerDev, stopWranglerDev as stop } from "../support/wrangler-dev";

const stateDir = mkdtempSync(join(tmpdir(), "pp-start-"));
const children: ChildProcess[] = [];

/** Runs `npm start` until it prints the URL (tests/support/wrangler-dev.ts), killed after the file whatever happens. */
async function startOnce() {
  const started = await startWranglerDev(stateDir);
  children.push(started.child);
  return started;
}

afterAll(async () => {
  for (const child of children) signal(child, "SIGKILL");
  rmSync(stateDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("seeds once, serves the portal, publishes the build id, and adds nothing the second time", async () => {
    const first = await startOnce();
    expect(first.output).toContain("Seeded the demo data.");
    expect(first.output).toMatch(/Partners Portal is running at http:\/\/localhost:\d+/);

    const page = await fetch(`${first.url}/__dev/ui`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>UI kit</title>");
    const latest = await fetch(`${first.url}/builds/latest.json?t=${Date.now()}`);
    expect(await latest.json()).toEqual({ buildId: readFileSync(join(ROOT, "build/build-id.txt"), "utf8").trim() });
    await stop(first.child);

    const second = await startOnce();
    expect(second.output).toContain("Demo data already present; nothing added.");
    // Signed out, every page but the sign-in ones leads to /login.
    const away = await fetch(`${second.url}/no-such-page`, { redirect: "manual" });
    expect(away.status).toBe(302);
    expect(away.headers.get("Location")).toBe("/login");
    expect((await fetch(`${second.url}/login`)).status).toBe(200);
    await stop(second.child);
  }, 180_000);
});
