// npm run deploy: build with a fresh build id, apply remote D1 migrations,
// deploy the Worker, and only then publish the build id so browsers reload
// into assets that are already live. Needs `wrangler login` (or an API token)
// and the real D1/KV ids in wrangler.toml; see README "Deploy".
import { resolveBuildId } from "./build-id";
import { publishBuildId } from "./build-id-kv";
import { run } from "./lib/run";
import { wranglerEnv } from "./lib/wrangler";

const buildId = resolveBuildId();
const env = wranglerEnv({ BUILD_ID: buildId });
await run("npx", ["tsx", "scripts/build.ts"], { env });
await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--remote"], { env });
await run("npx", ["wrangler", "deploy", "--var", "ENVIRONMENT:production", "--var", "SERVER_TIMING:off"], { env });
await publishBuildId(buildId, { remote: true });
console.log(`Deployed build ${buildId}.`);
