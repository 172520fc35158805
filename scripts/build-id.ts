import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

export const BUILD_ID_FILE = "build/build-id.txt";

/** BUILD_ID from the environment (CI, deploy) or the commit plus the build time. */
export function resolveBuildId(): string {
  const fromEnv = process.env.BUILD_ID?.trim();
  if (fromEnv) return fromEnv;
  let commit = "local";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    // not a git checkout (an unpacked tarball): the time alone keeps ids distinct
  }
  return `${commit}-${Date.now().toString(36)}`;
}

export function writeBuildIdFile(buildId: string): void {
  mkdirSync("build", { recursive: true });
  writeFileSync(BUILD_ID_FILE, `${buildId}\n`);
}

export function readBuildIdFile(): string {
  return readFileSync(BUILD_ID_FILE, "utf8").trim();
}
