// npm run audit:verify -- --business ID [--persist-to DIR]
// npm run audit:verify -- --platform [--persist-to DIR]
// Walks audit chains (decision 025) on the local state (`npm start`'s .wrangler/state, PP_STATE_DIR, or DIR): a
// business's (its id, or its test business's, the id and "~test", decision 045) in its database and its sign-in events'
// chain in the core database; or, with --platform, the platform's own chain (the core database's entries of no
// business, decision 039). Prints OK with counts, or the first broken link, and exits 1. Entries not sealed yet (the
// tail, until the next request or the 5-minute cron) are counted, not called broken. It only reads. For production,
// export the databases (`wrangler d1 export NAME --remote`), load them into a folder (`wrangler d1 execute BINDING
// --local --persist-to DIR --file …`) and pass --persist-to DIR.
import { parseArgs } from "node:util";
import * as v from "valibot";
import { businessPlace } from "#server/tenancy/directory.db";
import { verifyBusinessChains, verifyPlatformChain, type ChainReport } from "#server/audit/audit-chain";
import { TEST_SUFFIX } from "#server/tenancy/test-mode";
import { withLocalDatabases } from "./seed/local";

const { values } = parseArgs({ options: { business: { type: "string" }, platform: { type: "boolean" }, "persist-to": { type: "string" } } });
// A live business's id, or its test business's (the live id and "~test").
const BusinessId = v.pipe(
  v.string(),
  v.check((id) => new RegExp(`^[A-Za-z0-9_-]{1,64}(${TEST_SUFFIX})?$`).test(id), "--business must be a business id (or one and ~test for its test mode)."),
);
const Args = v.union(
  [v.object({ business: BusinessId, platform: v.optional(v.literal(false)) }), v.object({ business: v.undefined(), platform: v.literal(true) })],
  "Say which chain: --business ID (ID~test for its test mode) or --platform.",
);
const args = v.safeParse(Args, { business: values.business, platform: values.platform });
if (!args.success) {
  console.error(args.issues[0].message);
  process.exit(2);
}
const businessId = args.output.business ?? null;

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
  if (businessId === null) return verifyPlatformChain(databases.core);
  const place = await businessPlace(databases.core, businessId);
  if (!place) return null;
  return verifyBusinessChains({ businessId, shard: place.shard, business: databases.byBinding(place.shard), core: databases.core });
});
if (!reports) {
  console.error(`No business ${businessId} in the directory.`);
  process.exit(2);
}
console.log(businessId === null ? "Audit chain of the platform:" : `Audit chains of ${businessId}:`);
for (const { database, report } of reports) console.log(describe(database, report));
if (reports.some(({ report }) => !report.ok)) process.exit(1);
