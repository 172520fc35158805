// npm run shard:move -- --business ID --to BINDING [--persist-to DIR]
// Moves one business's rows to another D1 database of wrangler.toml (SHARD_A, SHARD_B, …) on the local state
// (`npm start`'s, or DIR): the business is read-only meanwhile, the copy is checked by rows per table and ledger sums
// per account before the directory switches, and the old rows are removed only after (functions/tenancy/shard-move.ts,
// decision 021). The portal may keep running: its writes get "try again shortly", queued API payments wait.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { MoveRefused, moveBusiness } from "#server/tenancy/shard-move";
import { d1Bindings } from "./lib/wrangler";
import { withLocalDatabases } from "./seed/local";

const { values } = parseArgs({ options: { business: { type: "string" }, to: { type: "string" }, "persist-to": { type: "string" } } });
const bindings = d1Bindings().map((d) => d.binding);
const Args = v.object({
  business: v.pipe(v.string("Say which business: --business ID."), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "--business must be a business id.")),
  to: v.picklist(bindings, `--to must be one of ${bindings.join(", ")}.`),
});
const args = v.safeParse(Args, values);
if (!args.success) {
  console.error(args.issues[0].message);
  process.exit(2);
}

const started = performance.now();
try {
  const report = await withLocalDatabases(values["persist-to"], (databases) =>
    moveBusiness({ core: databases.core, database: databases.byBinding }, args.output.business, args.output.to),
  );
  console.log(`Moved ${report.businessId} from ${report.from} to ${report.to} in ${((performance.now() - started) / 1000).toFixed(1)} s:`);
  for (const [table, n] of Object.entries(report.rows)) if (n > 0) console.log(`  ${table.padEnd(22)} ${n.toLocaleString("en-GB")}`);
  console.log(`  ledger accounts checked ${report.accounts}`);
} catch (error) {
  if (!(error instanceof MoveRefused)) throw error;
  console.error(error.message);
  process.exit(1);
}
