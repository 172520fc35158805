// npm run platform:admin -- --email EMAIL --phone PHONE --name NAME [--remote | --persist-to DIR]
// Makes (or re-enables) a Platform Administrator in the core database (binding DB): the person's account, the phone
// their sign-in codes go to, and their place on the platform's staff, in one batch, audited as the system
// (functions/operators/bootstrap.ts, decision 039). A deployment's first administrator can be made no other way.
// Locally it writes the state `npm start` serves (.wrangler/state, PP_STATE_DIR, or DIR); with --remote, the deployed
// database through wrangler, as `npm run deploy` reaches it. Running it again with the same input changes nothing.
import { bootstrapPlatformAdmin, type BootstrapOutcome } from "#server/operators/bootstrap";
import type { RequestMeta } from "#server/tenancy/tenant";
import { parsePlatformAdminArgs } from "./lib/platform-admin-args";
import { wranglerD1 } from "./lib/wrangler-d1";
import { withLocalDatabases } from "./seed/local";

const parsed = parsePlatformAdminArgs(process.argv.slice(2), process.env);
if (!parsed.ok) {
  console.error(parsed.message);
  process.exit(2);
}
const { admin, remote, persistTo } = parsed.args;
// Where the audit log says the entry came from (the cron's entries say "cron").
const META: RequestMeta = { ip: null, userAgent: "npm run platform:admin", requestId: null };
const options = { now: Date.now(), meta: META };

const outcome: BootstrapOutcome = remote
  ? await bootstrapPlatformAdmin(wranglerD1("DB", { remote: true }), admin, options)
  : await withLocalDatabases(persistTo, (databases) => bootstrapPlatformAdmin(databases.core, admin, options));

const where = remote ? "the deployed core database" : "the local core database";
if (outcome.kind === "refused") {
  console.error(outcome.message);
  process.exit(1);
}
const who = `${outcome.name} <${admin.email}>`;
if (outcome.kind === "unchanged") {
  console.log(`${who} is already a Platform Administrator in ${where}; nothing changed.`);
} else {
  const done = {
    created: `Made a new account for ${who} as a Platform Administrator`,
    promoted: `Made ${who} a Platform Administrator (the account and its businesses' memberships stay as they were)`,
    reenabled: `Re-enabled ${who} as a Platform Administrator`,
  }[outcome.kind];
  console.log(`${done} in ${where}.`);
  console.log(`  ${outcome.linksPhone ? "Linked" : "Kept"} ${admin.phone.masked}: sign-in codes go to it (and to any number the account already had).`);
  if (outcome.kind !== "created" && outcome.name !== admin.name)
    console.log(`  The account keeps its own name, ${outcome.name}; --name is used only for a new account.`);
}
