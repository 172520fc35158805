// Import cycles in the server and the app (tests/unit/import-cycles.test.ts keeps the list empty). Every import
// counts, `import type` too: a cycle through a type still ties two modules together for whoever reads them. Module
// specifiers are resolved as TypeScript resolves them (tsconfig.json, its #server/* and #app/* paths included).
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const TREES = ["app", "functions"];
const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
}

/** Each module (relative to the root) and the modules of ours it imports. */
export function importGraph(roots: string[] = TREES): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap((tree) => sourceFiles(join(ROOT, tree)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule?.resolvedFileName;
      if (resolved && !resolved.includes("node_modules") && !resolved.endsWith(".d.ts")) targets.add(relative(ROOT, resolved));
    }
    graph.set(relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/** Every strongly connected group of two or more modules (or one that imports itself), each as a path round it. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, with an explicit stack: the graph has hundreds of modules and deep chains.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) groups.push(group.sort());
      }
    }
  }
  return groups;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const cycles = importCycles(importGraph());
  for (const group of cycles) console.log(`cycle of ${group.length}:\n  ${group.join("\n  ")}`);
  console.log(cycles.length === 0 ? "No import cycles." : `${cycles.length} import cycles.`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
