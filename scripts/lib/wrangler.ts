import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** The environment for wrangler subprocesses: no telemetry prompts or sends on a closed network. */
export function wranglerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "", ...extra };
}

/** The D1 bindings of wrangler.toml with their database ids (local state is keyed by the id): the core DB first, then the shards. */
export function d1Bindings(): { binding: string; id: string }[] {
  const toml = readFileSync(resolve(import.meta.dirname, "../../wrangler.toml"), "utf8");
  const found = [...toml.matchAll(/\[\[d1_databases\]\]\s*\nbinding\s*=\s*"([^"]+)"[^[]*?database_id\s*=\s*"([^"]+)"/g)].map((m) => ({
    binding: m[1]!,
    id: m[2]!,
  }));
  if (!found.some((d) => d.binding === "DB")) throw new Error("wrangler.toml has no DB binding");
  return [...found.filter((d) => d.binding === "DB"), ...found.filter((d) => d.binding !== "DB")];
}

/** The shard bindings' ids by binding (SHARD_A, SHARD_B, …). */
export function shardIds(): Record<string, string> {
  return Object.fromEntries(d1Bindings().flatMap((d) => (d.binding === "DB" ? [] : [[d.binding, d.id]])));
}
