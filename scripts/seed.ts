// npm run seed -- [--size tiny|demo] [--persist-to DIR]
// Applies local migrations, then seeds the local D1 if it is empty.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { SEED_SIZES } from "./seed/data";
import { migrateLocal, seedLocal } from "./seed/local";

const { values } = parseArgs({ options: { size: { type: "string", default: "demo" }, "persist-to": { type: "string" } } });
const size = v.safeParse(v.picklist(SEED_SIZES), values.size);
if (!size.success) {
  console.error(`Unknown seed size "${values.size}". Sizes: ${SEED_SIZES.join(", ")}.`);
  process.exit(2);
}
await migrateLocal(values["persist-to"]);
const seeded = await seedLocal(size.output, values["persist-to"]);
console.log(seeded ? `Seeded the local database (${size.output}).` : "The local database already has data; nothing seeded.");
