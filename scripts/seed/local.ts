// Seeds the local D1 (wrangler's state, or a --persist-to folder for tests)
// only when it is empty, so running `npm start` again never adds rows twice.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capture } from "../lib/run";
import { wranglerEnv } from "../lib/wrangler";
import type { SeedSize } from "./data";
import { seedStatements } from "./sql";

function persistArgs(persistTo?: string): string[] {
  return persistTo ? ["--persist-to", persistTo] : [];
}

async function d1(args: string[], persistTo?: string): Promise<string> {
  return capture("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persistArgs(persistTo), ...args], {
    // Below "log", wrangler also drops the --json result we read.
    env: wranglerEnv({ WRANGLER_LOG: "log" }),
  });
}

export async function migrateLocal(persistTo?: string): Promise<void> {
  await capture("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persistArgs(persistTo)], {
    env: wranglerEnv({ WRANGLER_LOG: "error", CI: "true" }),
  });
}

export async function countBusinesses(persistTo?: string): Promise<number> {
  const out = await d1(["--json", "--command", "SELECT COUNT(*) AS n FROM businesses"], persistTo);
  const parsed = JSON.parse(out) as Array<{ results: Array<{ n: number }> }>;
  return parsed[0]?.results[0]?.n ?? 0;
}

/** Returns whether it seeded (false: the database already had data). */
export async function seedLocal(size: SeedSize, persistTo?: string): Promise<boolean> {
  if ((await countBusinesses(persistTo)) > 0) return false;
  const dir = mkdtempSync(join(tmpdir(), "pp-seed-"));
  try {
    const file = join(dir, `seed-${size}.sql`);
    writeFileSync(file, `${seedStatements(size).join("\n")}\n`);
    await d1(["--file", file], persistTo);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return true;
}
