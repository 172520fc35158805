// Builds the client and server with Remix/Vite, then bundles the Worker the way
// `wrangler deploy` would (offline, --dry-run) into dist/worker for the tests.
import { run } from "./lib/run";
import { wranglerEnv } from "./lib/wrangler";

await run("npx", ["remix", "vite:build"]);
await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist/worker"], { env: wranglerEnv({ WRANGLER_LOG: "warn" }) });
console.log("Built build/client, build/server and dist/worker/worker.js");
