// `npm start` (README command one: migrate, seed once, serve the portal with `wrangler dev`) run by a test on a
// free port, against a state folder of its own and the existing build (PP_SKIP_BUILD). For what holds only on
// `wrangler dev` (its local proxy), not in workerd as Miniflare runs it.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { ROOT } from "./portal";

export interface WranglerDev {
  output: string;
  url: string;
  child: ChildProcess;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs `npm start` on `stateDir` until it prints the URL; resolves with everything it printed. */
export async function startWranglerDev(stateDir: string): Promise<WranglerDev> {
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PP_STATE_DIR: stateDir, PP_SKIP_BUILD: "1", WRANGLER_LOG: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      signalGroup(child, "SIGKILL");
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`npm start printed no URL in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Partners Portal is running at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => fail(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { output, url: `http://localhost:${port}`, child };
}

/** Signals npm start's whole process group (npm, tsx, wrangler, workerd); gone already is fine. */
export function signalGroup(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // ESRCH: the group has exited
  }
}

export function stopWranglerDev(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on("exit", () => resolve());
    signalGroup(child, "SIGINT");
  });
}
