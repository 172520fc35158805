// npm run seed -- [--size tiny|demo|large] [--persist-to DIR] [--anchor YYYY-MM-DD]
// Applies local migrations, then seeds the local D1 if it is empty. Times are
// relative to the anchor (default: the start of today, UTC); seeded today, the
// payments go on up to the moment the seed is made.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { SEED_SIZES } from "./seed/data";
import { startOfUtcDay } from "./seed/generate";
import { countBusinesses, migrateLocal, seedLocal, tableCounts } from "./seed/local";

const { values } = parseArgs({
  options: { size: { type: "string", default: "demo" }, "persist-to": { type: "string" }, anchor: { type: "string" } },
});
const size = v.safeParse(v.picklist(SEED_SIZES), values.size);
if (!size.success) {
  console.error(`Unknown seed size "${values.size}". Sizes: ${SEED_SIZES.join(", ")}.`);
  process.exit(2);
}
let anchor = startOfUtcDay(Date.now());
if (values.anchor !== undefined) {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(values.anchor) ? Date.parse(`${values.anchor}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(parsed)) {
    console.error(`--anchor must be a date such as 2026-08-01, got "${values.anchor}".`);
    process.exit(2);
  }
  anchor = parsed;
}

const persistTo = values["persist-to"];
const started = performance.now();
await migrateLocal(persistTo);
if ((await countBusinesses(persistTo)) === 0) console.log(`Seeding ${size.output} data up to ${new Date(anchor).toISOString().slice(0, 10)} (UTC)…`);
const seeded = await seedLocal(size.output, persistTo, { anchor, progress: (line) => console.log(line) });
if (!seeded) {
  console.log("The local database already has data; nothing seeded.");
} else {
  const counts = await tableCounts(persistTo);
  console.log(`Seeded the local database (${size.output}) in ${((performance.now() - started) / 1000).toFixed(1)} s:`);
  for (const [table, n] of Object.entries(counts)) console.log(`  ${table.padEnd(22)} ${n.toLocaleString("en-GB")}`);
}
