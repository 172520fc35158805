// `npm start`, the seed and the tests apply the migrations themselves (scripts/seed/local.ts migrateLocal says why
// not through wrangler). What they leave must be what wrangler would: every file applied once, in order, on every
// database, and written in wrangler's own table so `wrangler d1 migrations apply --local` finds nothing left to do.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { capture } from "../../scripts/lib/run";
import { d1Bindings, wranglerEnv } from "../../scripts/lib/wrangler";
import { migrateLocal, withLocalDatabases } from "../../scripts/seed/local";
import { ROOT } from "../support/portal";

const dir = mkdtempSync(join(tmpdir(), "pp-migrations-"));
const FILES = readdirSync(join(ROOT, "migrations"))
  .filter((name) => name.endsWith(".sql"))
  .sort();

beforeAll(async () => {
  await migrateLocal(dir);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type SchemaRow = { type: string; name: string; sql: string | null };

it("applies every migration once, in order, on the core database and every shard, each with one schema", async () => {
  // A second run finds nothing to do (npm start runs it every time).
  await migrateLocal(dir);
  await withLocalDatabases(dir, async (databases) => {
    const schemas: SchemaRow[][] = [];
    for (const { binding } of d1Bindings()) {
      const db = databases.byBinding(binding);
      const applied = (await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map((row) => row.name);
      expect(applied, binding).toEqual(FILES);
      schemas.push(
        (
          await db
            .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name")
            .all<SchemaRow>()
        ).results,
      );
    }
    expect(schemas[0]!.length).toBeGreaterThan(50);
    for (const schema of schemas.slice(1)) expect(schema).toEqual(schemas[0]);
  });
});

it("leaves nothing for wrangler to apply", async () => {
  for (const { binding } of d1Bindings()) {
    const listed = await capture("npx", ["wrangler", "d1", "migrations", "list", binding, "--local", "--persist-to", dir], {
      cwd: ROOT,
      env: wranglerEnv({ CI: "true" }),
    });
    expect(listed, binding).toContain("No migrations to apply");
  }
}, 120_000);
