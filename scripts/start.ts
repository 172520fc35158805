// npm start: build, migrate and seed the local D1 (once), publish the build id
// to local KV, then serve the Worker with `wrangler dev` at http://localhost:8787.
//   PORT=8788            another port
//   PP_STATE_DIR=DIR     keep local D1/KV state in DIR instead of .wrangler/state
//   PP_SKIP_BUILD=1      serve the existing build (tests use this)
import { spawn } from "node:child_process";
import { run } from "./lib/run";
import { prepareStartState } from "./lib/start-state";
import { wranglerEnv } from "./lib/wrangler";

const port = process.env.PORT ?? "8787";
const stateDir = process.env.PP_STATE_DIR || undefined;

if (process.env.PP_SKIP_BUILD !== "1") {
  console.log("Building…");
  await run("npx", ["tsx", "scripts/build.ts"]);
}
await prepareStartState(stateDir, (line) => console.log(line));

const dev = spawn(
  "npx",
  ["wrangler", "dev", "--port", port, "--ip", "127.0.0.1", "--show-interactive-dev-session=false", ...(stateDir ? ["--persist-to", stateDir] : [])],
  { stdio: "inherit", env: wranglerEnv() },
);
const stop = () => dev.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => process.exit(code ?? 0));

// Announce when the portal answers, whatever wrangler's log level prints.
const deadline = Date.now() + 120_000;
while (Date.now() < deadline && dev.exitCode === null) {
  try {
    await fetch(`http://127.0.0.1:${port}/builds/latest.json?t=${Date.now()}`);
    console.log(
      `\n  Partners Portal is running at http://localhost:${port}\n  The shared UI pieces are at http://localhost:${port}/__dev/ui\n  Stop with Ctrl+C.\n`,
    );
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
