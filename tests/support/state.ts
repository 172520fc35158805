// A local state folder with the migrations applied and the tiny seed written,
// made with the same wrangler commands `npm start` uses. Made once per test run
// and copied by each portal, so tests never share rows. The end-to-end tier makes its own: `npm test` runs it beside
// the integration tier, and making a template removes the one before.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startOfUtcDay } from "../../scripts/seed/generate";
import { migrateLocal, seedLocal } from "../../scripts/seed/local";
import { ROOT } from "./portal";

export const TEMPLATE_STATE = join(ROOT, ".wrangler/test-state");
export const E2E_TEMPLATE_STATE = join(ROOT, ".wrangler/test-state-e2e");

export async function prepareTemplateState(folder: string = TEMPLATE_STATE): Promise<string> {
  if (existsSync(folder)) rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  await migrateLocal(folder);
  // Up to now, as `npm start` seeds, but never past 05:59 UTC: a seed made after 06:00 has made today's settlement run
  // (as the Cron Trigger would have), and the tests of the run and of the Cron Trigger need yesterday's cleared money unsettled.
  const clock = Date.now();
  await seedLocal("tiny", folder, { now: Math.min(clock, startOfUtcDay(clock) + 6 * 3_600_000 - 60_000) });
  return folder;
}
