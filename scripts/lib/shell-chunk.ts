// Rollup's manualChunks for the client build: the app's own modules that every page loads (the root route, the entry
// and what they import statically: the shell, notifications, analytics' first half, the display rules) go into one
// chunk, `shell`, instead of a dozen small ones. Every page loads all of them anyway; one file compresses about 3 kB
// better than fourteen and is one request on a 400 ms link (decision 043). React and Remix are a chunk of their own,
// `react-remix`, which a deploy that changes only our code leaves as it was (its hash too, so browsers keep it), with
// app/components/route-code.ts, which Remix itself imports (decision 038): no library's chunk imports the shell.
import type { ManualChunksOption } from "rollup";

type ModuleInfoOf = Parameters<Extract<ManualChunksOption, (...args: never[]) => unknown>>[1]["getModuleInfo"];

const STARTS = [/\/app\/root\.tsx(\?|$)/, /\/app\/entry\.client\.tsx(\?|$)/];
const OURS = /\/(app|functions)\//;
const REACT_REMIX = /node_modules\/(react|react-dom|scheduler|@remix-run\/[\w-]+|react-router|react-router-dom|turbo-stream)\//;
const ROUTE_CODE = /\/app\/components\/route-code\.ts$/;

export function shellChunk(): ManualChunksOption {
  const memo = new Map<string, boolean>();
  /** Whether `id` is ours and only imported, statically, by our modules that lead up to the root or the entry. */
  function inShell(id: string, getModuleInfo: ModuleInfoOf, visiting: Set<string>): boolean {
    const known = memo.get(id);
    if (known !== undefined) return known;
    if (STARTS.some((start) => start.test(id))) return true;
    if (!OURS.test(id) || id.includes("node_modules") || visiting.has(id)) return false;
    const info = getModuleInfo(id);
    if (!info || info.importers.some((importer) => importer.includes("node_modules"))) {
      memo.set(id, false);
      return false;
    }
    visiting.add(id);
    const answer = info.importers.some((importer) => inShell(importer, getModuleInfo, visiting));
    visiting.delete(id);
    memo.set(id, answer);
    return answer;
  }
  return (id, { getModuleInfo }) => {
    if (REACT_REMIX.test(id) || ROUTE_CODE.test(id)) return "react-remix";
    if (STARTS.some((start) => start.test(id))) return undefined;
    return inShell(id, getModuleInfo, new Set()) ? "shell" : undefined;
  };
}
