import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import sharedWithBrowser from "./scripts/shared-with-browser.json" with { type: "json" };

// Outside a tree, its modules are reached by their alias (tsconfig.json paths), never by a relative path.
const RELATIVE_INTO_SERVER = { regex: "^(\\.\\./)+functions/", message: "Import server code as #server/... (tsconfig.json paths)." };
const RELATIVE_INTO_APP = { regex: "^(\\.\\./)+app/", message: "Import app code as #app/... (tsconfig.json paths)." };
// Tests: tests/ (whole-tree, tooling, integration, e2e, support) and each module's own test beside it (x.test.ts next
// to x.ts in functions/ or app/). Tests beside a module take the tests' rules below, not their folder's: they run in
// Node under vitest, are never imported by the Worker or the browser bundle, and may reach across app/ and functions/.
const TESTS = ["tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx"];
const TESTS_BESIDE_MODULES = ["**/*.test.ts", "**/*.test.tsx"];
// The server modules the browser may take values from: the one list the client build's check reads too (decision 014).
const SHARED_SPECIFIERS = sharedWithBrowser.map(({ module }) =>
  module
    .replace(/^functions\//, "")
    .replace(/\.ts$/, "")
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
);

export default tseslint.config(
  { ignores: ["build/", "dist/", "node_modules/", ".wrangler/", "test-results/", "playwright-report/", "tmp/", "functions/worker-configuration.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node }, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `import { type X }` alone still loads the module (verbatimModuleSyntax): `import type` keeps server modules out of the browser's graph (decision 014).
      "@typescript-eslint/no-import-type-side-effects": "error",
      // Stated although the type-checked set has it: a promise nobody awaits is how writes get lost.
      "@typescript-eslint/no-floating-promises": "error",
      // Remix loaders and actions end by throwing a redirect or a data() response: that is the framework's way.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "@remix-run/router", name: "DataWithResponseInit" },
            { from: "package", package: "@remix-run/server-runtime", name: "TypedResponse" },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Bindings reach loaders through the load context only (DESIGN section 3).
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "cloudflare:workers", message: "Use the load context (context.cloudflare.env)." }], patterns: [RELATIVE_INTO_SERVER] },
      ],
    },
  },
  {
    files: [...TESTS, "scripts/**/*.ts", "*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [RELATIVE_INTO_SERVER, RELATIVE_INTO_APP] }] },
  },
  {
    // Modules the browser bundle reaches other than route modules (whose loaders and actions Remix strips from it):
    // they take only types from functions/, and values only from its pure shared modules, the ones
    // scripts/shared-with-browser.json lists (the client build checks the same list; decision 014).
    // A route module is a `*.route.ts(x)` file, the name app/routes.ts lists; the rest of a feature folder is its
    // section modules, which the rule covers (decision 036).
    files: ["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}", "app/routes/**/*.{ts,tsx}", "app/entry.client.tsx"],
    ignores: ["**/*.server.ts", "**/*.server.tsx", "app/routes/**/*.route.{ts,tsx}", ...TESTS_BESIDE_MODULES],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^#server/(?!(${SHARED_SPECIFIERS.join("|")})$)`,
              allowTypeImports: true,
              message:
                "Server code stays on the server (decision 014): import only types here, or move the use into a loader, an action or a .server.ts module.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["functions/**/*.ts"],
    ignores: TESTS_BESIDE_MODULES,
    rules: {
      // functions/ is the server edge; it never depends on the UI.
      "no-restricted-imports": ["error", { patterns: [{ regex: "^((\\.\\./)+app/|#app/)", message: "functions/ must not import from app/." }] }],
    },
  },
  {
    // Test fakes stand in for async ports (SMS, payouts, D1) and answer at once; tests and
    // scripts read JSON reports and fixtures whose shape the assertions check. Promises
    // stay strict everywhere.
    files: [...TESTS, "scripts/**/*.ts"],
    rules: {
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    files: [...TESTS, "scripts/seed/**/*.ts"],
    rules: {
      // Miniflare's binding proxies make synchronous requests that can fail under load (decision 003).
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "MemberExpression[property.name=/^(getBindings|getD1Database|getKVNamespace|getQueueProducer|getR2Bucket|getDurableObjectNamespace|getWorker)$/]",
          message: "Reach bindings through the node-bindings Worker (tests/support/bindings.ts, Portal#db/kv/eventsQueue/scheduled), not Miniflare's proxies.",
        },
      ],
    },
  },
  // This file itself is plain JavaScript outside the TypeScript projects.
  { files: ["**/*.js", "**/*.cjs"], ...tseslint.configs.disableTypeChecked },
);
