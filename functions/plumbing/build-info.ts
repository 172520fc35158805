/** KV key holding the id of the build that is deployed now (written at deploy). */
export const LATEST_BUILD_KEY = "build:latest";

export async function readLatestBuildId(kv: KVNamespace): Promise<string | null> {
  return kv.get(LATEST_BUILD_KEY);
}
