// npm run deploy: build with a fresh build id, apply remote D1 migrations,
// to every D1 database of wrangler.toml (the core and each shard), deploy the Worker, and only then publish the build id so browsers reload
// into assets that are already live. Needs `wrangler login` (or an API token)
// and the real D1/KV ids in wrangler.toml; see README "Deploy".
import { resolveBuildId } from "./build-id";
import { publishBuildId } from "./build-id-kv";
import { run } from "./lib/run";
import { d1Bindings, wranglerEnv } from "./lib/wrangler";

const buildId = resolveBuildId();
const env = wranglerEnv({ BUILD_ID: buildId });
// The R2 buckets must exist before a Worker that binds them is deployed (README "Deploy" creates them once):
// `wrangler r2 bucket info` fails for a missing one, and nothing has changed yet.
for (const bucket of ["partners-portal-archive", "partners-portal-evidence"]) await run("npx", ["wrangler", "r2", "bucket", "info", bucket], { env });
await run("npx", ["tsx", "scripts/build.ts"], { env });
// Every database gets every migration: the core one and each shard (decision 021), before the Worker that needs them.
for (const { binding } of d1Bindings()) await run("npx", ["wrangler", "d1", "migrations", "apply", binding, "--remote"], { env });
await run("npx", ["wrangler", "deploy", "--var", "ENVIRONMENT:production", "--var", "SERVER_TIMING:off"], { env });
await publishBuildId(buildId, { remote: true });
console.log(`Deployed build ${buildId}.`);
