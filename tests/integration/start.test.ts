// README command one: `npm start` migrates, seeds once, publishes the build id
// and serves the portal with wrangler dev, printing the URL. Run here against a
// temporary state folder and the existing build (PP_SKIP_BUILD), twice.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/portal";

const stateDir = mkdtempSync(join(tmpdir(), "pp-start-"));
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs `npm start` until it prints the URL; resolves with everything it printed. */
async function startOnce(): Promise<{ output: string; url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PP_STATE_DIR: stateDir, PP_SKIP_BUILD: "1", WRANGLER_LOG: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Partners Portal is running at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { output, url: `http://localhost:${port}`, child };
}

/** Signals npm start's whole process group (npm, tsx, wrangler, workerd); gone already is fine. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // ESRCH: the group has exited
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on("exit", () => resolve());
    signal(child, "SIGINT");
  });
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
