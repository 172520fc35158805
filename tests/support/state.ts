// A local state folder with the migrations applied and the tiny seed written,
// made with the same wrangler commands `npm start` uses. Made once per test run
// and copied by each portal, so tests never share rows.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrateLocal, seedLocal } from "../../scripts/seed/local";
import { ROOT } from "./portal";

export const TEMPLATE_STATE = join(ROOT, ".wrangler/test-state");

export async function prepareTemplateState(): Promise<string> {
  if (existsSync(TEMPLATE_STATE)) rmSync(TEMPLATE_STATE, { recursive: true, force: true });
  mkdirSync(TEMPLATE_STATE, { recursive: true });
  await migrateLocal(TEMPLATE_STATE);
  await seedLocal("tiny", TEMPLATE_STATE);
  return TEMPLATE_STATE;
}
