// npm start: build, migrate and seed the local D1 (once), publish the build id
// to local KV, then serve the Worker with `wrangler dev` at http://localhost:8787.
import { spawn } from "node:child_process";
import { readBuildIdFile } from "./build-id";
import { publishBuildId } from "./build-id-kv";
import { run } from "./lib/run";
import { wranglerEnv } from "./lib/wrangler";
import { migrateLocal, seedLocal } from "./seed/local";

const port = process.env.PORT ?? "8787";

console.log("Building…");
await run("npx", ["tsx", "scripts/build.ts"]);
console.log("Applying local D1 migrations…");
await migrateLocal();
console.log((await seedLocal("demo")) ? "Seeded the demo data." : "Demo data already present; nothing added.");
await publishBuildId(readBuildIdFile(), { remote: false });

const dev = spawn("npx", ["wrangler", "dev", "--port", port, "--ip", "127.0.0.1", "--show-interactive-dev-session=false"], {
  stdio: ["inherit", "pipe", "inherit"],
  env: wranglerEnv({ WRANGLER_LOG: process.env.WRANGLER_LOG ?? "info" }),
});
let announced = false;
dev.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes("Ready on")) {
    announced = true;
    console.log(`\n  Partners Portal is running at http://localhost:${port}\n  The shared UI pieces are at http://localhost:${port}/__dev/ui\n  Stop with Ctrl+C.\n`);
  }
});
const stop = () => dev.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
dev.on("exit", (code) => process.exit(code ?? 0));
