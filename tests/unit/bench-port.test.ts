// A benchmark that starts its own portal must refuse a port
// another process holds, or it measures that process (1-3 ms for every page; decision 034).
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { portTaken } from "../../scripts/lib/port";

const ROOT = resolve(import.meta.dirname, "../..");
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** Listens on a free port of 127.0.0.1 (or on `host`) and answers nothing, as a stray dev server would. */
async function occupy(host = "127.0.0.1"): Promise<number> {
  server = createServer((socket) => socket.end());
  await new Promise<void>((done) => server!.listen(0, host, done));
  return (server.address() as { port: number }).port;
}

async function freePort(): Promise<number> {
  const port = await occupy();
  await new Promise<void>((done) => server!.close(() => done()));
  server = undefined;
  return port;
}

describe("the port check of the benchmarks (scripts/lib/port.ts)", () => {
  it("refuses a port something listens on", async () => {
    const port = await occupy();
    expect(await portTaken(port)).toMatch(String(port));
  });

  it("refuses a port held on every address (0.0.0.0)", async () => {
    const port = await occupy("0.0.0.0");
    expect(await portTaken(port)).not.toBeNull();
  });

  it("lets a free port through", async () => {
    expect(await portTaken(await freePort())).toBeNull();
  });

  it.each([
    ["scripts/bench/pages.ts", ["--size", "tiny"]],
    ["scripts/bench/ingest.ts", ["--seconds", "1"]],
  ])(
    "%s stops with exit 1 and says why, before seeding anything",
    async (script, args) => {
      const port = await occupy();
      // spawnSync would block the listener above from accepting; the check still sees it bound.
      const result = spawnSync("npx", ["tsx", script, "--port", String(port), ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} is in use`);
      expect(result.stdout).not.toMatch(/Seeding|measuring/);
    },
    90_000,
  );
});
