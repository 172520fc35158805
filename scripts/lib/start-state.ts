// What `npm start` makes of its state folder before it serves: the migrations, the demo data (once: an empty database
// only) and this build's id in local KV. One function, so a test that needs what a fresh `npm start` holds
// (tests/integration/api-examples.test.ts) prepares it exactly as `npm start` does.
import { readBuildIdFile } from "../build-id";
import { publishBuildId } from "../build-id-kv";
import { migrateLocal, seedLocal } from "../seed/local";

/** Returns whether it seeded (false: the database already had data). `stateDir` as PP_STATE_DIR; wrangler's own when left out. */
export async function prepareStartState(stateDir: string | undefined, log: (line: string) => void = () => {}): Promise<boolean> {
  log("Applying local D1 migrations…");
  await migrateLocal(stateDir);
  const seeded = await seedLocal("demo", stateDir);
  log(seeded ? "Seeded the demo data." : "Demo data already present; nothing added.");
  await publishBuildId(readBuildIdFile(), { remote: false, persistTo: stateDir });
  return seeded;
}
