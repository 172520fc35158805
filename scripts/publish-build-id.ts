// npm run publish-build-id -- --remote | --local [--persist-to DIR]
// Publishes build/build-id.txt (written by the last build) as the deployed build.
import { parseArgs } from "node:util";
import { readBuildIdFile } from "./build-id";
import { publishBuildId } from "./build-id-kv";

const { values } = parseArgs({ options: { remote: { type: "boolean" }, local: { type: "boolean" }, "persist-to": { type: "string" } } });
if (values.remote === values.local) {
  console.error("Say where: --remote (after wrangler deploy) or --local.");
  process.exit(2);
}
const buildId = readBuildIdFile();
await publishBuildId(buildId, values.remote ? { remote: true } : { remote: false, persistTo: values["persist-to"] });
console.log(`Published build ${buildId} (${values.remote ? "remote" : "local"} KV).`);
