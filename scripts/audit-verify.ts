// npm run audit:verify -- --business ID [--persist-to DIR]
// Walks a business's audit chains (decision 025) on the local state (`npm start`'s .wrangler/state, PP_STATE_DIR, or
// DIR): the chain in its database, and its sign-in events' chain in the core database. Prints OK with counts, or the
// first broken link, and exits 1. Entries not sealed yet (the tail, until the next request or the 5-minute cron) are
// counted, not called broken. It only reads. For production, export the databases (`wrangler d1 export NAME --remote`),
// load them into a folder (`wrangler d1 execute BINDING --local --persist-to DIR --file …`) and pass --persist-to DIR.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { businessPlace } from "#server/tenancy/directory.db";
import { verifyBusinessChains, type ChainReport } from "#server/audit/audit-chain";
import { withLocalDatabases } from "./seed/local";

const { values } = parseArgs({ options: { business: { type: "string" }, "persist-to": { type: "string" } } });
const Args = v.object({
  business: v.pipe(v.string("Say which business: --business ID."), v.regex(/^[A-Za-z0-9_-]{1,64}$/, "--business must be a business id.")),
});
const args = v.safeParse(Args, values);
if (!args.success) {
  console.error(args.issues[0].message);
  process.exit(2);
}
const businessId = args.output.business;

function describe(database: string, report: ChainReport): string {
  const counts = `${report.sealed.toLocaleString("en-GB")} sealed, ${report.unsealed.toLocaleString("en-GB")} not sealed yet`;
  if (report.ok) return `OK      ${database}: ${counts}`;
  const { entry, kind, expected, found } = report.broken;
  const why = {
    link: "its prev_hash is not the hash of the entry before it (one removed or reordered)",
    content: "it was changed after sealing",
    order: "sealed after an unsealed entry",
  }[kind];
  return [
    `BROKEN  ${database}: ${counts} before the break`,
    `  first broken link: entry ${entry.id}, ${entry.createdAt}, ${entry.action} (${entry.entity}${entry.entityId ? ` ${entry.entityId}` : ""})`,
    `  ${why}`,
    `  expected ${expected ?? "-"}`,
    `  found    ${found ?? "-"}`,
  ].join("\n");
}

const reports = await withLocalDatabases(values["persist-to"] ?? (process.env.PP_STATE_DIR || undefined), async (databases) => {
  const place = await businessPlace(databases.core, businessId);
  if (!place) return null;
  return verifyBusinessChains({ businessId, shard: place.shard, business: databases.byBinding(place.shard), core: databases.core });
});
if (!reports) {
  console.error(`No business ${businessId} in the directory.`);
  process.exit(2);
}
console.log(`Audit chains of ${businessId}:`);
for (const { database, report } of reports) console.log(describe(database, report));
if (reports.some(({ report }) => !report.ok)) process.exit(1);
