// The client build takes app/components/route-code.ts where @remix-run/react imports its own routeModules.js, whose
// loadRouteModule reloads the document when a page's code fails to load, offline too (decision 038). The swap is
// for the exact file it was written against: when an upgrade changes that file, the build stops and says so, so the
// replacement is read against the new one before it ships.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** sha256 of @remix-run/react 2.17.5's dist/esm/routeModules.js, the file route-code.ts replaces. */
export const REPLACED_FILE_SHA256 = "f8c635503fe7ca86e3876d39b05658a89077092c5f0872710c5c7aa75c3e5343";

const REMIX_ESM = /[\\/]@remix-run[\\/]react[\\/]dist[\\/]esm[\\/][^\\/]+\.js$/;
const REPLACED = "./routeModules.js";

export function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

export function routeModuleLoading(): Plugin {
  let root = process.cwd();
  let checked = false;
  return {
    name: "pp:route-module-loading",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
    },
    resolveId(source, importer, options) {
      // The server never loads route modules this way; the browser build is the one that reloads.
      if (options?.ssr || source !== REPLACED || !importer || !REMIX_ESM.test(importer)) return null;
      if (!checked) {
        const original = path.resolve(path.dirname(importer), source);
        const sha256 = sha256Of(original);
        if (sha256 !== REPLACED_FILE_SHA256) {
          this.error(
            `${original} is not the file app/components/route-code.ts replaces (sha256 ${sha256}). ` +
              "Compare its loadRouteModule with route-code.ts, carry over what changed, then update REPLACED_FILE_SHA256 " +
              "in scripts/route-module-loading.ts (decision 038).",
          );
        }
        checked = true;
      }
      return path.resolve(root, "app/components/route-code.ts");
    },
  };
}
