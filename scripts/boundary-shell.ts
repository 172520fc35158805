// The client build drops Remix's <Scripts> from the one browser module that still names it: errorBoundaries.js, whose
// BoundaryShell renders <Scripts> only when Remix's own default HydrateFallback asks it to (fallback.js). The root has
// a HydrateFallback of its own, so that never happens here, and the browser's document scripts are the root's
// (app/components/paint-first-scripts.tsx, decision 043). Without the name, Rollup leaves <Scripts> and what only it
// uses out of every page's first load. Written against one file: when an upgrade changes it, the build stops and says
// so (as scripts/route-module-loading.ts does, decision 038).
import { readFileSync } from "node:fs";
import type { Plugin } from "vite";
import { sha256Of } from "./route-module-loading";

/** sha256 of @remix-run/react 2.17.5's dist/esm/errorBoundaries.js, the file this edits. */
export const EDITED_FILE_SHA256 = "d28a9870c453a634074665e276886b44d6c8a47caf587ef1177b95edb7ba2016";

const FILE = /[\\/]@remix-run[\\/]react[\\/]dist[\\/]esm[\\/]errorBoundaries\.js$/;
const IMPORT = "import { useRemixContext, Scripts } from './components.js';";
const RENDERED = "renderScripts ? /*#__PURE__*/React.createElement(Scripts, null) : null";

/** errorBoundaries.js without <Scripts>; throws if the file is not the one this was written against. */
export function withoutScripts(code: string): string {
  if (!code.includes(IMPORT) || !code.includes(RENDERED)) throw new Error("errorBoundaries.js does not name <Scripts> as expected");
  return code.replace(IMPORT, "import { useRemixContext } from './components.js';").replace(RENDERED, "null");
}

export function boundaryShellWithoutScripts(): Plugin {
  return {
    name: "pp:boundary-shell-without-scripts",
    enforce: "pre",
    load(id, options) {
      // The server renders the document's scripts with Remix's <Scripts> (paint-first-scripts.server.tsx).
      if (options?.ssr || !FILE.test(id)) return null;
      const sha256 = sha256Of(id);
      if (sha256 !== EDITED_FILE_SHA256) {
        this.error(
          `${id} is not the file scripts/boundary-shell.ts was written against (sha256 ${sha256}). Check that BoundaryShell ` +
            "still renders <Scripts> only for Remix's default HydrateFallback, then update EDITED_FILE_SHA256 (decision 043).",
        );
      }
      return withoutScripts(readFileSync(id, "utf8"));
    },
  };
}
