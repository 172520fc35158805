// A local state folder with the migrations applied and the tiny seed written,
// made with the same wrangler commands `npm start` uses. Made once per test run
// and copied by each portal, so tests never share rows.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startOfUtcDay } from "../../scripts/seed/generate";
import { migrateLocal, seedLocal } from "../../scripts/seed/local";
import { ROOT } from "./portal";

export const TEMPLATE_STATE = join(ROOT, ".wrangler/test-state");

export async function prepareTemplateState(): Promise<string> {
  if (existsSync(TEMPLATE_STATE)) rmSync(TEMPLATE_STATE, { recursive: true, force: true });
  mkdirSync(TEMPLATE_STATE, { recursive: true });
  await migrateLocal(TEMPLATE_STATE);
  // Up to now, as `npm start` seeds, but never past 05:59 UTC: a seed made after 06:00 has made today's settlement run
  // (as the Cron Trigger would have), and the tests of the run and of the Cron Trigger need yesterday's cleared money unsettled.
  const clock = Date.now();
  await seedLocal("tiny", TEMPLATE_STATE, { now: Math.min(clock, startOfUtcDay(clock) + 6 * 3_600_000 - 60_000) });
  return TEMPLATE_STATE;
}
