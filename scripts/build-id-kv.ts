// Writes this build's id to KV as the deployed one: `--local` for `npm start`
// (and tests, with --persist-to), `--remote` after `wrangler deploy`.
import { capture } from "./lib/run";
import { wranglerEnv } from "./lib/wrangler";

export const LATEST_BUILD_KEY = "build:latest";

export async function publishBuildId(buildId: string, where: { remote: true } | { remote: false; persistTo?: string }): Promise<void> {
  const target = where.remote ? ["--remote"] : ["--local", ...(where.persistTo ? ["--persist-to", where.persistTo] : [])];
  await capture("npx", ["wrangler", "kv", "key", "put", "--binding", "KV", ...target, LATEST_BUILD_KEY, buildId], { env: wranglerEnv() });
}
