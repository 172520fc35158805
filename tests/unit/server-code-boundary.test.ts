// Decision 014: code from functions/ (SQL, bindings, secrets) never ships to the browser, except the pure shared modules.
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Linter } from "eslint";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_WITH_BROWSER, serverCodeBoundary, serverCodeInClient, type ClientModule } from "../../scripts/server-code-boundary";
import { ROUTE_FILES } from "../support/route-pages";

const root = "/portal";
const at = (file: string) => `${root}/${file}`;
const module = (file: string, renderedLength: number, importers: string[] = []): ClientModule => ({
  id: at(file),
  renderedLength,
  importers: importers.map(at),
});

describe("serverCodeInClient", () => {
  it("names a data module whose code a component brings into the bundle, and the import that did", () => {
    const graph = [module("app/components/merchant-card.tsx", 400), module("functions/merchants/merchants.db.ts", 1200, ["app/components/merchant-card.tsx"])];
    expect(serverCodeInClient(root, graph)).toEqual(["app/components/merchant-card.tsx → functions/merchants/merchants.db.ts"]);
  });

  it("follows the chain through server modules tree-shaking emptied, one line per UI module that leads there", () => {
    const graph = [
      module("app/routes/pos-terminals/list.route.tsx", 900),
      module("app/routes/pos-terminals/device-details.route.tsx", 900),
      module("functions/merchants/terminals.db.ts", 0, ["app/routes/pos-terminals/list.route.tsx", "app/routes/pos-terminals/device-details.route.tsx"]),
      module("functions/audit/audit.db.ts", 300, ["functions/merchants/terminals.db.ts"]),
    ];
    expect(serverCodeInClient(root, graph)).toEqual([
      "app/routes/pos-terminals/list.route.tsx → functions/merchants/terminals.db.ts → functions/audit/audit.db.ts",
      "app/routes/pos-terminals/device-details.route.tsx → functions/merchants/terminals.db.ts → functions/audit/audit.db.ts",
    ]);
  });

  it("lets through a server module that left no code (a loader's import, or types only)", () => {
    const graph = [
      module("app/routes/merchants/list.route.tsx", 900),
      module("functions/merchants/merchants.db.ts", 0, ["app/routes/merchants/list.route.tsx"]),
    ];
    expect(serverCodeInClient(root, graph)).toEqual([]);
  });

  it("lets through the pure shared modules and the UI's own code", () => {
    const graph = [
      module("app/routes/auth/sign-in-popup.ts", 700),
      module("app/routes/settings/team.tsx", 900),
      ...SHARED_WITH_BROWSER.map((file) => module(file, 500, ["app/routes/auth/sign-in-popup.ts", "app/routes/settings/team.tsx"])),
      module("node_modules/valibot/dist/index.js", 5000, ["app/routes/settings/team.tsx"]),
    ];
    expect(serverCodeInClient(root, graph)).toEqual([]);
  });

  it("reads ids with a query (?worker, ?url) as their file", () => {
    const graph = [module("app/root.tsx", 900), { id: at("functions/auth/session.ts?v=1"), renderedLength: 50, importers: [at("app/root.tsx")] }];
    expect(serverCodeInClient(root, graph)).toEqual(["app/root.tsx → functions/auth/session.ts"]);
  });

  it("shares only modules that exist under functions/", () => {
    for (const file of SHARED_WITH_BROWSER) expect(file).toMatch(/^functions\/[\w/-]+\.ts$/);
  });
});

// The plugin in a real client build (Vite and Rollup, no Remix) of a three-file project.
describe("serverCodeBoundary in a build", () => {
  const project = mkdtempSync(path.join(tmpdir(), "server-code-boundary-"));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  function write(file: string, text: string) {
    mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
    writeFileSync(path.join(project, file), text);
  }
  write(
    "functions/merchants/merchants.db.ts",
    'export interface Merchant { id: string }\nexport const listMerchants = (db: { prepare(sql: string): unknown }) => db.prepare("SELECT id FROM merchants WHERE business_id = ?");\n',
  );
  write("functions/permissions.ts", 'export const can = (role: string) => role === "Administrator";\n');

  const clientBuild = (entry: string, ssr = false) =>
    build({
      root: project,
      configFile: false,
      logLevel: "silent",
      plugins: [serverCodeBoundary()],
      build: { write: false, ssr, rollupOptions: { input: path.join(project, entry) } },
    });

  it("fails when a component uses a data module, naming the chain", async () => {
    write("app/components/card.ts", 'import { listMerchants } from "../../functions/merchants/merchants.db";\nexport const card = () => listMerchants;\n');
    write("app/entry.ts", 'import { card } from "./components/card";\nconsole.log(card());\n');
    await expect(clientBuild("app/entry.ts")).rejects.toThrow(
      /Server code in the browser bundle[\s\S]*\n {2}app\/components\/card\.ts → functions\/merchants\/merchants\.db\.ts\n/,
    );
  });

  it("passes when the UI takes only types from a data module and values from a shared one", async () => {
    write(
      "app/typed.ts",
      'import type { Merchant } from "../functions/merchants/merchants.db";\nimport { can } from "../functions/permissions";\nconst m: Merchant = { id: "m" };\nconsole.log(m, can("Viewer"));\n',
    );
    await expect(clientBuild("app/typed.ts")).resolves.toBeDefined();
  });

  it("leaves the server build alone", async () => {
    write("app/server.ts", 'import { listMerchants } from "../functions/merchants/merchants.db";\nexport { listMerchants };\n');
    await expect(clientBuild("app/server.ts", true)).resolves.toBeDefined();
  });
});

// The lint rule says the same as the build check, earlier: in components, lib, section modules and entry.client,
// a value import from functions/ is an error unless the module is one SHARED_WITH_BROWSER lists.
// eslint.config.js is plain JavaScript outside the TypeScript projects: it is read as ESLint's config type.
const { default: lintConfig } = (await import(new URL("../../eslint.config.js", import.meta.url).href)) as { default: Linter.Config[] };

describe("the lint rule for modules the browser reaches", () => {
  const block = lintConfig.find((c) => c.rules?.["@typescript-eslint/no-restricted-imports"]);
  const options = block?.rules?.["@typescript-eslint/no-restricted-imports"] as [string, { patterns: { regex: string; allowTypeImports: boolean }[] }];
  const pattern = options[1].patterns[0]!;
  const restricted = new RegExp(pattern.regex);

  it("covers components, lib, the routes' section modules and entry.client, not .server modules, route modules nor the tests beside modules", () => {
    expect(block?.files).toEqual(["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}", "app/routes/**/*.{ts,tsx}", "app/entry.client.tsx"]);
    // A test beside its module (app/lib/x.test.ts) runs in Node under vitest and no module imports it (sql-home.test.ts checks that).
    expect(block?.ignores).toEqual(["**/*.server.ts", "**/*.server.tsx", "app/routes/**/*.route.{ts,tsx}", "**/*.test.ts", "**/*.test.tsx"]);
    expect(pattern.allowTypeImports).toBe(true);
  });

  // The rule leaves out `*.route.ts(x)` files: that name must mean "listed in app/routes.ts", or a section module
  // named so would escape the rule, and a route module named otherwise would be held to it.
  it("leaves out exactly the route modules app/routes.ts lists", () => {
    const listed = new Set([...ROUTE_FILES.values()].map((file) => `app/${file}`));
    const named = readdirSync("app/routes", { recursive: true, encoding: "utf8" })
      .map((file) => `app/routes/${file.split(path.sep).join("/")}`)
      .filter((file) => /\.route\.tsx?$/.test(file));
    expect([...listed].sort()).toEqual(named.sort());
  });

  it("refuses every module of functions/ but the shared ones", () => {
    const files = readdirSync("functions", { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !file.endsWith(".test.ts"))
      .map((file) => `functions/${file.split(path.sep).join("/")}`);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const specifier = file.replace(/^functions\//, "#server/").replace(/\.ts$/, "");
      expect([file, restricted.test(specifier)]).toEqual([file, !SHARED_WITH_BROWSER.includes(file)]);
    }
  });

  it("and app/ reaches functions/ only through #server, never by a relative path from any depth", () => {
    const appBlock = lintConfig.find((c) => c.files?.includes("app/**/*.{ts,tsx}") && c.rules?.["no-restricted-imports"]);
    const appOptions = appBlock?.rules?.["no-restricted-imports"] as [string, { patterns: { regex: string }[] }];
    const relative = appOptions[1].patterns.map((p) => new RegExp(p.regex));
    for (const up of ["../", "../../", "../../../"]) expect(relative.some((r) => r.test(`${up}functions/permissions`))).toBe(true);
    expect(relative.some((r) => r.test("#server/permissions"))).toBe(false);
  });
});
