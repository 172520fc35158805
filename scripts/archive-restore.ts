// npm run archive:restore -- --business ID --month YYYY-MM
// Puts one archived month of one business back into the local D1 from the local ARCHIVE bucket (the state
// `npm start` uses: .wrangler/state, or PP_STATE_DIR), exactly as it was (functions/archive/restore.ts), and
// forgets the month. A month older than ARCHIVE_RETENTION_MONTHS is archived again by the next daily run.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { isMonth } from "#server/archive/format";
import { NotArchived, restoreMonth } from "#server/archive/restore";
import { bindingsWorker, testD1, testR2, type BindingsFetch } from "../tests/support/bindings";
import { d1Bindings, shardIds } from "./lib/wrangler";

const ROOT = resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { business: { type: "string" }, month: { type: "string" } } });
if (!values.business || !values.month || !isMonth(values.month)) {
  console.error("Usage: npm run archive:restore -- --business ID --month YYYY-MM");
  process.exit(2);
}
const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
const d1Id = d1Bindings()[0]!.id;
const bucket = /^\s*bucket_name\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
if (!bucket) throw new Error("wrangler.toml has no R2 bucket_name");
const state = resolve(process.env.PP_STATE_DIR || join(ROOT, ".wrangler/state"));
const mf = new Miniflare({
  workers: [bindingsWorker({ d1Id, shardIds: shardIds(), archiveBucket: bucket, compatibilityDate: "2026-04-01" })],
  d1Persist: join(state, "v3/d1"),
  r2Persist: join(state, "v3/r2"),
  cf: false,
  host: "127.0.0.1",
  port: 0,
});
try {
  await mf.ready;
  const send: BindingsFetch = (url, init) => mf.dispatchFetch(url, init as never) as unknown as Promise<Response>;
  // The business's database, as the directory says (decision 021).
  const shard = await testD1(send, "DB").prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(values.business).first<string>("shard");
  if (!shard) throw new NotArchived(`No business ${values.business} in the directory.`);
  const { payments } = await restoreMonth({ bucket: testR2(send) }, { businessId: values.business, db: testD1(send, shard) }, values.month);
  console.log(`Restored ${payments} payments of ${values.business} for ${values.month}.`);
} catch (error) {
  if (!(error instanceof NotArchived)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await mf.dispose();
}
