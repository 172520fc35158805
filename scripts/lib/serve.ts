// A portal served by `npm start` (wrangler dev) on a prepared state folder, for the
// benchmarks that measure it through HTTP: start it, wait until it answers, stop it.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export interface ServedPortal {
  base: string;
  /** Resolves once /builds/latest.json answers; throws with wrangler's last words after 3 minutes. */
  ready: () => Promise<void>;
  stop: () => void;
}

/** Call refuseTakenPort(port) first (scripts/lib/port.ts): a port already taken would be measured instead. */
export function servePortal(port: number, state: string): ServedPortal {
  const base = `http://127.0.0.1:${port}`;
  const server = spawn("npx", ["tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PP_STATE_DIR: state, PP_SKIP_BUILD: "1", WRANGLER_LOG: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  // Read, so a full pipe never stalls wrangler; kept short, to explain a start that fails.
  let stderr = "";
  server.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  // A portal that stopped (a port taken since refuseTakenPort looked, say) must not let ready() find another process answering.
  let exited: string | null = null;
  server.on("exit", (code, signal) => (exited = signal ?? `exit ${code}`));
  const stop = () => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stop);
  return {
    base,
    stop,
    ready: async () => {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        if (exited) throw new Error(`The portal stopped (${exited}) before it answered on ${base}:\n${stderr}`);
        try {
          if ((await fetch(`${base}/builds/latest.json?t=0`)).ok) return;
        } catch {
          // not up yet
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`The portal did not start on ${base}:\n${stderr}`);
    },
  };
}
